// Owns the thread page's client-side timeline state: pages of history appended in order, live events
// either shown at once (reader following the end) or held back as "N new", and every call's current
// state, which always updates in place. A pure reducer, tested without a browser.
import type { CallBrief, TimelineEvent, TimelinePage } from "./schemas.ts";
import { isFoldedEvent } from "./timeline-rows.ts";

export type TimelineState = {
  /** Events that have rows (results are folded into their call), applied, in id order. */
  events: TimelineEvent[];
  /** Live events that arrived while the reader was not following the end: shown on request. */
  buffered: TimelineEvent[];
  /** The current state of every call seen so far, by call row id. */
  calls: ReadonlyMap<number, CallBrief>;
  /** The highest event id received (applied, buffered or folded): the next page starts after it. */
  lastEventId: number;
  /** History not loaded yet; live polling starts once it is all here. */
  hasMoreHistory: boolean;
};

export type TimelineAction =
  | { type: "history"; page: TimelinePage }
  | { type: "live"; page: TimelinePage; follow: boolean }
  | { type: "show_buffered" };

export function initialTimelineState(page: TimelinePage): TimelineState {
  return timelineReducer({ events: [], buffered: [], calls: new Map(), lastEventId: 0, hasMoreHistory: true }, { type: "history", page });
}

function mergeCalls(calls: ReadonlyMap<number, CallBrief>, updates: readonly CallBrief[]): ReadonlyMap<number, CallBrief> {
  if (updates.length === 0) return calls;
  const next = new Map(calls);
  // Every page reflects the database when it was read, and pages are read in order: the newest wins.
  for (const call of updates) next.set(call.id, call);
  return next;
}

export function timelineReducer(state: TimelineState, action: TimelineAction): TimelineState {
  if (action.type === "show_buffered") {
    if (state.buffered.length === 0) return state;
    return { ...state, events: [...state.events, ...state.buffered], buffered: [] };
  }
  const { page } = action;
  // A page may overlap what is already here (a retried or raced request): keep only what is new.
  const fresh = page.events.filter((event) => event.id > state.lastEventId);
  const calls = mergeCalls(state.calls, page.calls);
  const lastEventId = Math.max(state.lastEventId, page.lastEventId);
  const hasMoreHistory = action.type === "history" ? page.hasMore : state.hasMoreHistory;
  if (fresh.length === 0 && calls === state.calls && lastEventId === state.lastEventId && hasMoreHistory === state.hasMoreHistory) return state;

  const rowEvents = fresh.filter((event) => !isFoldedEvent(event));
  if (action.type === "history" || (action.follow && state.buffered.length === 0)) {
    return { ...state, events: rowEvents.length ? [...state.events, ...rowEvents] : state.events, calls, lastEventId, hasMoreHistory };
  }
  return { ...state, buffered: rowEvents.length ? [...state.buffered, ...rowEvents] : state.buffered, calls, lastEventId, hasMoreHistory };
}
