// Rows of the thread timeline: results folded into their calls, parallel calls of one step batched.
import { describe, expect, it } from "vitest";
import type { TimelineEvent } from "./schemas.ts";
import { buildTimelineRows, countRowEvents } from "./timeline-rows.ts";

let nextId = 0;
function event(overrides: Partial<TimelineEvent>): TimelineEvent {
  nextId += 1;
  return {
    id: nextId,
    kind: "output_text",
    step: null,
    role: "assistant",
    occurredAt: "2026-11-22T10:00:00.000Z",
    source: "api",
    text: "hello",
    textTruncated: false,
    layer: null,
    callRowId: null,
    resultId: null,
    ...overrides,
  };
}
const call = (callRowId: number, step: number | null) => event({ kind: "tool_call", step, callRowId, text: null });
const result = (callRowId: number) => event({ kind: "tool_result", callRowId, resultId: callRowId * 10, text: null });

describe("buildTimelineRows", () => {
  it("batches consecutive calls of one step, even with results arriving in between", () => {
    const rows = buildTimelineRows([
      event({}),
      call(1, 2),
      result(1),
      call(2, 2),
      call(3, 2),
      event({ kind: "reasoning" }),
      call(4, 3),
    ]);
    expect(rows.map((row) => row.kind)).toEqual(["event", "batch", "call", "call", "call", "event", "call"]);
    const batch = rows[1];
    expect(batch).toMatchObject({ kind: "batch", step: 2, size: 3 });
    expect(rows.slice(2, 5).map((row) => (row.kind === "call" ? row.batch : null))).toEqual([
      { step: 2, index: 0, size: 3 },
      { step: 2, index: 1, size: 3 },
      { step: 2, index: 2, size: 3 },
    ]);
    expect(rows[6]).toMatchObject({ kind: "call", callRowId: 4, batch: null });
  });

  it("never batches calls without a step or with different steps", () => {
    const rows = buildTimelineRows([call(1, null), call(2, null), call(3, 1), call(4, 2)]);
    expect(rows.every((row) => row.kind === "call" && row.batch === null)).toBe(true);
  });

  it("keeps keys stable and unique", () => {
    const events = [call(1, 0), call(2, 0), event({ kind: "error" }), call(3, 1)];
    const keys = buildTimelineRows(events).map((row) => row.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(buildTimelineRows(events).map((row) => row.key)).toEqual(keys);
  });

  it("counts the rows new events add (results only update their call)", () => {
    expect(countRowEvents([call(1, 0), result(1), event({ kind: "timeout", callRowId: 1 })])).toBe(2);
  });
});
