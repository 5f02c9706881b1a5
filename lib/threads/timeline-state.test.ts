// The thread page's timeline state: history in order, live rows shown or held back, calls updated in place.
import { describe, expect, it } from "vitest";
import type { CallBrief, TimelineEvent, TimelinePage } from "./schemas.ts";
import { initialTimelineState, timelineReducer } from "./timeline-state.ts";

function event(id: number, kind = "tool_call", callRowId: number | null = id): TimelineEvent {
  return { id, kind, step: null, role: null, occurredAt: "2026-11-22T10:00:00.000Z", source: "api", text: null, textTruncated: false, layer: null, callRowId, resultId: null };
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
function page(events: TimelineEvent[], calls: CallBrief[], hasMore = false): TimelinePage {
  return { groupId: "g", events, calls, hasMore, lastEventId: events.at(-1)?.id ?? 0 };
}

describe("timelineReducer", () => {
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
    const next = timelineReducer(start, { type: "live", follow: false, page: page([event(2, "tool_result", 1)], [call(1, "completed")]) });
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
    const empty: TimelinePage = { groupId: "g", events: [], calls: [], hasMore: false, lastEventId: 2 };
    expect(timelineReducer(state, { type: "live", follow: true, page: empty })).toBe(state);
  });
});
