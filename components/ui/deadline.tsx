"use client";
// A call's deadline relative to now ("in 42 s" / "overdue 3 s"), kept current by the shared clock.
import { formatAge, formatTimestamp } from "./format-time.ts";
import { useNow } from "./use-now.ts";

/** The live clock once mounted; before that `serverNow` (the snapshot's time), so server and client agree. */
function useClock(serverNow: string | undefined): number | null {
  const clock = useNow();
  return clock ?? (serverNow === undefined ? null : Date.parse(serverNow));
}

/** Whether `deadlineIso` has passed. */
export function useIsOverdue(deadlineIso: string | null, serverNow?: string): boolean {
  const now = useClock(serverNow);
  return deadlineIso !== null && now !== null && Date.parse(deadlineIso) <= now;
}

export function Deadline({ iso, serverNow }: { iso: string | null; serverNow?: string }) {
  const now = useClock(serverNow);
  if (iso === null) return <span className="muted">none</span>;
  const left = now === null ? null : Date.parse(iso) - now;
  const label =
    left === null ? formatTimestamp(iso) : left > 0 ? `in ${formatAge(left)}` : `overdue ${formatAge(-left)}`;
  return (
    <time dateTime={iso} title={iso} className={`nowrap${left !== null && left <= 0 ? " deadline-overdue" : ""}`}>
      {label}
    </time>
  );
}
