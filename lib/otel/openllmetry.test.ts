// OpenLLMetry (Traceloop) end to end: the real @traceloop/instrumentation-openai around the real `openai` SDK,
// a two-turn tool loop against the fake provider, exported with the real OTLP/protobuf exporter to a running
// Toolscope (the lean server process) on each test backend, read back call by call.
import type { ChildProcess } from "node:child_process";
import { ExportResultCode } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeProvider, type FakeProvider } from "../models/fake-provider.ts";
import { startCallbackServer } from "../testing/spawn-server.ts";
import { testBackends, type TestDatabase } from "../testing/test-databases.ts";
import { getTimelinePage } from "../threads/service.ts";
import {
  OPENLLMETRY_ANSWER,
  OPENLLMETRY_CALLS,
  OPENLLMETRY_MODEL,
  runOpenLLMetryToolLoop,
} from "./testing/openllmetry-run.ts";
import { readThread } from "./testing/read-thread.ts";

function exportWith(exporter: SpanExporter, spans: ReadableSpan[]): Promise<{ code: number; error?: Error }> {
  return new Promise((resolve) => exporter.export(spans, resolve));
}

describe.each(testBackends())(
  "OpenLLMetry's OpenAI instrumentation exported to a running Toolscope on $provider",
  (backend) => {
    let t: TestDatabase;
    let server: ChildProcess;
    let base = "";
    let fake: FakeProvider;

    beforeAll(async () => {
      t = await backend.open();
      const started = await startCallbackServer(t.url);
      server = started.child;
      base = `http://127.0.0.1:${started.port}`;
      fake = await startFakeProvider();
    });
    afterAll(async () => {
      server?.kill("SIGKILL");
      await fake?.close();
      await t?.cleanup();
    });

    it("becomes the trace's thread: both parallel calls, their results from turn 2's input, the final answer", async () => {
      const { traceId, text, spans } = await runOpenLLMetryToolLoop(fake);
      expect(text).toBe(OPENLLMETRY_ANSWER);
      // What the instrumentation emits: one `chat <model>` span a turn (GenAI conventions, messages as JSON), under the run's span.
      const chats = spans.filter((span) => span.name === `chat ${OPENLLMETRY_MODEL}`);
      expect(chats).toHaveLength(2);
      for (const chat of chats) {
        expect(chat.spanContext().traceId).toBe(traceId);
        expect(chat.attributes).toMatchObject({
          "gen_ai.operation.name": "chat",
          "gen_ai.provider.name": "openai",
          "gen_ai.input.messages": expect.any(String),
          "gen_ai.output.messages": expect.any(String),
        });
        expect(chat.attributes["gen_ai.conversation.id"]).toBeUndefined();
      }

      expect(await exportWith(new OTLPTraceExporter({ url: `${base}/v1/traces` }), spans)).toEqual({
        code: ExportResultCode.SUCCESS,
      });
      const page = await getTimelinePage({ groupId: traceId, database: t.database });
      expect(
        page.calls.map((call) => ({
          tool: call.toolName,
          id: call.callKey,
          status: call.status,
          result: call.latestResult?.preview ?? null,
        })),
      ).toEqual(
        OPENLLMETRY_CALLS.map((call) => ({ tool: call.name, id: call.id, status: "completed", result: call.result })),
      );
      expect(await readThread(t, traceId)).toEqual([
        "message system: You are a weather assistant.",
        "message user: Weather in Paris, and do I need an umbrella?",
        'call weather call_weather_1 completed {"city":"Paris"} → {"city":"Paris","sky":"sunny","celsius":21}',
        'call lookup_docs call_docs_1 completed {"query":"umbrella policy"} → Umbrellas are optional below 20 % rain.',
        "result call_weather_1",
        "result call_docs_1",
        `message assistant: ${OPENLLMETRY_ANSWER}`,
      ]);
    });
  },
);
