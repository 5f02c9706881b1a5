// Envelope fields copied into columns of their own (error.type, error.message, error.userMessage, meta.toolName,
// meta.toolVersion, meta.traceId) hold what PostgreSQL stores: a NUL in any of them made every write of the result
// fail there — a 503 the sender (or the OTLP exporter) retried for ever — while SQLite stored it. The columns now
// spell NUL out as \u0000 on both databases; the result's text keeps the exact bytes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acceptTraceExport } from "../otel/service.ts";
import { decodedExport, receivedSpan } from "../otel/testing/received-span.ts";
import { createSeeder } from "../overview/test-seed.ts";
import { decodeStoredText } from "../results/text-codec.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";

const envelope = JSON.stringify({
  success: false,
  data: null,
  confidence: 0.2,
  source: [],
  nextAction: "retry",
  error: { type: "time\u0000out", message: "disk\u0000full", retryable: true, userMessage: "try\u0000again" },
  meta: { toolName: "dep\u0000loy", toolVersion: "1\u0000", traceId: "t\u00001", durationMs: 5, cached: false },
});

describe.each(testBackends())("envelope columns with NUL on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("stores a callback result whose envelope strings hold NUL, the columns spelled out and the text exact", async () => {
    const seed = createSeeder(t.database);
    await seed.call({ group_id: "g-nul-envelope", id: "c1", name: "deploy" });
    const reply = await seed.deliver({ group_id: "g-nul-envelope", id: "c1", text: envelope });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const result = await t.database.client.toolResult.findFirstOrThrow({
      where: { toolCall: { groupId: "g-nul-envelope" } },
    });
    expect(result).toMatchObject({
      errorType: "time\\u0000out",
      errorMessage: "disk\\u0000full",
      errorUserMessage: "try\\u0000again",
      metaToolName: "dep\\u0000loy",
      metaToolVersion: "1\\u0000",
      metaTraceId: "t\\u00001",
    });
    expect(decodeStoredText(result.text, result.textEscaped)).toBe(envelope);
    const call = await t.database.client.toolCall.findFirstOrThrow({ where: { groupId: "g-nul-envelope" } });
    expect(call).toMatchObject({ status: "errored", resultErrorType: "time\\u0000out" });
  });

  it("stores an OTel tool span whose result is such an envelope", async () => {
    const spans = [
      receivedSpan(
        "e".repeat(32),
        "execute_tool",
        {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.conversation.id": "g-nul-span",
          "gen_ai.tool.name": "deploy",
          "gen_ai.tool.call.id": "c1",
          "gen_ai.tool.call.result": envelope,
        },
        "f".repeat(16),
      ),
    ];
    expect(await acceptTraceExport({ decoded: decodedExport(spans), database: t.database })).toBeNull();
    const result = await t.database.client.toolResult.findFirstOrThrow({
      where: { toolCall: { groupId: "g-nul-span" } },
    });
    expect(result.errorMessage).toBe("disk\\u0000full");
    expect(decodeStoredText(result.text, result.textEscaped)).toBe(envelope);
  });
});
