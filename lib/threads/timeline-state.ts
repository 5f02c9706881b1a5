// Owns the thread page's client-side timeline state: one contiguous window of the thread's rows, grown at
// either end as the reader scrolls (older pages prepended, newer appended), replaced by a window fetched
// around a target when the reader jumps (step N, a call, the next error), and trimmed at the far end so a
// 100k-call thread never lives in the tab whole. Live events are shown at once (reader following the end)
// or held back as "N new"; every call's state updates in place. A page of a newer timeline epoch (rows
// rewritten) marks the window stale instead, and the view reads it again. A pure reducer, tested without a browser.
import type { CallBrief, TimelineEvent, TimelinePage } from "./schemas.ts";
import { isFoldedEvent } from "./timeline-rows.ts";

/** The most events the window keeps; beyond this the end away from the reader is dropped (and can be re-read). */
export const MAX_WINDOW_EVENTS = 4000;

export type TimelineState = {
  /** Events that have rows (results are folded into their call), applied, in id order. */
  events: TimelineEvent[];
  /** Live events that arrived while the reader was not following the end: shown on request. */
  buffered: TimelineEvent[];
  /** The current state of every call seen so far, by call row id. */
  calls: ReadonlyMap<number, CallBrief>;
  /** The lowest event id the window covers: the previous page ends before it. */
  firstEventId: number;
  /** The highest event id received (applied, buffered or folded): the next page starts after it. */
  lastEventId: number;
  /** Rows exist before the window. */
  hasBefore: boolean;
  /** Rows exist after the window (not loaded yet); live polling starts once the window reaches the end. */
  hasMoreHistory: boolean;
  /** Bumped whenever rows are added or dropped at the front, with how many events: the view keeps its place. */
  frontChange: { serial: number; added: number; removed: number };
  /** The thread's timeline epoch the window was read at (TimelinePage.epoch). */
  epoch: number;
  /**
   * A page of a newer epoch arrived: rows of this window may have been deleted and written again (OTel
   * re-mapping), so appending after `lastEventId` would show stale rows and miss their replacements. The page
   * is not applied; the view reads its window again (a reset).
   */
  stale: boolean;
};

export type TimelineAction =
  | { type: "history"; page: TimelinePage }
  | { type: "older"; page: TimelinePage }
  | { type: "reset"; page: TimelinePage }
  | { type: "live"; page: TimelinePage; follow: boolean }
  | { type: "show_buffered" };

const EMPTY: TimelineState = {
  events: [],
  buffered: [],
  calls: new Map(),
  firstEventId: 0,
  lastEventId: 0,
  hasBefore: false,
  hasMoreHistory: true,
  frontChange: { serial: 0, added: 0, removed: 0 },
  epoch: 0,
  stale: false,
};

export function initialTimelineState(page: TimelinePage): TimelineState {
  return timelineReducer(EMPTY, { type: "reset", page });
}

function mergeCalls(
  calls: ReadonlyMap<number, CallBrief>,
  updates: readonly CallBrief[],
): ReadonlyMap<number, CallBrief> {
  if (updates.length === 0) return calls;
  const next = new Map(calls);
  // Every page reflects the database when it was read, and pages are read in order: the newest wins.
  for (const call of updates) next.set(call.id, call);
  return next;
}

const rowEventsOf = (events: readonly TimelineEvent[]) => events.filter((event) => !isFoldedEvent(event));

/** Drops events beyond the cap from the front (the reader went down) and records it for the view. */
function trimFront(state: TimelineState): TimelineState {
  const excess = state.events.length - MAX_WINDOW_EVENTS;
  if (excess <= 0) return state;
  const events = state.events.slice(excess);
  return {
    ...state,
    events,
    hasBefore: true,
    firstEventId: events[0]?.id ?? state.firstEventId,
    frontChange: { serial: state.frontChange.serial + 1, added: 0, removed: excess },
  };
}

/** Drops events beyond the cap from the end (the reader went up): they are read again when needed. */
function trimBack(state: TimelineState): TimelineState {
  if (state.events.length <= MAX_WINDOW_EVENTS) return state;
  const events = state.events.slice(0, MAX_WINDOW_EVENTS);
  return { ...state, events, buffered: [], hasMoreHistory: true, lastEventId: events.at(-1)?.id ?? state.lastEventId };
}

function older(state: TimelineState, page: TimelinePage): TimelineState {
  const fresh = rowEventsOf(page.events.filter((event) => event.id < state.firstEventId));
  const next: TimelineState = {
    ...state,
    events: fresh.length ? [...fresh, ...state.events] : state.events,
    calls: mergeCalls(state.calls, page.calls),
    firstEventId: Math.min(state.firstEventId, page.firstEventId),
    hasBefore: page.hasBefore,
    frontChange: fresh.length
      ? { serial: state.frontChange.serial + 1, added: fresh.length, removed: 0 }
      : state.frontChange,
  };
  return trimBack(next);
}

export function timelineReducer(state: TimelineState, action: TimelineAction): TimelineState {
  if (action.type === "show_buffered") {
    if (state.buffered.length === 0) return state;
    return trimFront({ ...state, events: [...state.events, ...state.buffered], buffered: [] });
  }
  const { page } = action;
  if (action.type === "reset") {
    return trimFront({
      events: rowEventsOf(page.events),
      buffered: [],
      calls: mergeCalls(new Map(), page.calls),
      firstEventId: page.firstEventId,
      lastEventId: page.lastEventId,
      hasBefore: page.hasBefore,
      hasMoreHistory: page.hasMore,
      frontChange: { serial: state.frontChange.serial + 1, added: 0, removed: 0 },
      epoch: page.epoch,
      stale: false,
    });
  }
  if (page.epoch !== state.epoch) return state.stale ? state : { ...state, stale: true };
  if (action.type === "older") return older(state, page);
  // A page may overlap what is already here (a retried or raced request): keep only what is new.
  const fresh = page.events.filter((event) => event.id > state.lastEventId);
  const calls = mergeCalls(state.calls, page.calls);
  const lastEventId = Math.max(state.lastEventId, page.lastEventId);
  const hasMoreHistory = action.type === "history" ? page.hasMore : state.hasMoreHistory;
  if (
    fresh.length === 0 &&
    calls === state.calls &&
    lastEventId === state.lastEventId &&
    hasMoreHistory === state.hasMoreHistory
  )
    return state;

  const rowEvents = rowEventsOf(fresh);
  if (action.type === "history" || (action.follow && state.buffered.length === 0)) {
    return trimFront({
      ...state,
      events: rowEvents.length ? [...state.events, ...rowEvents] : state.events,
      calls,
      lastEventId,
      hasMoreHistory,
    });
  }
  return {
    ...state,
    buffered: rowEvents.length ? [...state.buffered, ...rowEvents] : state.buffered,
    calls,
    lastEventId,
    hasMoreHistory,
  };
}
