"use client";
// A duration in the dashboard's one format (formatDuration lives in a client module, so server components render this).
import { formatDuration } from "@/components/ui/time-ago.tsx";

export function DurationText({ ms }: { ms: number }) {
  return <>{formatDuration(ms)}</>;
}
