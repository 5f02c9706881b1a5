"use client";
// Owns the timeline's scroll position: the virtualizer over the window's rows, moving the current row (whose
// DOM focus use-row-focus.ts owns), asking for older / newer pages near either end, keeping the reader's place
// when rows come in (or are dropped) above them, following the end while live, and scrolling to a jump target once its window has arrived.
import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { estimateRowSize } from "./timeline-row.tsx";
import { useRowFocus } from "./use-row-focus.ts";
import { rowIndexOf, type TimelineWindow } from "./use-timeline-window.ts";

/** Ask for the next page when the reader is this many rows from an end of the window. */
const LOAD_AHEAD_ROWS = 60;
/** Within this distance of the bottom the reader "follows" the end and sees new rows at once. */
const FOLLOW_SLACK_PX = 48;

export function useTimelineFeed(win: TimelineWindow) {
  const { rows, state, target } = win;
  const eventsById = useMemo(() => new Map(state.events.map((event) => [event.id, event])), [state.events]);
  const scrollRef = useRef<HTMLDivElement>(null);
  // Focus follows a row (by key), not a position: rows prepended above it leave it focused.
  const rowKeys = useMemo(() => rows.map((row) => row.key), [rows]);
  const { focusKey, focusIndex, moveTo, selectFocused: setFocusIndex } = useRowFocus(rowKeys, scrollRef);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());

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
  const firstRendered = items[0]?.index ?? 0;
  const lastRendered = items.at(-1)?.index ?? 0;
  const { setWantNewer, setWantOlder } = win;
  // A jump replaces the window, and until the view has scrolled to its target the rendered range still reflects
  // the old scroll position (after "go to call 7", near the top): reading older or newer pages from there would
  // pile pages onto the new window and trim its far end — the target with it. Edges count once the target shows.
  const settledTarget = useRef<number | null>(null);
  useEffect(() => {
    if (target && target.serial !== settledTarget.current) {
      const index = rowIndexOf(rows, target.eventId);
      if (index >= 0 && (index < firstRendered || index > lastRendered)) {
        setWantNewer(false);
        setWantOlder(false);
        return;
      }
      settledTarget.current = target.serial;
    }
    setWantNewer(lastRendered >= rows.length - LOAD_AHEAD_ROWS);
    setWantOlder(firstRendered <= LOAD_AHEAD_ROWS);
  }, [firstRendered, lastRendered, rows, target, setWantNewer, setWantOlder]);

  const { setFollow } = win;
  const updateFollowing = useCallback(() => {
    const element = scrollRef.current;
    if (!element) return;
    setFollow(
      !state.hasMoreHistory && element.scrollHeight - element.scrollTop - element.clientHeight <= FOLLOW_SLACK_PX,
    );
  }, [setFollow, state.hasMoreHistory]);
  useEffect(updateFollowing, [updateFollowing]);

  // Rows added or dropped above the reader: move the scroll position by their height so the text in view stays put.
  const frontSerial = useRef(state.frontChange.serial);
  const previousRows = useRef(rows.length);
  useLayoutEffect(() => {
    const change = state.frontChange;
    const rowDelta = rows.length - previousRows.current;
    previousRows.current = rows.length;
    if (change.serial === frontSerial.current) return;
    frontSerial.current = change.serial;
    const element = scrollRef.current;
    if (!element || (change.added === 0 && change.removed === 0)) return;
    if (change.added > 0) {
      const added = Math.max(0, rowDelta);
      element.scrollTop += added > 0 ? (virtualizer.getOffsetForIndex(added, "start")?.[0] ?? 0) : 0;
    } else {
      // Estimated: the dropped rows are gone from the virtualizer's measurements.
      element.scrollTop = Math.max(0, element.scrollTop - change.removed * 56);
    }
  }, [state.frontChange, rows.length, virtualizer]);

  // Live rows appended while following the end: keep the end in view (after layout, before paint).
  const lastEvent = state.events.at(-1)?.id ?? 0;
  const shownLast = useRef(lastEvent);
  useLayoutEffect(() => {
    const grew = lastEvent > shownLast.current;
    shownLast.current = lastEvent;
    if (grew && win.follow && !state.hasMoreHistory && rows.length > 0)
      virtualizer.scrollToIndex(rows.length - 1, { align: "end" });
    // Only new rows at the end move the view.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lastEvent]);

  const focusRow = useCallback(
    (index: number, align: "auto" | "center" | "end" | "start" = "auto") => {
      const clamped = Math.max(0, Math.min(rows.length - 1, index));
      moveTo(clamped);
      virtualizer.scrollToIndex(clamped, { align });
      // Once more after the next frame: rows measured meanwhile may have moved the target.
      requestAnimationFrame(() => virtualizer.scrollToIndex(clamped, { align }));
    },
    [rows.length, moveTo, virtualizer],
  );

  // A jump landed (or the window already held its row): focus and centre it.
  useLayoutEffect(() => {
    if (!target) return;
    const index = rowIndexOf(rows, target.eventId);
    if (index >= 0) focusRow(index, target.align);
    // Each target is applied once, when it is set (rows of its window arrive in the same render).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [target]);

  const onToggle = useCallback((key: string) => {
    setExpanded((previous) => {
      const next = new Set(previous);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  }, []);

  return {
    scrollRef,
    virtualizer,
    items,
    /** The current row's key once the reader (or a jump) has moved it; null before. */
    focusKey,
    focusIndex,
    setFocusIndex,
    focusRow,
    expanded,
    onToggle,
    updateFollowing,
    eventsById,
  };
}

export type TimelineFeedController = ReturnType<typeof useTimelineFeed>;
