// Which thread a span names (threadHint): the conventions' conversation ids, strongest first.
import { describe, expect, it } from "vitest";
import { threadHint } from "./span-views.ts";
import type { OtelSpan } from "./otlp-types.ts";

function span(attributes: OtelSpan["attributes"]): OtelSpan {
  return {
    traceId: "a".repeat(32),
    spanId: "b".repeat(16),
    parentSpanId: null,
    name: "chat",
    kind: 1,
    startNs: "1",
    endNs: "2",
    attributes,
    events: [],
    links: [],
    status: { code: 0 },
  };
}

describe("threadHint", () => {
  it("reads each convention's conversation id", () => {
    expect(threadHint(span({ "gen_ai.conversation.id": "conv-1" }))).toEqual({
      groupId: "conv-1",
      source: "gen_ai.conversation.id",
      rank: 0,
    });
    expect(threadHint(span({ "ai.telemetry.metadata.conversationId": "conv-2" }))).toEqual({
      groupId: "conv-2",
      source: "ai.telemetry.metadata.conversationId",
      rank: 1,
    });
    expect(threadHint(span({ "ai.settings.context.threadId": "conv-3" }))).toEqual({
      groupId: "conv-3",
      source: "ai.settings.context.threadId",
      rank: 1,
    });
    expect(threadHint(span({ "traceloop.association.properties.session_id": "conv-4" }))).toEqual({
      groupId: "conv-4",
      source: "traceloop.association.properties.session_id",
      rank: 1,
    });
    expect(threadHint(span({ "session.id": "conv-5" }))).toEqual({ groupId: "conv-5", source: "session.id", rank: 2 });
  });

  it("prefers the GenAI conversation id, then a named thread key, then a bare session id", () => {
    expect(
      threadHint(
        span({ "session.id": "s", "traceloop.association.properties.chat_id": "c", "gen_ai.conversation.id": "g" }),
      )?.groupId,
    ).toBe("g");
    expect(threadHint(span({ "session.id": "s", "traceloop.association.properties.chat_id": "c" }))?.groupId).toBe("c");
  });

  it("names no thread without one of them (the trace id names it then)", () => {
    expect(
      threadHint(span({ "traceloop.association.properties.user_id": "u-1", "gen_ai.operation.name": "chat" })),
    ).toBeNull();
  });
});
