"use client";
// A relative time ("12 s ago") that keeps itself current; the absolute ISO time is in the title.
import { formatAge, formatDuration, formatTimestamp } from "./format-time.ts";
import { useNow } from "./use-now.ts";

// Kept here too: existing callers import the formatters from this module.
export { formatAge, formatDuration };

/**
 * `serverNow` (optional): the instant the server rendered the data (e.g. a snapshot's generatedAt). Until the
 * component mounts it renders relative to that instant, the same on server and client, so the text barely
 * changes when the live clock takes over; without it, the absolute time is shown until mount.
 */
export function TimeAgo({ iso, suffix = " ago", serverNow }: { iso: string; suffix?: string; serverNow?: string }) {
  const clock = useNow();
  const now = clock ?? (serverNow === undefined ? null : Date.parse(serverNow));
  const label = now === null ? formatTimestamp(iso) : `${formatAge(now - Date.parse(iso))}${suffix}`;
  return (
    <time dateTime={iso} title={iso} className="nowrap">
      {label}
    </time>
  );
}
