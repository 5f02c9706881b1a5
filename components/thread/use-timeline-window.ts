"use client";
// Owns the thread page's data: the window of rows (timeline-state.ts) and the reads that move it — newer and
// older pages as the reader nears either end, live polling once the window reaches the end, and jumps
// (a target event, the end, a new search or filter) that replace the window with one read around the target.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useReducer, useRef, useState } from "react";
import { queryKeys } from "@/components/providers/query-keys.ts";
import { fetchJson } from "@/components/ui/fetch-json.ts";
import type { LocateResult, TimelineFilter, TimelinePage } from "@/lib/threads/schemas.ts";
import { buildTimelineRows, type TimelineRow } from "@/lib/threads/timeline-rows.ts";
import { initialTimelineState, timelineReducer } from "@/lib/threads/timeline-state.ts";

const PAGE = 500;
const WINDOW = 400;
const LIVE_PAGE = 500;
const POLL_MS = 1000;
/** Larger than any row id: "before" this is the end of the thread. */
export const END_ID = 2_147_483_647;

export type WindowPosition = { after: number } | { before: number } | { around: number };

function filterParams(filter: TimelineFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.q) params.set("q", filter.q);
  if (filter.only) params.set("only", filter.only);
  return params;
}

export function timelineUrl(groupId: string, position: WindowPosition, limit: number, filter: TimelineFilter): string {
  const params = filterParams(filter);
  for (const [key, value] of Object.entries(position)) params.set(key, String(value));
  params.set("limit", String(limit));
  return `/api/threads/${encodeURIComponent(groupId)}/timeline?${params}`;
}

export function locateUrl(groupId: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== "") params.set(key, String(value));
  return `/api/threads/${encodeURIComponent(groupId)}/locate?${params}`;
}

/** Where the view should go once the window holds it: a row by event id (serial: the same target twice still moves). */
export type JumpTarget = { eventId: number; serial: number; align: "center" | "end" | "start" };

export function rowIndexOf(rows: readonly TimelineRow[], eventId: number): number {
  return rows.findIndex((row) => row.kind !== "batch" && row.eventId === eventId);
}

