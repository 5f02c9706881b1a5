// OTLP ingest on every backend: spans from the real AI SDK and OTel exporters' serializers become threads;
// re-sent batches store once; spans arriving out of order (across requests) end in the right thread and order.
import { JsonTraceSerializer, ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getTimelinePage } from "../threads/service.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { decodeJsonExport } from "./otlp-json.ts";
import { decodeProtobufExport } from "./otlp-proto.ts";
import { acceptTraceExport, getCallSpans } from "./service.ts";
import { runAiSdkToolLoop } from "./testing/ai-sdk-run.ts";
import { readThread } from "./testing/read-thread.ts";

function protobuf(spans: ReadableSpan[]) {
  return decodeProtobufExport(ProtobufTraceSerializer.serializeRequest(spans) ?? new Uint8Array());
}

const EXPECTED = [
  "message system: You are a weather assistant.",
  "message user: What is the weather in Paris?",
  "message assistant: Let me check the weather.",
  'call weather call-weather-1 completed {"city":"Paris"} → {"city":"Paris","sky":"sunny","celsius":21}',
  'call flaky call-fail-1 errored {"attempt":1} → Error: upstream timed out (attempt 1)',
  "result call-weather-1",
  "result call-fail-1",
  "error: Error: upstream timed out (attempt 1)",
  "message assistant: It is sunny in Paris, 21 °C.",
];

