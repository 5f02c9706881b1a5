"use client";
// The thread page's keyboard shortcuts: the "thread" scope of the keyboard layer (components/layout/keyboard-layer.ts),
// so they work without first focusing a row; key presses in text fields and dialogs never reach it. The list the
// `?` dialog shows is components/layout/shortcuts.ts (scope "thread").
import { useRouter } from "next/navigation";
import { KEY_PRIORITY, useKeyScope } from "@/components/layout/keyboard-layer.ts";
import type { TimelineFeedController } from "./use-timeline-feed.ts";
import type { TimelineWindow } from "./use-timeline-window.ts";

export type TimelineKeyActions = {
  next: (target: "errors" | "pending" | "low_confidence" | "match", direction: "next" | "prev") => void;
  focusSearch: () => void;
  focusGoTo: () => void;
  toggleView: () => void;
};

export function useTimelineKeys(win: TimelineWindow, feed: TimelineFeedController, actions: TimelineKeyActions) {
  const router = useRouter();
  // Registered in the commit that shows the state it reads (the layer installs the newest handler then).
  useKeyScope("thread", KEY_PRIORITY.page, (event) => {
    const inFeed = event.target instanceof Node && feed.scrollRef.current?.contains(event.target) === true;
    const row = win.rows[feed.focusIndex];
    const letter = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    const direction = event.shiftKey ? "prev" : "next";
    switch (letter) {
      case "j":
        feed.focusRow(feed.focusIndex + 1);
        return true;
      case "k":
        feed.focusRow(feed.focusIndex - 1);
        return true;
      case "ArrowDown":
      case "ArrowUp":
        // Arrows scroll the page unless the reader is in the timeline.
        if (!inFeed) return false;
        feed.focusRow(feed.focusIndex + (letter === "ArrowDown" ? 1 : -1));
        return true;
      case "Home":
        if (win.state.hasBefore) win.goToStart();
        else feed.focusRow(0, "start");
        return true;
      case "End":
        if (win.state.hasMoreHistory) win.goToEnd();
        else feed.focusRow(win.rows.length - 1, "end");
        return true;
      case "Enter":
        // On a link or button inside a row, Enter is theirs.
        if (
          !inFeed ||
          (event.target instanceof HTMLElement && event.target.dataset.index === undefined) ||
          row?.kind !== "call"
        )
          return false;
        router.push(`/calls/${row.callRowId}`);
        return true;
      case "x":
        if (!row || row.kind === "batch") return false;
        feed.onToggle(row.key);
        return true;
      case "e":
        actions.next("errors", direction);
        return true;
      case "p":
        actions.next("pending", direction);
        return true;
      case "c":
        actions.next("low_confidence", direction);
        return true;
      case "n":
        actions.next("match", direction);
        return true;
      case "/":
        actions.focusSearch();
        return true;
      case "g":
        actions.focusGoTo();
        return true;
      case "w":
        actions.toggleView();
        return true;
      default:
        return false;
    }
  });
}
