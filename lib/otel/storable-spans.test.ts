// Spans whose text PostgreSQL refuses somewhere other than the escaped span JSON: a NUL in a span's name (its own
// column) or in a tool call id inside gen_ai.output.messages (looked up in a jsonb list) failed the whole export
// there — a 503 the exporter retried for ever — while SQLite stored it. Both are stored now, alike on both.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import type { ReceivedSpan } from "./otlp-types.ts";
import { acceptTraceExport } from "./service.ts";
import { decodedExport, receivedSpan as span } from "./testing/received-span.ts";

describe.each(testBackends())("spans with NUL on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await t.cleanup();
  });
  const accept = (spans: ReceivedSpan[]) => acceptTraceExport({ decoded: decodedExport(spans), database: t.database });

  it("stores a span whose name holds NUL: the name column spelled out, the span JSON exact", async () => {
    const attributes = {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.conversation.id": "g-nul-name",
      "gen_ai.tool.name": "t",
      "gen_ai.tool.call.id": "c1",
      "gen_ai.tool.call.result": "ok",
    };
    expect(await accept([span("1".repeat(32), "execute\u0000tool", attributes)])).toBeNull();
    const row = await t.database.client.otelSpan.findFirstOrThrow({ where: { traceId: "1".repeat(32) } });
    expect(row.name).toBe("execute\\u0000tool");
    expect((JSON.parse(row.spanJson) as { name: string }).name).toBe("execute\u0000tool");
    expect(await t.database.client.toolCall.count({ where: { groupId: "g-nul-name" } })).toBe(1);
  });

  it("stores a model span whose output messages request a tool call with NUL in its id, keyed by the id's hash", async () => {
    const output = [
      {
        role: "assistant",
        parts: [{ type: "tool_call", id: "call\u0000x", name: "lookup", arguments: { q: 1 } }],
        finish_reason: "tool_calls",
      },
    ];
    const attributes = {
      "gen_ai.operation.name": "chat",
      "gen_ai.conversation.id": "g-nul-id",
      "gen_ai.output.messages": JSON.stringify(output),
    };
    expect(await accept([span("2".repeat(32), "chat", attributes)])).toBeNull();
    const calls = await t.database.client.toolCall.findMany({ where: { groupId: "g-nul-id" } });
    expect(calls.map((call) => [call.toolName, call.callKey.startsWith("id-sha256-")])).toEqual([["lookup", true]]);
  });
});