describe.each(testBackends())("OTLP ingest on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await t.cleanup();
  });
  const accept = (decoded: ReturnType<typeof protobuf>) => acceptTraceExport({ decoded, database: t.database });

  it.each(["otel", "legacy"] as const)(
    "maps an AI SDK tool loop (%s mode) onto its conversation's thread, call by call",
    async (mode) => {
      const conversationId = `conv-${mode}-${Date.now()}`;
      const { spans } = await runAiSdkToolLoop({ mode, conversationId });
      expect(await accept(protobuf(spans))).toBeNull();
      expect(await readThread(t, conversationId)).toEqual(EXPECTED);
      const weather = (await getTimelinePage({ groupId: conversationId, database: t.database })).calls.find(
        (call) => call.toolName === "weather",
      );
      const panel = await getCallSpans({ callRowId: weather?.id ?? 0, database: t.database });
      expect(panel?.spans.map((span) => span.role)).toEqual(["tool execution", "model call", "model call"]);
      expect(panel?.spans[0]?.scope.name).toBe("ai-sdk-test");
    },
  );

  it("gives each call the explorer columns its result's trigger computes (the writer sets them, the trigger agrees)", async () => {
    const conversationId = `conv-explorer-${Date.now()}`;
    const { spans } = await runAiSdkToolLoop({ mode: "otel", conversationId });
    expect(await accept(protobuf(spans))).toBeNull();
    const client = t.database.client;
    const calls = await client.toolCall.findMany({
      where: { groupId: conversationId },
      include: { results: true },
      orderBy: { id: "asc" },
    });
    expect(calls.map((call) => [call.toolName, call.resultIsError, call.latencyMs !== null])).toEqual([
      ["weather", false, true],
      ["flaky", true, true],
    ]);
    for (const call of calls) {
      // The trigger's own answer: a copy of the call with no explorer columns, then a copy of its result.
      const {
        id,
        results,
        latencyMs,
        resultEnvelopeKind,
        resultSuccess,
        resultIsError,
        resultErrorSource,
        resultErrorType,
        resultConfidence,
        resultNextAction,
        resultLate,
        ...columns
      } = call;
      const written = {
        latencyMs,
        resultEnvelopeKind,
        resultSuccess,
        resultIsError,
        resultErrorSource,
        resultErrorType,
        resultConfidence,
        resultNextAction,
        resultLate,
      };
      const copy = await client.toolCall.create({
        data: {
          ...columns,
          callKey: `${call.callKey}-copy`,
          argumentsJson: call.argumentsJson ?? undefined,
          declarationJson: call.declarationJson ?? undefined,
        },
      });
      expect(copy).toMatchObject({ latencyMs: null, resultIsError: null });
      const [stored] = results;
      if (!stored) throw new Error(`call ${id} has no result`);
      const { id: _resultId, toolCallId: _callId, ...result } = stored;
      await client.toolResult.create({ data: { ...result, toolCallId: copy.id } });
      const {
        latencyMs: l,
        resultEnvelopeKind: k,
        resultSuccess: s,
        resultIsError: e,
        resultErrorSource: es,
        resultErrorType: et,
        resultConfidence: c,
        resultNextAction: n,
        resultLate: late,
      } = await client.toolCall.findUniqueOrThrow({ where: { id: copy.id } });
      expect(written, `call ${id}`).toEqual({
        latencyMs: l,
        resultEnvelopeKind: k,
        resultSuccess: s,
        resultIsError: e,
        resultErrorSource: es,
        resultErrorType: et,
        resultConfidence: c,
        resultNextAction: n,
        resultLate: late,
      });
    }
  });

  it("stores a re-sent batch once and answers it the same", async () => {
    const conversationId = `conv-resend-${Date.now()}`;
    const { spans } = await runAiSdkToolLoop({ mode: "otel", conversationId });
    const encoded = JsonTraceSerializer.serializeRequest(spans) ?? new Uint8Array();
    await accept(decodeJsonExport(encoded));
    const before = await t.database.client.event.count();
    expect(await accept(decodeJsonExport(encoded))).toBeNull();
    expect(await t.database.client.event.count()).toBe(before);
    expect(await t.database.client.otelSpan.count({ where: { traceId: spans[0]?.spanContext().traceId } })).toBe(
      spans.length,
    );
    expect(await readThread(t, conversationId)).toEqual(EXPECTED);
  });

  it("puts spans that arrive out of order, over several requests, in the right thread and order", async () => {
    const conversationId = `conv-late-${Date.now()}`;
    const { spans } = await runAiSdkToolLoop({ mode: "otel", conversationId });
    const byName = (pattern: RegExp) => spans.filter((span) => pattern.test(span.name));
    // Tools first (no thread id yet: they land in the trace's own thread), then the model calls, then the
    // agent and step spans that carry the conversation id.
    await accept(protobuf(byName(/^execute_tool/)));
    const traceId = spans[0]?.spanContext().traceId ?? "";
    expect((await readThread(t, traceId)).filter((line) => line.startsWith("call"))).toHaveLength(2);
    await accept(protobuf(byName(/^chat/).reverse()));
    await accept(protobuf(byName(/^(invoke_agent|step)/)));
    expect(await readThread(t, conversationId)).toEqual(EXPECTED);
    expect(await t.database.client.thread.count({ where: { groupId: traceId } })).toBe(0);
  });

  it("moves the thread's timeline epoch when rows a reader may have seen are rewritten, and only then", async () => {
    const page = (groupId: string, after?: number) => getTimelinePage({ groupId, database: t.database, after });
    // In order: a run, then a later run of the same conversation, only append.
    const conversationId = `conv-epoch-${Date.now()}`;
    const first = await runAiSdkToolLoop({ mode: "otel", conversationId });
    await accept(protobuf(first.spans));
    const seen = await page(conversationId);
    expect(seen.epoch).toBe(0);
    const second = await runAiSdkToolLoop({
      mode: "otel",
      conversationId,
      prompt: "And in Lyon?",
      callIds: ["call-weather-1", "call-fail-1"],
    });
    await accept(protobuf(second.spans));
    const appended = await page(conversationId, seen.lastEventId);
    expect(appended.epoch).toBe(0);
    expect(appended.events.length).toBeGreaterThan(0);

    // Out of order: a reader of the tools-only thread polls "after" its last row; the model calls arriving
    // next rewrite rows before that point, which the poll alone would never show.
    const late = await runAiSdkToolLoop({ mode: "otel", conversationId: `conv-epoch-late-${Date.now()}` });
    const traceId = late.spans[0]?.spanContext().traceId ?? "";
    await accept(protobuf(late.spans.filter((span) => span.name.startsWith("execute_tool"))));
    const before = await page(traceId);
    expect(before.epoch).toBe(0);
    await accept(protobuf(late.spans.filter((span) => span.name.startsWith("chat"))));
    const poll = await page(traceId, before.lastEventId);
    expect(poll.epoch).toBeGreaterThan(0);
    const reread = await page(traceId);
    // Rows the reader had were deleted (and written again with new ids).
    expect(before.events.some((old) => !reread.events.some((event) => event.id === old.id))).toBe(true);
    expect(reread.epoch).toBe(poll.epoch);
  });

  it("threads a second run of the conversation after the first, writing only what is new", async () => {
    const conversationId = `conv-two-${Date.now()}`;
    const first = await runAiSdkToolLoop({ mode: "otel", conversationId });
    const second = await runAiSdkToolLoop({
      mode: "otel",
      conversationId,
      prompt: "And in Lyon?",
      callIds: ["call-weather-1", "call-fail-1"],
    });
    // The second run arrives first; the first run's spans come later and must be placed before it.
    await accept(protobuf(second.spans));
    await accept(protobuf(first.spans));
    const lines = await readThread(t, conversationId);
    expect(lines.slice(0, EXPECTED.length)).toEqual(EXPECTED);
    expect(lines[EXPECTED.length]).toBe("message user: And in Lyon?");
    const secondCalls = lines.slice(EXPECTED.length).filter((line) => line.startsWith("call"));
    expect(secondCalls.map((line) => line.split(" ")[2])).toEqual([
      `call-weather-1@${second.spans[0]?.spanContext().traceId.slice(0, 8)}`,
      `call-fail-1@${second.spans[0]?.spanContext().traceId.slice(0, 8)}`,
    ]);
  });

  it("puts a model call before the tool it requested when their traces start in the same millisecond", async () => {
    // Spans started without a parent get a trace each; SDKs stamp milliseconds, so the two traces tie on
    // start time and their ids alone would order them at random (the tool first: a second, pending call).
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer("tie");
    const startTime = new Date();
    for (let run = 0; run < 8; run += 1) {
      const conversation = { "gen_ai.conversation.id": `conv-tie-${run}-${Date.now()}` };
      const output = [
        { role: "assistant", parts: [{ type: "tool_call", id: "call_tie", name: "get_time", arguments: {} }] },
      ];
      tracer
        .startSpan("chat m", {
          startTime,
          attributes: {
            ...conversation,
            "gen_ai.operation.name": "chat",
            "gen_ai.output.messages": JSON.stringify(output),
          },
        })
        .end(startTime);
      const tool = {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "get_time",
        "gen_ai.tool.call.id": "call_tie",
        "gen_ai.tool.call.result": "noon",
      };
      tracer.startSpan("execute_tool get_time", { startTime, attributes: { ...conversation, ...tool } }).end(startTime);
    }
    await accept(protobuf(exporter.getFinishedSpans()));
    const threads = [
      ...new Set(exporter.getFinishedSpans().map((span) => String(span.attributes["gen_ai.conversation.id"]))),
    ];
    for (const groupId of threads)
      expect((await readThread(t, groupId)).filter((line) => line.startsWith("call"))).toEqual([
        "call get_time call_tie completed {} → noon",
      ]);
  });

  it("stores concurrent exports in one shared transaction as if they had come one by one", async () => {
    const conversationId = `conv-group-${Date.now()}`;
    const first = await runAiSdkToolLoop({ mode: "otel", conversationId });
    const second = await runAiSdkToolLoop({
      mode: "otel",
      conversationId,
      prompt: "And in Lyon?",
      callIds: ["call-weather-1", "call-fail-1"],
    });
    // Queued together (group commit): the later run first, the earlier one twice (an exporter's retry).
    const replies = await Promise.all(
      [protobuf(second.spans), protobuf(first.spans), protobuf(first.spans)].map(accept),
    );
    expect(replies).toEqual([null, null, null]);
    const lines = await readThread(t, conversationId);
    expect(lines.slice(0, EXPECTED.length)).toEqual(EXPECTED);
    expect(lines[EXPECTED.length]).toBe("message user: And in Lyon?");
    const traceIds = [first.spans[0]?.spanContext().traceId ?? "", second.spans[0]?.spanContext().traceId ?? ""];
    expect(await t.database.client.otelSpan.count({ where: { traceId: { in: traceIds } } })).toBe(
      first.spans.length + second.spans.length,
    );
  });
});
