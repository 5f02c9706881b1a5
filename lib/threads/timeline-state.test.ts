// The thread page's timeline state: history in order, live rows shown or held back, calls updated in place.
import { describe, expect, it } from "vitest";
import type { CallBrief, TimelineEvent, TimelinePage } from "./schemas.ts";
import { MAX_WINDOW_EVENTS, initialTimelineState, timelineReducer } from "./timeline-state.ts";

function event(id: number, kind = "tool_call", callRowId: number | null = id): TimelineEvent {
  return {
    id,
    kind,
    step: null,
    role: null,
    occurredAt: "2026-11-22T10:00:00.000Z",
    source: "api",
    text: null,
    textTruncated: false,
    layer: null,
    callRowId,
    resultId: null,
  };
}
function call(id: number, status = "pending"): CallBrief {
  return {
    id,
    callKey: `c${id}`,
    callId: null,
    toolName: "t",
    status,
    step: null,
    subscription: null,
    vendor: null,
    requestedAt: "2026-11-22T10:00:00.000Z",
    completedAt: null,
    deadlineAt: null,
    timedOutAt: null,
    resultCount: status === "pending" ? 0 : 1,
    argumentsPreview: "",
    argumentsIsJson: false,
    latestResult: null,
  };
}
function page(
  events: TimelineEvent[],
  calls: CallBrief[],
  hasMore = false,
  hasBefore = false,
  epoch = 0,
): TimelinePage {
  return {
    groupId: "g",
    events,
    calls,
    hasMore,
    hasBefore,
    firstEventId: events[0]?.id ?? 1,
    lastEventId: events.at(-1)?.id ?? 0,
    matches: null,
    epoch,
  };
}
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => event(from + i));

describe("timelineReducer", () => {
  it("marks the window stale instead of appending a page of a newer epoch (rows rewritten), until a reset", () => {
    // Rows 1–3 shown; a re-mapping deleted 2–3 and wrote 4–5 in their place, so "after 3" returns 4–5 only.
    let state = initialTimelineState(page(range(1, 3), []));
    for (const type of ["live", "history", "older"] as const) {
      const next = timelineReducer(
        state,
        type === "live"
          ? { type, follow: true, page: page(range(4, 5), [], false, false, 1) }
          : { type, page: page(range(4, 5), [], false, false, 1) },
      );
      expect(next.stale).toBe(true);
      expect(next.events.map((e) => e.id)).toEqual([1, 2, 3]);
      expect(next.lastEventId).toBe(3);
    }
    state = timelineReducer(state, { type: "live", follow: true, page: page(range(4, 5), [], false, false, 1) });
    expect(timelineReducer(state, { type: "live", follow: true, page: page([], [], false, false, 1) })).toBe(state);
    state = timelineReducer(state, { type: "reset", page: page([event(1), event(4), event(5)], [], false, false, 1) });
    expect(state).toMatchObject({ stale: false, epoch: 1 });
    expect(state.events.map((e) => e.id)).toEqual([1, 4, 5]);
    state = timelineReducer(state, { type: "live", follow: true, page: page([event(6)], [], false, false, 1) });
    expect(state.events.map((e) => e.id)).toEqual([1, 4, 5, 6]);
  });

  it("appends history pages and ignores overlap", () => {
    let state = initialTimelineState(page([event(1), event(2)], [call(1), call(2)], true));
    expect(state.hasMoreHistory).toBe(true);
    state = timelineReducer(state, { type: "history", page: page([event(2), event(3)], [call(3)]) });
    expect(state.events.map((e) => e.id)).toEqual([1, 2, 3]);
    expect(state.hasMoreHistory).toBe(false);
    expect(state.lastEventId).toBe(3);
  });

  it("updates a call in place when its result arrives, whatever the scroll position", () => {
    const start = initialTimelineState(page([event(1)], [call(1)]));
    const next = timelineReducer(start, {
      type: "live",
      follow: false,
      page: page([event(2, "tool_result", 1)], [call(1, "completed")]),
    });
    expect(next.events).toBe(start.events);
    expect(next.buffered).toEqual([]);
    expect(next.calls.get(1)?.status).toBe("completed");
  });

  it("holds new rows back while the reader is elsewhere, in order, until asked", () => {
    let state = initialTimelineState(page([event(1)], [call(1)]));
    state = timelineReducer(state, { type: "live", follow: false, page: page([event(2)], [call(2)]) });
    state = timelineReducer(state, { type: "live", follow: true, page: page([event(3)], [call(3)]) });
    expect(state.events.map((e) => e.id)).toEqual([1]);
    expect(state.buffered.map((e) => e.id)).toEqual([2, 3]);
    state = timelineReducer(state, { type: "show_buffered" });
    expect(state.events.map((e) => e.id)).toEqual([1, 2, 3]);
    expect(state.buffered).toEqual([]);
  });

  it("shows new rows at once when following the end, and returns the same state for an empty poll", () => {
    let state = initialTimelineState(page([event(1)], [call(1)]));
    state = timelineReducer(state, { type: "live", follow: true, page: page([event(2, "output_text", null)], []) });
    expect(state.events.map((e) => e.id)).toEqual([1, 2]);
    const empty: TimelinePage = {
      groupId: "g",
      events: [],
      calls: [],
      hasMore: false,
      hasBefore: false,
      firstEventId: 3,
      lastEventId: 2,
      matches: null,
      epoch: 0,
    };
    expect(timelineReducer(state, { type: "live", follow: true, page: empty })).toBe(state);
  });

  it("replaces the window when the reader jumps, and prepends older pages noting how many rows came in front", () => {
    let state = initialTimelineState(page(range(1, 3), [], true));
    state = timelineReducer(state, { type: "live", follow: false, page: page([event(4)], []) });
    state = timelineReducer(state, { type: "reset", page: page(range(500, 520), [call(510, "errored")], true, true) });
    expect(state.events.map((e) => e.id)).toEqual(range(500, 520).map((e) => e.id));
    expect(state.buffered).toEqual([]);
    expect(state).toMatchObject({ firstEventId: 500, lastEventId: 520, hasBefore: true, hasMoreHistory: true });
    expect(state.calls.get(510)?.status).toBe("errored");
    const serial = state.frontChange.serial;
    state = timelineReducer(state, { type: "older", page: page([...range(490, 499), event(500)], [], true, false) });
    expect(state.events[0]?.id).toBe(490);
    expect(state.events).toHaveLength(31);
    expect(state).toMatchObject({ firstEventId: 490, hasBefore: false });
    expect(state.frontChange).toEqual({ serial: serial + 1, added: 10, removed: 0 });
  });

  it("keeps at most MAX_WINDOW_EVENTS: drops the far end, which can be read again", () => {
    let state = initialTimelineState(page(range(1, MAX_WINDOW_EVENTS), [], true));
    state = timelineReducer(state, {
      type: "history",
      page: page(range(MAX_WINDOW_EVENTS + 1, MAX_WINDOW_EVENTS + 100), [], true),
    });
    expect(state.events).toHaveLength(MAX_WINDOW_EVENTS);
    expect(state).toMatchObject({ firstEventId: 101, hasBefore: true, lastEventId: MAX_WINDOW_EVENTS + 100 });
    expect(state.frontChange.removed).toBe(100);
    state = timelineReducer(state, { type: "older", page: page(range(51, 100), [], true, true) });
    expect(state.events).toHaveLength(MAX_WINDOW_EVENTS);
    expect(state).toMatchObject({ firstEventId: 51, hasMoreHistory: true, lastEventId: MAX_WINDOW_EVENTS + 50 });
  });
});
