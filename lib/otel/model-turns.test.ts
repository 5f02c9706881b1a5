// OTLP chat spans become model turns on every backend: a timeline row with model, tokens, latency and stop
// reason, the thread's totals and cost in its summary and on the threads list; re-sent or re-mapped spans
// never count twice.
import { ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getThreadSummary, listThreads } from "../threads/service.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { decodeProtobufExport } from "./otlp-proto.ts";
import { acceptTraceExport } from "./service.ts";
import { readThread } from "./testing/read-thread.ts";

type ChatSpan = { model: string; input: number; output: number; ms: number; cached?: number; startMs?: number };

function chatSpans(groupId: string, chats: ChatSpan[]) {
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer("turns");
  const base = Date.parse("2026-11-20T10:00:00.000Z");
  chats.forEach((chat, index) => {
    const start = base + (chat.startMs ?? index * 5_000);
    tracer
      .startSpan(`chat ${chat.model}`, {
        startTime: new Date(start),
        attributes: {
          "gen_ai.conversation.id": groupId,
          "gen_ai.operation.name": "chat",
          "gen_ai.request.model": chat.model,
          "gen_ai.response.id": `chatcmpl-${index}`,
          "gen_ai.response.finish_reasons": ["stop"],
          "gen_ai.usage.input_tokens": chat.input,
          "gen_ai.usage.output_tokens": chat.output,
          ...(chat.cached === undefined ? {} : { "gen_ai.usage.cache_read.input_tokens": chat.cached }),
        },
      })
      .end(new Date(start + chat.ms));
  });
  return decodeProtobufExport(
    ProtobufTraceSerializer.serializeRequest(exporter.getFinishedSpans()) ?? new Uint8Array(),
  );
}

describe.each(testBackends())("model turns from OTLP on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("shows a chat span with no messages as a turn row, and sums and prices it in the summary", async () => {
    const groupId = `turns-one-${Date.now()}`;
    const decoded = chatSpans(groupId, [{ model: "gpt-4.1", input: 812, output: 37, ms: 900 }]);
    expect(await acceptTraceExport({ decoded, database: t.database })).toBeNull();
    // The exporter's retry of the same batch adds nothing.
    expect(await acceptTraceExport({ decoded, database: t.database })).toBeNull();
    expect(await readThread(t, groupId, { turns: true })).toEqual(["turn gpt-4.1 812/37 stop 900ms"]);
    const summary = await getThreadSummary({ groupId, database: t.database });
    expect(summary?.modelTurns).toBe(1);
    expect(summary?.usage).toEqual({ inputTokens: 812, outputTokens: 37, cachedInputTokens: 0, reasoningTokens: 0 });
    // gpt-4.1 at $2 / $8 per million tokens.
    expect(summary?.cost.usd).toBeCloseTo((812 * 2 + 37 * 8) / 1e6, 12);
    expect(summary?.cost.complete).toBe(true);
    expect(summary?.cost.byModel.map((entry) => [entry.model, entry.priceKey, entry.turns])).toEqual([
      ["gpt-4.1", "gpt-4.1", 1],
    ]);
    const list = await listThreads({ query: { q: groupId }, database: t.database });
    expect(list.threads[0]?.usage).toEqual({
      modelTurns: 1,
      usage: { inputTokens: 812, outputTokens: 37, cachedInputTokens: 0, reasoningTokens: 0 },
      costUsd: summary?.cost.usd,
      costComplete: true,
    });
  });

  it('says "unknown model" (no price, never 0) and still sums its tokens', async () => {
    const groupId = `turns-unknown-${Date.now()}`;
    const decoded = chatSpans(groupId, [
      { model: "gpt-4.1-mini-2025-04-14", input: 1000, output: 100, cached: 400, ms: 300 },
      { model: "my-local-llama", input: 50, output: 5, ms: 120 },
    ]);
    expect(await acceptTraceExport({ decoded, database: t.database })).toBeNull();
    const summary = await getThreadSummary({ groupId, database: t.database });
    expect(summary?.usage).toEqual({
      inputTokens: 1050,
      outputTokens: 105,
      cachedInputTokens: 400,
      reasoningTokens: 0,
    });
    expect(summary?.cost.unknownModels).toEqual(["my-local-llama"]);
    expect(summary?.cost.complete).toBe(false);
    // gpt-4.1-mini: $0.40 input, $0.10 cached, $1.60 output.
    expect(summary?.cost.usd).toBeCloseTo((600 * 0.4 + 400 * 0.1 + 100 * 1.6) / 1e6, 12);
    const unknown = summary?.cost.byModel.find((entry) => entry.model === "my-local-llama");
    expect(unknown?.usd).toBeNull();
  });

  it("keeps one turn per span when a later export of the trace re-maps the thread", async () => {
    const groupId = `turns-remap-${Date.now()}`;
    const both = chatSpans(groupId, [
      { model: "gpt-4.1", input: 10, output: 1, ms: 100, startMs: 5_000 },
      { model: "gpt-4.1", input: 20, output: 2, ms: 100, startMs: 0 },
    ]);
    // The later span first (finished first), then the whole trace: the earlier span lands before it, rows are rewritten.
    const first = { ...both, spans: both.spans.slice(0, 1) };
    expect(await acceptTraceExport({ decoded: first, database: t.database })).toBeNull();
    expect(await readThread(t, groupId, { turns: true })).toEqual(["turn gpt-4.1 10/1 stop 100ms"]);
    expect(await acceptTraceExport({ decoded: both, database: t.database })).toBeNull();
    expect(await readThread(t, groupId, { turns: true })).toEqual([
      "turn gpt-4.1 20/2 stop 100ms",
      "turn gpt-4.1 10/1 stop 100ms",
    ]);
    const summary = await getThreadSummary({ groupId, database: t.database });
    expect(summary?.modelTurns).toBe(2);
    expect(summary?.usage.inputTokens).toBe(30);
  });
});
