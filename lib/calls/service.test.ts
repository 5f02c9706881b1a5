// The call/result detail on real databases: analysis re-run for display, envelope, MCP and schema; the
// deliveries that reached the call; exact raw text and delivery bodies.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordEvents } from "../events/service.ts";
import { acceptToolResult } from "../ingest/service.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { importTranscript } from "../traces/import-transcript.ts";
import { getCallDetail, getCallInfo, getDeliveryBody, getResultText } from "./service.ts";

async function register(body: Record<string, unknown>): Promise<number> {
  const reply = await recordEvents({ type: "tool_call", ...body });
  expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
  return 0;
}

async function deliver(message: Record<string, unknown>, expectStatus = 200) {
  const body = Buffer.from(JSON.stringify({ type: "tool_result", ...message }));
  const reply = await acceptToolResult({
    body,
    tooLarge: false,
    receivedBytes: body.length,
    contentType: "application/json",
    signature: { id: null, timestamp: null, signature: null },
    remoteAddress: "127.0.0.1",
    receivedAt: new Date(),
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(expectStatus);
  return { body, reply };
}

function resultId(reply: { body: unknown }): number {
  const body = reply.body;
  return typeof body === "object" && body !== null && "result_id" in body && typeof body.result_id === "number"
    ? body.result_id
    : 0;
}

describe.each(testBackends())("calls service on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  async function callRowId(groupId: string, callKey: string): Promise<number> {
    const row = await t.database.client.toolCall.findUniqueOrThrow({
      where: { groupId_callKey: { groupId, callKey } },
      select: { id: true },
    });
    return row.id;
  }

  it("shows a diff result with its deliveries (accepted, duplicate, conflict) and exact text", async () => {
    await register({
      group_id: "g-diff",
      id: "edit",
      name: "edit_file",
      arguments: '{"path": "src/main.rs"}',
      call_id: "toolu_1",
    });
    const patch = '--- src/main.rs\n+++ src/main.rs\n@@ -1,3 +1,4 @@\n fn main() {\n+ println!("hello");\n }';
    const message = {
      group_id: "g-diff",
      id: "edit",
      call_id: "toolu_1",
      text: "Replaced text in src/main.rs\u0000!",
      display_as: [
        { type: "chart", content: { bars: [1] } },
        { type: "diff", content: { path: "src/main.rs", patch } },
      ],
    };
    const first = await deliver(message);
    await deliver(message);
    await deliver({ ...message, text: "something else" }, 409);

    const id = await callRowId("g-diff", "edit");
    const detail = await getCallDetail({ callRowId: id });
    expect(detail.call).toMatchObject({
      groupId: "g-diff",
      callKey: "edit",
      callId: "toolu_1",
      toolName: "edit_file",
      status: "completed",
      resultCount: 1,
    });
    expect(detail.call.arguments.formatted).toEqual({ kind: "value", value: { path: "src/main.rs" } });
    expect(detail.call.arguments.raw?.head).toBe('{"path": "src/main.rs"}');
    expect(detail.results).toHaveLength(1);
    const shown = detail.results[0];
    expect(shown?.display).toMatchObject({
      kind: "diff",
      path: "src/main.rs",
      patch,
      skipped: [{ index: 0, type: "chart" }],
    });
    expect(shown?.text).toEqual({ head: message.text, complete: true, length: message.text.length });
    expect(detail.deliveries.map((d) => [d.outcome, d.httpStatus])).toEqual([
      ["accepted", 200],
      ["duplicate", 200],
      ["conflict", 409],
    ]);

    const text = await getResultText({ resultId: resultId(first.reply) });
    expect(createHash("sha256").update(text.bytes).digest("hex")).toBe(text.sha256);
    expect(new TextDecoder().decode(text.bytes)).toBe(message.text);

    const delivery = detail.deliveries[0];
    const raw = await getDeliveryBody({ callRowId: id, deliveryId: delivery?.id ?? 0 });
    expect(Buffer.from(raw.bytes).equals(first.body)).toBe(true);
    expect(raw.truncated).toBe(false);
    await expect(getDeliveryBody({ callRowId: id + 1000, deliveryId: delivery?.id ?? 0 })).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("reads envelopes and MCP results against the declared output schema", async () => {
    const outputSchema = { type: "object", properties: { temperature: { type: "number" } }, required: ["temperature"] };
    await register({
      group_id: "g-mcp",
      id: "w",
      name: "get_weather",
      declaration: { name: "get_weather", outputSchema },
    });
    const mcp = {
      content: [
        { type: "text", text: "22.5°C" },
        { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      ],
      structuredContent: { temperature: "warm" },
      isError: false,
    };
    await deliver({ group_id: "g-mcp", id: "w", text: JSON.stringify(mcp) });
    const mcpDetail = await getCallDetail({ callRowId: await callRowId("g-mcp", "w") });
    expect(mcpDetail.call.outputSchema).toEqual({ kind: "value", value: outputSchema });
    const mcpResult = mcpDetail.results[0];
    expect(mcpResult?.mcp?.content.map((block) => block.type)).toEqual(["text", "image"]);
    expect(mcpResult?.mcp?.structuredContent).toEqual({ kind: "value", value: { temperature: "warm" } });
    expect(mcpResult?.schema).toMatchObject({ status: "invalid", errors: [{ path: "/temperature" }] });

    await register({ group_id: "g-env", id: "e", name: "lookup" });
    const envelope = {
      success: true,
      data: { answer: 42 },
      confidence: 0.3,
      source: [{ type: "api", id: "s1", label: "Docs", url: "javascript:alert(1)" }],
      nextAction: "ask_user",
      error: null,
      meta: { toolName: "lookup", toolVersion: "1.2.0", traceId: "t-1", durationMs: 12, cached: false },
    };
    await deliver({ group_id: "g-env", id: "e", text: JSON.stringify(envelope) });
    const envDetail = await getCallDetail({ callRowId: await callRowId("g-env", "e") });
    expect(envDetail.results[0]?.envelope).toMatchObject({
      kind: "valid",
      confidence: 0.3,
      nextAction: "ask_user",
      data: { kind: "value", value: { answer: 42 } },
      meta: { toolName: "lookup", traceId: "t-1" },
    });
    expect(await getCallInfo({ callRowId: await callRowId("g-env", "e") })).toMatchObject({
      toolName: "lookup",
      status: "completed",
    });
    await expect(getCallDetail({ callRowId: 999_999 })).rejects.toMatchObject({ code: "not_found" });
  });

  it("calls a result an error when the error was signalled beside its text (a vendor's is_error flag), not only in it", async () => {
    const transcript = {
      messages: [
        { role: "user", content: "Deploy it." },
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "toolu_deploy", name: "deploy", input: { env: "prod" } }],
        },
        {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: "toolu_deploy",
              is_error: true,
              content: "quota exceeded for project web",
            },
          ],
        },
      ],
    };
    const imported = await importTranscript({
      text: JSON.stringify(transcript),
      groupId: "g-flag",
      database: t.database,
    });
    expect(imported.status).toBe(201);
    const detail = await getCallDetail({ callRowId: await callRowId("g-flag", "toolu_deploy") });
    expect(detail.call.status).toBe("errored");
    expect(detail.results[0]).toMatchObject({ isError: true, errorSources: ["vendor_flag"] });
  });

  it("cuts a 5 MB text for the page and keeps it whole for the raw route", async () => {
    await register({ group_id: "g-big", id: "b", name: "dump" });
    const big = "line of output\n".repeat(350_000);
    const { reply } = await deliver({ group_id: "g-big", id: "b", text: big });
    const detail = await getCallDetail({ callRowId: await callRowId("g-big", "b") });
    const text = detail.results[0]?.text;
    expect(text?.complete).toBe(false);
    expect(text?.length).toBe(big.length);
    expect(text?.head.length).toBeLessThanOrEqual(200_000);
    expect(big.startsWith(text?.head ?? "x")).toBe(true);
    const raw = await getResultText({ resultId: resultId(reply) });
    expect(raw.bytes.length).toBe(big.length);
  });
});
