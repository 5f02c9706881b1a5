"use client";
// Says whether a polled view is live: a pulsing dot while polls succeed, a warning when they fail.
import { useNow } from "./use-now.ts";
import { formatAge } from "./format-time.ts";

export function LiveIndicator({ updatedAt, failing }: { updatedAt: number; failing: boolean }) {
  const now = useNow();
  const stale = now !== null && now - updatedAt > 10_000;
  if (failing || stale) {
    return (
      <span className="live-indicator live-indicator-stale" role="status">
        <span className="live-dot" aria-hidden="true" />
        {now === null ? "Not updating" : `Not updating · last update ${formatAge(now - updatedAt)} ago`}
      </span>
    );
  }
  return (
    <span className="live-indicator" role="status" aria-label="Live: updates every 2 seconds">
      <span className="live-dot" aria-hidden="true" />
      Live
    </span>
  );
}
