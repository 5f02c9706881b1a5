"use client";
// The thread timeline's moves that ask the server where to go — next / previous error, pending call, low-confidence
// result or match (from the current row), and "go to" a step number or a call id — with the message shown when
// there is nowhere to go.
import { useState } from "react";
import type { NavTarget } from "./timeline-toolbar.tsx";
import type { TimelineFeedController } from "./use-timeline-feed.ts";
import { END_ID, type TimelineWindow } from "./use-timeline-window.ts";

const NOT_FOUND: Record<NavTarget | "match", string> = {
  errors: "error",
  pending: "pending call",
  low_confidence: "low-confidence result",
  match: "match",
};

export function useTimelineNavigation(win: TimelineWindow, feed: TimelineFeedController) {
  const [message, setMessage] = useState<string | null>(null);
  const focusedEventId = (() => {
    const row = win.rows[feed.focusIndex];
    return row && row.kind !== "batch" ? row.eventId : null;
  })();
  const next = (target: NavTarget | "match", direction: "next" | "prev") => {
    if (target === "match" && !win.filter.q && !win.filter.only) return;
    const from = focusedEventId ?? (direction === "next" ? 0 : END_ID);
    setMessage(null);
    void win.locate({ target, direction, from, q: win.filter.q, only: win.filter.only }).then((found) => {
      if (!found) setMessage(`No ${direction === "next" ? "later" : "earlier"} ${NOT_FOUND[target]}.`);
    });
  };
  const goTo = (value: string) => {
    setMessage(null);
    const step = /^#?\d+$/.test(value) ? Number(value.replace("#", "")) : null;
    void (async () => {
      if (step !== null && (await win.locate({ step }))) return;
      if (!(await win.locate({ call: value })))
        setMessage(
          step !== null ? `No step ${step} or call "${value}" in this thread.` : `No call "${value}" in this thread.`,
        );
    })();
  };
  return { next, goTo, message };
}