// Over 80 lines: one hook owns every read that moves the window (pages, live poll, jumps), so they share one state.
// eslint-disable-next-line max-lines-per-function -- the window's queries (after, before, tail, jumps, locate) feed one reducer; split apart they would each need the whole state
export function useTimelineWindow(options: {
  groupId: string;
  initialPage: TimelinePage;
  initialFilter: TimelineFilter;
  initialTarget: number | null;
}) {
  const { groupId } = options;
  const client = useQueryClient();
  const [state, dispatch] = useReducer(timelineReducer, options.initialPage, initialTimelineState);
  const rows = useMemo(() => buildTimelineRows(state.events), [state.events]);
  const [filter, setFilterState] = useState<TimelineFilter>(options.initialFilter);
  const filterKey = filterParams(filter).toString();
  const [target, setTarget] = useState<JumpTarget | null>(() =>
    options.initialTarget === null ? null : { eventId: options.initialTarget, serial: 1, align: "center" },
  );
  const [jumping, setJumping] = useState(false);
  const [matches, setMatches] = useState(options.initialPage.matches);
  const [jumpError, setJumpError] = useState<string | null>(null);
  const [wantNewer, setWantNewer] = useState(false);
  const [wantOlder, setWantOlder] = useState(false);

  const newer = useQuery({
    queryKey: queryKeys.timelineWindow(groupId, filterKey, `after-${state.lastEventId}`),
    queryFn: ({ signal }) =>
      fetchJson<TimelinePage>(timelineUrl(groupId, { after: state.lastEventId }, PAGE, filter), signal),
    enabled: wantNewer && state.hasMoreHistory && !jumping && !state.stale,
    staleTime: Infinity,
    gcTime: 0,
  });
  useEffect(() => {
    if (newer.data) dispatch({ type: "history", page: newer.data });
  }, [newer.data]);

  const older = useQuery({
    queryKey: queryKeys.timelineWindow(groupId, filterKey, `before-${state.firstEventId}`),
    queryFn: ({ signal }) =>
      fetchJson<TimelinePage>(timelineUrl(groupId, { before: state.firstEventId }, PAGE, filter), signal),
    enabled: wantOlder && state.hasBefore && !jumping && !state.stale,
    staleTime: Infinity,
    gcTime: 0,
  });
  useEffect(() => {
    if (older.data) dispatch({ type: "older", page: older.data });
  }, [older.data]);

  const [follow, setFollow] = useState(true);
  const live = useQuery({
    queryKey: queryKeys.timelineWindow(groupId, filterKey, `tail-${state.lastEventId}`),
    queryFn: ({ signal }) =>
      fetchJson<TimelinePage>(timelineUrl(groupId, { after: state.lastEventId }, LIVE_PAGE, filter), signal),
    enabled: !state.hasMoreHistory && !jumping && !state.stale,
    refetchInterval: POLL_MS,
    gcTime: 0,
  });
  useEffect(() => {
    if (!live.data) return;
    dispatch({ type: "live", page: live.data, follow });
    // `follow` is read when the poll lands, not a reason to re-apply it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [live.data]);

  // Jumps are numbered: only the newest one may move the window. A slower, older read (clearing a search, then
  // picking a filter at once; End pressed twice) lands after a newer one and is dropped, not shown.
  const jumpTicket = useRef(0);
  const takeTicket = () => (jumpTicket.current += 1);
  const isNewest = (ticket: number) => ticket === jumpTicket.current;
  /** A jump that ends without a read of its own still ends the "jumping" state an older read had begun. */
  const settle = (ticket: number) => {
    if (isNewest(ticket)) setJumping(false);
  };

  /** Replaces the window with one read at `position` (and the filter), then points the view at `focus`. */
  const load = async (
    position: WindowPosition,
    nextFilter: TimelineFilter,
    focus: (page: TimelinePage) => JumpTarget | null,
    ticket = takeTicket(),
  ) => {
    if (!isNewest(ticket)) return;
    setJumping(true);
    setJumpError(null);
    try {
      const page = await client.fetchQuery({
        queryKey: queryKeys.timelineWindow(
          groupId,
          filterParams(nextFilter).toString(),
          `jump-${JSON.stringify(position)}`,
        ),
        queryFn: ({ signal }) => fetchJson<TimelinePage>(timelineUrl(groupId, position, WINDOW, nextFilter), signal),
        staleTime: 0,
        gcTime: 0,
      });
      if (!isNewest(ticket)) return;
      dispatch({ type: "reset", page });
      setMatches(page.matches);
      setTarget(focus(page));
    } catch (error) {
      if (isNewest(ticket)) setJumpError(error instanceof Error ? error.message : String(error));
    } finally {
      settle(ticket);
    }
  };

  const serialNext = () => Date.now();
  /** Shows the row of `eventId`: at once when the window holds it, else after reading a window around it. */
  const goToEvent = (eventId: number, ticket = takeTicket()) => {
    if (!isNewest(ticket)) return;
    if (state.events.some((event) => event.id === eventId)) {
      // In the window already; a read still in flight for an older jump is dropped when it lands.
      setJumping(false);
      setTarget({ eventId, serial: serialNext(), align: "center" });
    } else void load({ around: eventId }, filter, () => ({ eventId, serial: serialNext(), align: "center" }), ticket);
  };
  /** The last row (not the last event: trailing results fold into their calls), with the window around it. */
  const goToEnd = () => {
    // The ticket is taken before the locate read, so a jump made while it is in flight wins.
    const ticket = takeTicket();
    void (async () => {
      try {
        const filtered = Boolean(filter.q || filter.only);
        const query = filtered
          ? { target: "match", direction: "prev", q: filter.q, only: filter.only }
          : { target: "end" };
        const found = await fetchJson<LocateResult>(locateUrl(groupId, query));
        if (found.eventId === null) return settle(ticket);
        const eventId = found.eventId;
        await load({ around: eventId }, filter, () => ({ eventId, serial: serialNext(), align: "end" }), ticket);
      } catch (error) {
        if (isNewest(ticket)) setJumpError(error instanceof Error ? error.message : String(error));
        settle(ticket);
      }
    })();
  };
  const goToStart = () => {
    void load({ after: 0 }, filter, (page) =>
      page.events[0] ? { eventId: page.events[0].id, serial: serialNext(), align: "start" } : null,
    );
  };
  const setFilter = (next: TimelineFilter) => {
    setFilterState(next);
    void load({ after: 0 }, next, (page) =>
      page.events[0] ? { eventId: page.events[0].id, serial: serialNext(), align: "start" } : null,
    );
  };

  /** Asks the server where a target is (next error, step N, a call) and goes there; false when nothing matched. */
  const locate = async (query: Record<string, string | number | undefined>): Promise<boolean> => {
    const ticket = takeTicket();
    setJumpError(null);
    try {
      const found = await client.fetchQuery({
        queryKey: queryKeys.locate(groupId, JSON.stringify(query)),
        queryFn: ({ signal }) => fetchJson<LocateResult>(locateUrl(groupId, query), signal),
        staleTime: 0,
        gcTime: 0,
      });
      if (found.eventId === null) {
        settle(ticket);
        return false;
      }
      if (!isNewest(ticket)) return true;
      // A filtered window may not hold the found row: leave the filter so the row can be shown in place.
      if ((filter.q || filter.only) && !state.events.some((event) => event.id === found.eventId)) {
        setFilterState({});
        void load(
          { around: found.eventId },
          {},
          () => ({ eventId: found.eventId ?? 0, serial: serialNext(), align: "center" }),
          ticket,
        );
      } else goToEvent(found.eventId, ticket);
      return true;
    } catch (error) {
      if (isNewest(ticket)) setJumpError(error instanceof Error ? error.message : String(error));
      settle(ticket);
      return true;
    }
  };

  // Rows of this window were rewritten (a page of a newer timeline epoch came back): read the window again —
  // at the end when the reader follows it, else around where the window starts.
  useEffect(() => {
    if (!state.stale) return;
    // Started from a timer, not in the effect's body: the read sets state as it begins.
    const timer = setTimeout(() => {
      if (follow && !state.hasMoreHistory) goToEnd();
      else void load({ around: state.firstEventId }, filter, () => null);
    }, 0);
    return () => clearTimeout(timer);
    // Runs once per stale window; the read it starts resets the state.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state.stale]);

  return {
    state,
    rows,
    filter,
    setFilter,
    matches,
    target,
    jumping,
    jumpError,
    newer,
    older,
    live,
    follow,
    setFollow,
    setWantNewer,
    setWantOlder,
    goToEvent,
    goToEnd,
    goToStart,
    locate,
    showBuffered: () => dispatch({ type: "show_buffered" }),
  };
}

export type TimelineWindow = ReturnType<typeof useTimelineWindow>;
