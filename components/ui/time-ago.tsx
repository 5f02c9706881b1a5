"use client";
// A relative time ("12 s ago") that keeps itself current; the absolute ISO time is in the title.
import { useEffect, useState } from "react";

export function formatAge(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ${m % 60} min`;
  return `${Math.floor(h / 24)} d`;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return formatAge(ms);
}

export function TimeAgo({ iso, suffix = " ago" }: { iso: string; suffix?: string }) {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  // Until mounted, render the absolute time so server and client HTML agree (no hydration mismatch).
  const label = now === null ? new Date(iso).toISOString().replace("T", " ").slice(0, 19) : `${formatAge(now - Date.parse(iso))}${suffix}`;
  return (
    <time dateTime={iso} title={iso} className="nowrap">
      {label}
    </time>
  );
}
