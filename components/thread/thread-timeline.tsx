"use client";
// The thread timeline: a virtualized feed of rows (thousands stay smooth), history fetched in keyset
// pages as the reader nears the end, then live events polled every second. New rows never move the
// text the reader is looking at: unless they follow the end, rows wait behind an "N new" button.
// Keyboard: j/k or arrows move between rows, Home/End jump, Enter opens a call, x expands a row.
import { useQuery } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState, type KeyboardEvent } from "react";
import { threadQueryKeys } from "@/components/providers/query-keys.ts";
import type { TimelinePage } from "@/lib/threads/schemas.ts";
import { buildTimelineRows, countRowEvents } from "@/lib/threads/timeline-rows.ts";
import { initialTimelineState, timelineReducer } from "@/lib/threads/timeline-state.ts";
import { fetchJson } from "./api-client.ts";
import { TimelineRowView, estimateRowSize } from "./timeline-row.tsx";

const HISTORY_PAGE = 1000;
const LIVE_PAGE = 500;
const POLL_MS = 1000;
/** Start fetching the next history page when the reader is this many rows from the loaded end. */
const LOAD_AHEAD_ROWS = 60;
/** Within this distance of the bottom the reader "follows" the end and sees new rows at once. */
const FOLLOW_SLACK_PX = 48;

function timelineUrl(groupId: string, after: number, limit: number): string {
  return `/api/threads/${encodeURIComponent(groupId)}/timeline?after=${after}&limit=${limit}`;
}

function isTyping(target: EventTarget): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
}

