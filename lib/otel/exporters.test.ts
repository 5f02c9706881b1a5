// The real OpenTelemetry JS exporters (OTLP/HTTP protobuf and JSON, gzip) sending to a running Toolscope
// (the lean server process), and the receiver's answers to bad input, as the OTLP specification words them.
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { ExportResultCode } from "@opentelemetry/core";
import { OTLPTraceExporter as HttpJsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtobufExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-base";
import protobuf from "protobufjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/client.ts";
import { resolveDatabaseTarget } from "../db/database-url.ts";
import { applyMigrations } from "../db/migrate.ts";
import { startCallbackServer } from "../testing/spawn-server.ts";
import { getTimelinePage } from "../threads/service.ts";
import { runAiSdkToolLoop } from "./testing/ai-sdk-run.ts";

const LIMIT = 256 * 1024;

function exportWith(exporter: SpanExporter, spans: ReadableSpan[]): Promise<{ code: number; error?: Error }> {
  return new Promise((resolve) => exporter.export(spans, resolve));
}

describe("real OTLP exporters against a running Toolscope", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolscope-otlp-"));
  const url = `file:${path.join(dir, "otlp.db")}`;
  let server: ChildProcess;
  let base = "";
  let db: Database;

  beforeAll(async () => {
    await applyMigrations(resolveDatabaseTarget(url));
    const started = await startCallbackServer(url, { TOOLSCOPE_MAX_BODY_BYTES: String(LIMIT) });
    server = started.child;
    base = `http://127.0.0.1:${started.port}`;
    db = await openDatabase(resolveDatabaseTarget(url));
  });
  afterAll(async () => {
    server?.kill("SIGKILL");
    await db?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function calls(groupId: string) {
    const page = await getTimelinePage({ groupId, database: db });
    return page.calls.map((call) => ({
      tool: call.toolName,
      id: call.callKey,
      status: call.status,
      result: call.latestResult?.preview ?? null,
    }));
  }

  it.each([
    [
      "protobuf, gzip",
      () =>
        new ProtobufExporter({
          url: `${base}/v1/traces`,
          compression: "gzip" as never,
          headers: { Authorization: "Bearer test-key" },
        }),
    ],
    [
      "JSON",
      () => new HttpJsonExporter({ url: `${base}/api/otel/v1/traces`, headers: { Authorization: "Bearer test-key" } }),
    ],
  ])("the AI SDK's tool loop exported over OTLP (%s) becomes its thread, call by call", async (label, make) => {
    const conversationId = `conv-exporter-${label.split(",")[0]}`;
    const { spans } = await runAiSdkToolLoop({ mode: "otel", conversationId });
    expect(await exportWith(make(), spans)).toEqual({ code: ExportResultCode.SUCCESS });
    expect(await calls(conversationId)).toEqual([
      {
        tool: "weather",
        id: "call-weather-1",
        status: "completed",
        result: '{"city":"Paris","sky":"sunny","celsius":21}',
      },
      { tool: "flaky", id: "call-fail-1", status: "errored", result: "Error: upstream timed out (attempt 1)" },
    ]);
  });

  it("the OpenTelemetry Node SDK with GenAI spans by hand, batched and gzipped, threads by gen_ai.conversation.id", async () => {
    const exporter = new ProtobufExporter({ url: `${base}/v1/traces`, compression: "gzip" as never });
    const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] });
    const tracer = provider.getTracer("hand-instrumented", "1.0.0");
    const chat = tracer.startSpan("chat gpt-x", {
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.conversation.id": "conv-by-hand",
        "gen_ai.input.messages": JSON.stringify([
          { role: "user", parts: [{ type: "text", content: "What time is it in Tokyo?" }] },
        ]),
        "gen_ai.output.messages": JSON.stringify([
          {
            role: "assistant",
            parts: [{ type: "tool_call", id: "call_time", name: "get_time", arguments: { tz: "Asia/Tokyo" } }],
          },
        ]),
        "gen_ai.usage.input_tokens": 31,
      },
    });
    chat.end();
    const toolSpan = tracer.startSpan("execute_tool get_time", {
      attributes: {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.conversation.id": "conv-by-hand",
        "gen_ai.tool.name": "get_time",
        "gen_ai.tool.call.id": "call_time",
        "gen_ai.tool.call.arguments": '{"tz":"Asia/Tokyo"}',
        "gen_ai.tool.call.result": "2026-11-23T21:00:00+09:00",
      },
    });
    toolSpan.end();
    await provider.forceFlush();
    await provider.shutdown();
    expect(await calls("conv-by-hand")).toEqual([
      { tool: "get_time", id: "call_time", status: "completed", result: "2026-11-23T21:00:00+09:00" },
    ]);
  });

  async function post(pathname: string, body: Uint8Array | string, headers: Record<string, string>) {
    const response = await fetch(`${base}${pathname}`, {
      method: "POST",
      body: typeof body === "string" ? body : new Blob([new Uint8Array(body)]),
      headers,
    });
    return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
  }

  it("answers bad input with the OTLP statuses and a google.rpc.Status body in the request's encoding", async () => {
    const status = new protobuf.Type("Status")
      .add(new protobuf.Field("code", 1, "int32"))
      .add(new protobuf.Field("message", 2, "string"));
    new protobuf.Root().add(status);

    const garbage = await post("/v1/traces", new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]), {
      "content-type": "application/x-protobuf",
    });
    expect(garbage.status).toBe(400);
    expect(garbage.headers.get("content-type")).toBe("application/x-protobuf");
    expect(status.toObject(status.decode(garbage.bytes))).toMatchObject({
      code: 3,
      message: expect.stringMatching(/not a valid protobuf/),
    });

    const wrongType = await post("/v1/traces", "hello", { "content-type": "text/plain" });
    expect(wrongType.status).toBe(415);
    expect(JSON.parse(new TextDecoder().decode(wrongType.bytes))).toMatchObject({
      code: 3,
      error: { code: "unsupported_media_type" },
    });

    const brotli = await post("/v1/traces", "{}", { "content-type": "application/json", "content-encoding": "br" });
    expect(brotli.status).toBe(415);

    // 64 MiB of zeros gzip to ~64 KiB: under the limit on the wire, far over it inflated.
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    expect(bomb.byteLength).toBeLessThan(LIMIT);
    const inflated = await post("/v1/traces", bomb, {
      "content-type": "application/x-protobuf",
      "content-encoding": "gzip",
    });
    expect(inflated.status).toBe(413);
    expect(status.toObject(status.decode(inflated.bytes))).toMatchObject({
      code: 8,
      message: expect.stringMatching(/once decompressed/),
    });

    const huge = await post("/v1/traces", Buffer.alloc(LIMIT + 1, 1), { "content-type": "application/x-protobuf" });
    expect(huge.status).toBe(413);

    const partial = await post(
      "/v1/traces",
      JSON.stringify({
        resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: "abc", spanId: "b7ad6b7169203331", name: "bad" }] }] }],
      }),
      { "content-type": "application/json" },
    );
    expect(partial.status).toBe(200);
    expect(JSON.parse(new TextDecoder().decode(partial.bytes))).toEqual({
      partialSuccess: {
        rejectedSpans: "1",
        errorMessage: "1 span(s) refused: 1 × invalid trace_id (must be 16 bytes, not all zero)",
      },
    });

    const get = await fetch(`${base}/v1/traces`);
    expect(get.status).toBe(405);
  });
});
