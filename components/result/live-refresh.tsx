"use client";
// Re-renders the server page every few seconds while something can still change (a pending call, an
// active subscription), so new results and deliveries appear without a reload; client state is kept.
import { useRouter } from "next/navigation";
import { useEffect } from "react";

export function LiveRefresh({ active, intervalMs = 2000 }: { active: boolean; intervalMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") router.refresh();
    }, intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs, router]);
  return active ? (
    <span className="small muted live-note" role="status">
      <span className="tl-live-dot tl-live-dot-on" aria-hidden="true" /> live
    </span>
  ) : null;
}
