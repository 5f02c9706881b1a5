// DB timeline → canonical events for live threads (rows as the events and callback services write them).
// Imported threads are checked against their parsed transcripts in import-transcript.test.ts, on real databases.
import { describe, expect, it } from "vitest";
import { renderHistory } from "../replay/render-history.ts";
import { toCanonicalTimeline } from "./canonical-timeline.ts";
import type { EventRow, TimelineCall, TimelineResult } from "./repository/timeline-reads.ts";

let nextId = 1;
function row(overrides: Partial<EventRow> & Pick<EventRow, "kind">): EventRow {
  nextId += 1;
  return {
    id: nextId,
    toolCallId: null,
    resultId: null,
    step: null,
    role: null,
    text: null,
    dataJson: null,
    rawJson: null,
    source: "api",
    occurredAt: "2026-11-22T10:00:00.000Z",
    ...overrides,
  };
}

function call(overrides: Partial<TimelineCall> & Pick<TimelineCall, "id" | "callKey" | "toolName">): TimelineCall {
  return {
    argumentsText: "{}",
    argumentsJson: "{}",
    argumentsError: null,
    declarationJson: null,
    vendor: null,
    step: null,
    status: "completed",
    resultCount: 1,
    ...overrides,
  };
}

const declaration = { name: "get_weather", description: "Weather for a city", inputSchema: { type: "object" } };
const calls: TimelineCall[] = [
  call({
    id: 10,
    callKey: "call_paris",
    toolName: "get_weather",
    argumentsText: '{"city": "Paris"}',
    argumentsJson: '{"city":"Paris"}',
    declarationJson: JSON.stringify(declaration),
  }),
  call({
    id: 11,
    callKey: "call_search",
    toolName: "search",
    argumentsText: '{"q": "unterminated',
    argumentsJson: null,
    argumentsError: "Unterminated string in JSON",
  }),
  call({ id: 12, callKey: "call_mcp", toolName: "fetch", status: "errored", resultCount: 0 }),
  call({ id: 13, callKey: "call_waiting", toolName: "get_weather", status: "pending", resultCount: 0 }),
];
const results: TimelineResult[] = [
  { id: 100, toolCallId: 10, ordinal: 0, text: "18 °C, cloudy", isError: false },
  { id: 101, toolCallId: 11, ordinal: 0, text: "Error: index unavailable", isError: true },
];
const events: EventRow[] = [
  row({ kind: "message", role: "user", text: "Weather in Paris? And search the docs." }),
  row({ kind: "reasoning", role: "assistant", text: "Two lookups." }),
  row({ kind: "tool_call", toolCallId: 10 }),
  row({ kind: "tool_call", toolCallId: 11 }),
  row({ kind: "tool_call", toolCallId: 12 }),
  row({ kind: "tool_result", toolCallId: 10, resultId: 100, source: "callback" }),
  row({ kind: "timeout", toolCallId: 11, source: "callback" }),
  row({ kind: "tool_result", toolCallId: 11, resultId: 101, source: "callback" }),
  row({ kind: "error", toolCallId: 12, text: "JSON-RPC error -32602: unknown tool", dataJson: '{"layer":"protocol"}' }),
  row({ kind: "output_text", role: "assistant", text: "Paris: 18 °C. Checking once more." }),
  row({ kind: "tool_call", toolCallId: 13, step: 7 }),
  row({ kind: "subscription_cancelled", toolCallId: 12 }),
];

describe("toCanonicalTimeline (live threads)", () => {
  const timeline = toCanonicalTimeline({ events, calls, results });

  it("maps every model-visible row, in order, with the trace-builder's step rule", () => {
    expect(timeline.events.map((event) => [event.kind, event.step, event.path])).toEqual([
      ["message", 0, "timeline[0]"],
      ["reasoning", 0, "timeline[1]"],
      ["tool_call", 0, "timeline[2]"],
      ["tool_call", 0, "timeline[3]"],
      ["tool_call", 0, "timeline[4]"],
      ["tool_result", 1, "timeline[5]"],
      ["tool_result", 1, "timeline[7]"],
      ["error", 1, "timeline[8]"],
      ["message", 1, "timeline[9]"],
      // A step sent by the runtime wins over the rule.
      ["tool_call", 7, "timeline[10]"],
    ]);
    expect(timeline.omitted).toEqual({ timeout: 1, subscription_cancelled: 1 });
    expect(timeline.format).toBeNull();
  });

  it("rebuilds calls, results and errors from their rows", () => {
    expect(timeline.events[2]).toEqual({
      kind: "tool_call",
      step: 0,
      callId: "call_paris",
      syntheticId: false,
      name: "get_weather",
      input: "json",
      argumentsText: '{"city": "Paris"}',
      arguments: { city: "Paris" },
      raw: null,
      path: "timeline[2]",
    });
    expect(timeline.events[3]).toMatchObject({
      kind: "tool_call",
      argumentsText: '{"q": "unterminated',
      argumentsError: "Unterminated string in JSON",
    });
    expect(timeline.events[3]).not.toHaveProperty("arguments");
    expect(timeline.events[6]).toMatchObject({
      kind: "tool_result",
      callId: "call_search",
      text: "Error: index unavailable",
      isError: true,
    });
    expect(timeline.events[7]).toMatchObject({
      kind: "error",
      layer: "protocol",
      callId: "call_mcp",
      message: "JSON-RPC error -32602: unknown tool",
    });
    expect(timeline.events[8]).toMatchObject({
      kind: "message",
      role: "assistant",
      text: "Paris: 18 °C. Checking once more.",
    });
  });

  it("takes declarations from the calls' registrations", () => {
    expect(timeline.declarations).toEqual([{ ...declaration, raw: declaration }]);
  });

  it("replays as a vendor history whose results pair with their calls and whose open call is pending", () => {
    const chat = renderHistory(timeline.events, timeline.events.length, "openai-chat", timeline.declarations);
    expect(chat.pendingCallIds).toEqual(["call_waiting"]);
    const request = chat.request as {
      messages: { role: string; tool_call_id?: string; content?: unknown }[];
      tools: unknown[];
    };
    expect(
      request.messages
        .filter((message) => message.role === "tool")
        .map((message) => [message.tool_call_id, message.content]),
    ).toEqual([
      ["call_paris", "18 °C, cloudy"],
      ["call_search", "Error: index unavailable"],
      ["call_mcp", "Error: JSON-RPC error -32602: unknown tool"],
    ]);
    expect(request.tools).toHaveLength(1);
    const halfway = renderHistory(timeline.events, 6, "anthropic");
    expect(halfway.pendingCallIds).toEqual(["call_search", "call_mcp"]);
  });

  it("leaves out rows whose call is missing instead of inventing one", () => {
    const orphan = toCanonicalTimeline({
      events: [row({ kind: "tool_call", toolCallId: 999 })],
      calls: [],
      results: [],
    });
    expect(orphan.events).toEqual([]);
    expect(orphan.omitted).toEqual({ "tool_call without a call": 1 });
  });
});