export function ThreadTimeline({ groupId, initialPage }: { groupId: string; initialPage: TimelinePage }) {
  const router = useRouter();
  const [state, dispatch] = useReducer(timelineReducer, initialPage, initialTimelineState);
  const rows = useMemo(() => buildTimelineRows(state.events), [state.events]);
  const eventsById = useMemo(() => new Map(state.events.map((event) => [event.id, event])), [state.events]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const followRef = useRef(true);
  const [following, setFollowing] = useState(true);
  const scrollToEndPending = useRef(false);
  const pendingFocus = useRef<number | null>(null);
  const [loadAll, setLoadAll] = useState(false);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const [focusIndex, setFocusIndex] = useState(0);

  // The app does not run the React Compiler; the virtualizer is used exactly as TanStack documents it.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => {
      const row = rows[index];
      return estimateRowSize(row, row && row.kind !== "batch" ? eventsById.get(row.eventId) : undefined);
    },
    getItemKey: (index) => rows[index]?.key ?? index,
    overscan: 10,
    // Lets the server render the first screen of rows (same numbers on the client: no hydration mismatch).
    initialRect: { width: 1200, height: 720 },
  });
  const items = virtualizer.getVirtualItems();
  const lastRendered = items.at(-1)?.index ?? 0;
  const wantHistory = state.hasMoreHistory && (loadAll || lastRendered >= rows.length - LOAD_AHEAD_ROWS);

  const history = useQuery({
    queryKey: threadQueryKeys.timelinePage(groupId, state.lastEventId),
    queryFn: ({ signal }) => fetchJson<TimelinePage>(timelineUrl(groupId, state.lastEventId, HISTORY_PAGE), signal),
    enabled: wantHistory,
    staleTime: Infinity,
    gcTime: 0,
  });
  useEffect(() => {
    if (history.data) dispatch({ type: "history", page: history.data });
  }, [history.data]);

  const live = useQuery({
    queryKey: threadQueryKeys.timelineTail(groupId, state.lastEventId),
    queryFn: ({ signal }) => fetchJson<TimelinePage>(timelineUrl(groupId, state.lastEventId, LIVE_PAGE), signal),
    enabled: !state.hasMoreHistory,
    refetchInterval: POLL_MS,
    gcTime: 0,
  });
  useEffect(() => {
    if (!live.data) return;
    if (followRef.current && countRowEvents(live.data.events) > 0) scrollToEndPending.current = true;
    dispatch({ type: "live", page: live.data, follow: followRef.current });
  }, [live.data]);

  const updateFollowing = useCallback(() => {
    const element = scrollRef.current;
    if (!element) return;
    const atEnd = element.scrollHeight - element.scrollTop - element.clientHeight <= FOLLOW_SLACK_PX;
    followRef.current = atEnd;
    setFollowing((previous) => (previous === atEnd ? previous : atEnd));
  }, []);
  useEffect(updateFollowing, [updateFollowing]);

  // Rows appended while following: keep the end in view (after layout, before paint: no visible jump).
  useLayoutEffect(() => {
    if (!scrollToEndPending.current || rows.length === 0) return;
    scrollToEndPending.current = false;
    virtualizer.scrollToIndex(rows.length - 1, { align: "end" });
  }, [rows.length, virtualizer]);

  // "Jump to end": once every history page is in, go to the last row.
  useEffect(() => {
    if (!loadAll || state.hasMoreHistory || rows.length === 0) return;
    setLoadAll(false);
    const last = rows.length - 1;
    setFocusIndex(last);
    pendingFocus.current = last;
    virtualizer.scrollToIndex(last, { align: "end" });
  }, [loadAll, state.hasMoreHistory, rows.length, virtualizer]);

  // Move DOM focus to the focused row once the virtualizer has rendered it.
  useEffect(() => {
    const target = pendingFocus.current;
    if (target === null) return;
    const element = scrollRef.current?.querySelector<HTMLElement>(`[data-index="${target}"]`);
    if (element) {
      pendingFocus.current = null;
      element.focus({ preventScroll: true });
    }
  });

  const focusRow = useCallback(
    (index: number) => {
      const clamped = Math.max(0, Math.min(rows.length - 1, index));
      setFocusIndex(clamped);
      pendingFocus.current = clamped;
      virtualizer.scrollToIndex(clamped, { align: "auto" });
    },
    [rows.length, virtualizer],
  );
  const onFocusRow = useCallback((index: number) => setFocusIndex(index), []);
  const onToggle = useCallback((key: string) => {
    setExpanded((previous) => {
      const next = new Set(previous);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  }, []);

  const jumpToEnd = () => {
    if (state.hasMoreHistory) setLoadAll(true);
    else focusRow(rows.length - 1);
  };
  const showBuffered = () => {
    scrollToEndPending.current = true;
    dispatch({ type: "show_buffered" });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
    const onRow = event.target instanceof HTMLElement && event.target.getAttribute("role") !== "button" && event.target.dataset.index !== undefined;
    const row = rows[focusIndex];
    switch (event.key) {
      case "j":
      case "ArrowDown":
        event.preventDefault();
        focusRow(focusIndex + 1);
        break;
      case "k":
      case "ArrowUp":
        event.preventDefault();
        focusRow(focusIndex - 1);
        break;
      case "Home":
        event.preventDefault();
        focusRow(0);
        break;
      case "End":
        event.preventDefault();
        jumpToEnd();
        break;
      case "Enter":
        if (onRow && row?.kind === "call") {
          event.preventDefault();
          router.push(`/calls/${row.callRowId}`);
        }
        break;
      case "x":
        if (row && row.kind !== "batch") {
          event.preventDefault();
          onToggle(row.key);
        }
        break;
      default:
    }
  };

  const newCount = countRowEvents(state.buffered);
  const setSize = state.hasMoreHistory ? -1 : rows.length;
  const status = state.hasMoreHistory ? (history.isFetching ? "Loading history…" : "More history below") : live.isError ? "Live updates paused (retrying)" : following ? "Live · following the end" : "Live";

  return (
    <section className="timeline" aria-label="Timeline">
      <div className="timeline-toolbar">
        <span className={`tl-live-dot${state.hasMoreHistory ? "" : " tl-live-dot-on"}`} aria-hidden="true" />
        <span className="small muted" role="status" data-testid="timeline-status">
          {status}
        </span>
        <span className="small muted timeline-hint">
          <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>Enter</kbd> open · <kbd>x</kbd> expand · times in UTC
        </span>
        <button type="button" className="button" onClick={() => focusRow(0)}>
          Top
        </button>
        <button type="button" className="button" onClick={jumpToEnd}>
          {state.hasMoreHistory ? "Load all & jump to end" : "Jump to end"}
        </button>
      </div>
      <div className="timeline-frame">
        <div ref={scrollRef} className="timeline-scroll" role="feed" aria-label="Thread timeline" aria-busy={history.isFetching} onScroll={updateFollowing} onKeyDown={onKeyDown} data-testid="timeline-scroll">
          {rows.length === 0 ? <p className="muted timeline-empty">No events in this thread yet.</p> : null}
          <div className="timeline-sizer" style={{ height: virtualizer.getTotalSize() }}>
            {items.map((item) => {
              const row = rows[item.index];
              if (!row) return null;
              const event = row.kind === "batch" ? undefined : eventsById.get(row.eventId);
              const callRowId = row.kind === "call" ? row.callRowId : (event?.callRowId ?? null);
              return (
                <TimelineRowView
                  key={item.key}
                  row={row}
                  index={item.index}
                  setSize={setSize}
                  start={item.start}
                  focused={item.index === focusIndex}
                  expanded={expanded.has(row.key)}
                  event={event}
                  call={callRowId === null ? undefined : state.calls.get(callRowId)}
                  groupId={groupId}
                  measureRef={virtualizer.measureElement}
                  onFocusRow={onFocusRow}
                  onToggle={onToggle}
                />
              );
            })}
          </div>
        </div>
        {newCount > 0 ? (
          <button type="button" className="button button-primary new-rows" onClick={showBuffered} data-testid="new-rows">
            ↓ {newCount.toLocaleString("en-US")} new
          </button>
        ) : null}
        {history.isError ? (
          <p className="notice notice-bad timeline-error" role="alert">
            Could not load more of the timeline: {history.error.message}{" "}
            <button type="button" className="link-button" onClick={() => void history.refetch()}>
              Retry
            </button>
          </p>
        ) : null}
      </div>
    </section>
  );
}
