"use client";
// The thread timeline: a window of the thread's rows (never the whole thread), read on the server around
// wherever the reader goes — search and filters, next / previous error, pending, low confidence, step N or a
// call id, top and end — shown as virtualized rows or as a waterfall, then kept live once it reaches the end.
// Data: use-timeline-window.ts; scroll and focus: use-timeline-feed.ts; keys: use-timeline-keys.ts.
import { useRef, useState } from "react";
import "./thread-nav.css";
import type { TimelineFilter, TimelinePage } from "@/lib/threads/schemas.ts";
import { ThreadWaterfall } from "./thread-waterfall.tsx";
import { TimelineFeed } from "./timeline-feed.tsx";
import { TimelineNav, TimelineSearch } from "./timeline-toolbar.tsx";
import { useTimelineFeed, type TimelineFeedController } from "./use-timeline-feed.ts";
import { useThreadUrl, type SharedRow, type TimelineView } from "./use-thread-url.ts";
import { useTimelineNavigation } from "./use-timeline-navigation.ts";
import { useTimelineKeys } from "./use-timeline-keys.ts";
import { useTimelineWindow, type TimelineWindow } from "./use-timeline-window.ts";
import type { Zoom } from "./waterfall-scale.ts";

/** The row the address names: the current one once the reader (or a jump) has moved it. */
function sharedRow(win: TimelineWindow, feed: TimelineFeedController): SharedRow {
  const row = feed.focusKey === null ? undefined : win.rows[feed.focusIndex];
  if (row?.kind === "event") return { event: row.eventId };
  const callKey = row?.kind === "call" ? win.state.calls.get(row.callRowId)?.callKey : undefined;
  return callKey === undefined ? null : { call: callKey };
}

type Props = {
  groupId: string;
  initialPage: TimelinePage;
  initialFilter?: TimelineFilter;
  initialTarget?: number | null;
  /** From the address (?view=, ?wf=): a shared link opens the same view. */
  initialView?: TimelineView;
  initialZoom?: Zoom | null;
};

export function ThreadTimeline({
  groupId,
  initialPage,
  initialFilter = {},
  initialTarget = null,
  initialView = "rows",
  initialZoom = null,
}: Props) {
  const win = useTimelineWindow({ groupId, initialPage, initialFilter, initialTarget });
  const feed = useTimelineFeed(win);
  const [view, setView] = useState<TimelineView>(initialView);
  const [zoom, setZoom] = useState<Zoom | null>(initialZoom);
  const searchRef = useRef<HTMLInputElement>(null);
  const goToRef = useRef<HTMLInputElement>(null);
  const { state, rows } = win;

  // The address follows the filter, the view, the zoom and, once the reader has moved, their row.
  useThreadUrl({ filter: win.filter, row: sharedRow(win, feed), view, zoom });
  const { next, goTo, message } = useTimelineNavigation(win, feed);
  useTimelineKeys(win, feed, {
    next,
    focusSearch: () => searchRef.current?.focus(),
    focusGoTo: () => goToRef.current?.focus(),
    toggleView: () => setView((current) => (current === "rows" ? "waterfall" : "rows")),
  });

  const busy = win.jumping || win.newer.isFetching || win.older.isFetching;
  const status = busy
    ? "Loading…"
    : state.hasMoreHistory
      ? "More below"
      : win.live.isError
        ? "Live updates paused (retrying)"
        : win.follow
          ? "Live · following the end"
          : "Live";

  return (
    <section className="timeline" aria-label="Timeline">
      <div className="timeline-toolbar">
        <TimelineSearch
          key={`${win.filter.q ?? ""}|${win.filter.only ?? ""}`}
          filter={win.filter}
          matches={win.matches}
          onFilter={win.setFilter}
          searchRef={searchRef}
        />
        <TimelineNav onNext={next} onGoTo={goTo} goToRef={goToRef} />
      </div>
      <div className="timeline-toolbar">
        <span className={`tl-live-dot${state.hasMoreHistory ? "" : " tl-live-dot-on"}`} aria-hidden="true" />
        <span className="small muted" role="status" data-testid="timeline-status">
          {status}
        </span>
        {message || win.jumpError ? (
          <span className="small tl-message" role="status" data-testid="timeline-message">
            {win.jumpError ? `Could not move: ${win.jumpError}` : message}
          </span>
        ) : null}
        <span className="small muted timeline-hint">
          <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>e</kbd> next error · <kbd>g</kbd> go to · <kbd>w</kbd> waterfall · times
          in UTC
        </span>
        <div className="segmented" role="group" aria-label="Timeline view">
          <button type="button" className="segment" aria-pressed={view === "rows"} onClick={() => setView("rows")}>
            Rows
          </button>
          <button
            type="button"
            className="segment"
            aria-pressed={view === "waterfall"}
            onClick={() => setView("waterfall")}
          >
            Waterfall
          </button>
        </div>
        <button
          type="button"
          className="button"
          onClick={() => (state.hasBefore ? win.goToStart() : feed.focusRow(0, "start"))}
        >
          Top
        </button>
        <button
          type="button"
          className="button"
          onClick={() => (state.hasMoreHistory ? win.goToEnd() : feed.focusRow(rows.length - 1, "end"))}
        >
          Jump to end
        </button>
      </div>
      {view === "rows" ? (
        <TimelineFeed win={win} feed={feed} groupId={groupId} />
      ) : (
        <ThreadWaterfall win={win} zoom={zoom} onZoom={setZoom} />
      )}
    </section>
  );
}
