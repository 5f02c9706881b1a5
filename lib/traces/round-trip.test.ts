// Lossless round trip on SQLite and PostgreSQL: a thread recorded through the live services (events + callbacks,
// every kind of delivery) is exported, imported into an empty database and exported again: identical bytes.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_MAX_BODY_BYTES, resetConfig } from "../config.ts";
import { recordEvents } from "../events/service.ts";
import { AppError } from "../http/app-error.ts";
import { acceptToolResult } from "../ingest/service.ts";
import { signatureHeaders } from "../ingest/webhook-signature.ts";
import { sha256Hex } from "../results/hash.ts";
import { rawDelivery, toolCallEvent, toolResultMessage, uniqueId } from "../testing/factories.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { parseExport, readExportText } from "./read-export.ts";
import { exportThreadText, importTranscript } from "./service.ts";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected a rejection");
}

describe.each(testBackends())("export → import → export on $provider", (backend) => {
  let source: TestDatabase;
  let target: TestDatabase;
  const group = uniqueId("roundtrip");
  let exported = "";

  beforeAll(async () => {
    source = await useTestDatabase(backend);
    target = await backend.open();
    await seedThread(group, source);
    exported = await exportThreadText({ groupId: group, database: source.database });
  });
  afterAll(async () => {
    await target.cleanup();
    await source.cleanup();
  });
  beforeEach(() => resetConfig({ maxBodyBytes: DEFAULT_MAX_BODY_BYTES, callbackSecrets: [] }));

  it("exports every row of the thread: header, thread, calls, results, events, deliveries, trailer", () => {
    const data = parseExport(readExportText(exported));
    expect(data.groupId).toBe(group);
    expect(data.calls.map((call) => [call.call_key, call.status, call.subscription])).toEqual([
      ["c_weather", "completed", null],
      ["c_search", "errored", null],
      ["c_watch", "completed", "cancelled"],
      ["c_mcp", "completed", null],
      ["c_patch", "completed", null],
      ["c_late", "timed_out", null],
      ["c_open", "pending", null],
    ]);
    expect(data.results.map((result) => [result.call_key, result.ordinal])).toEqual([
      ["c_weather", 0],
      ["c_search", 0],
      ["c_watch", 0],
      ["c_watch", 1],
      ["c_mcp", 0],
      ["c_patch", 0],
      ["c_late", 0],
    ]);
    expect(data.deliveries.map((delivery) => delivery.outcome)).toEqual([
      "accepted",
      "duplicate",
      "conflict",
      "accepted",
      "accepted",
      "accepted",
      "accepted",
      "accepted",
      "unknown_call",
      "call_id_mismatch",
      "late",
    ]);
    const weather = data.results[0];
    expect(weather).toMatchObject({
      envelope_kind: "valid",
      success: true,
      confidence: 0.92,
      next_action: "continue",
      meta_duration_ms: 120,
      schema_status: "valid",
    });
    expect(data.results[1]?.text).toBe("Error: bad\u0000bytes \ud800 end");
    expect(data.results[4]).toMatchObject({ is_mcp: true });
    expect(data.results[5]).toMatchObject({ display_kind: "diff" });
    expect(data.deliveries[0]?.webhook_id).toBe("msg_roundtrip_1");
    // The duplicate and the conflict both point at the first result, which is the one kept.
    expect(data.deliveries[1]?.result).toEqual({ call_key: "c_weather", ordinal: 0 });
    expect(data.deliveries[2]?.result).toEqual({ call_key: "c_weather", ordinal: 0 });
    expect(data.deliveries[8]).toMatchObject({ tool_call: null, result: null, call_key: "c_nobody", http_status: 404 });
    expect(data.events.map((event) => event.type)).toContain("subscription_cancelled");
    expect(data.events.map((event) => event.type)).toContain("timeout");
    expect(
      exported.endsWith(
        `{"kind":"end","counts":{"calls":7,"results":7,"events":${data.events.length},"deliveries":11}}\n`,
      ),
    ).toBe(true);
  });

  it("keeps raw bodies byte for byte: each delivery's base64 body hashes to its recorded sha256", async () => {
    const rows = await source.database.client.delivery.findMany({
      where: { groupId: group },
      orderBy: { id: "asc" },
      select: { rawBody: true, bodySha256: true },
    });
    const data = parseExport(readExportText(exported));
    data.deliveries.forEach((delivery, index) => {
      const raw = rows[index]?.rawBody;
      expect(delivery.raw_body_base64).toBe(raw ? Buffer.from(raw).toString("base64") : null);
      expect(sha256Hex(Buffer.from(delivery.raw_body_base64 ?? "", "base64"))).toBe(delivery.body_sha256);
    });
  });

  it("imports the export into an empty database and exports the same bytes", async () => {
    const reply = await importTranscript({ text: exported, database: target.database });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      group_id: group,
      format: "toolscope",
      created: true,
      counts: { calls: 7, results: 7, deliveries: 11 },
    });
    const again = await exportThreadText({ groupId: group, database: target.database });
    expect(again).toBe(exported);
  });

  it("answers a second import of the same export like the first; a changed export is a conflict", async () => {
    const reply = await importTranscript({ text: exported, database: source.database });
    expect(reply).toMatchObject({ status: 200, body: { group_id: group, created: false } });
    const changed = exported.replace('"status":"pending"', '"status":"cancelled"');
    const conflict = await rejection(importTranscript({ text: changed, database: source.database }));
    expect(conflict.code).toBe("conflict");
  });

  it("imports under another group id: only the header differs (raw bodies keep the original group_id)", async () => {
    const copy = uniqueId("copy");
    const reply = await importTranscript({ text: exported, groupId: copy, database: source.database });
    expect(reply.status).toBe(201);
    const copied = await exportThreadText({ groupId: copy, database: source.database });
    const [header, ...rest] = copied.split("\n");
    const [originalHeader, ...originalRest] = exported.split("\n");
    expect(JSON.parse(header ?? "")).toEqual({ ...JSON.parse(originalHeader ?? ""), group_id: copy });
    expect(rest).toEqual(originalRest);
  });

  it("rejects a truncated or edited export with the line and field, writing nothing", async () => {
    const lines = exported.trimEnd().split("\n");
    const truncated = await rejection(
      importTranscript({ text: lines.slice(0, -1).join("\n"), groupId: uniqueId("cut"), database: target.database }),
    );
    expect(truncated.message).toContain("cut short");
    const resultLine = lines.findIndex((line) => line.startsWith('{"kind":"result"'));
    const edited = [...lines];
    edited[resultLine] = (edited[resultLine] ?? "").replace('"text":"', '"text":"tampered ');
    const tampered = await rejection(
      importTranscript({ text: edited.join("\n"), groupId: uniqueId("edit"), database: target.database }),
    );
    expect(tampered.message).toBe(`line ${resultLine + 1}: text: does not match text_sha256`);
    const badCount = exported.replace(/"deliveries":11}}\n$/, '"deliveries":12}}\n');
    const counted = await rejection(
      importTranscript({ text: badCount, groupId: uniqueId("count"), database: target.database }),
    );
    expect(counted.message).toBe(
      `line ${lines.length}: counts.deliveries: the file holds 11 deliveries, the trailer says 12`,
    );
    expect(await target.database.client.thread.count()).toBe(1);
  });

  it("round-trips a vendor import too", async () => {
    const transcript = JSON.stringify([
      { role: "user", content: "Look up toolscope" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "search", arguments: '{"q":"toolscope"}' } }],
      },
      { role: "tool", tool_call_id: "call_1", content: "3 documents \u0000 found" },
    ]);
    const imported = await importTranscript({ text: transcript, database: source.database });
    const first = await exportThreadText({ groupId: imported.body.group_id, database: source.database });
    await importTranscript({ text: first, database: target.database });
    expect(await exportThreadText({ groupId: imported.body.group_id, database: target.database })).toBe(first);
  });
});

/** One thread with every kind of row the live services write, through the live services only. */
async function seedThread(group: string, t: TestDatabase): Promise<void> {
  const record = async (body: unknown) => {
    const reply = await recordEvents(body, { database: t.database });
    expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
  };
  const deliver = async (
    message: Record<string, unknown>,
    expected: number,
    overrides: Parameters<typeof rawDelivery>[1] = {},
  ) => {
    const reply = await acceptToolResult(rawDelivery(toolResultMessage({ group_id: group, ...message }), overrides));
    expect(reply.status, JSON.stringify(reply.body)).toBe(expected);
  };
  const past = new Date(Date.now() - 60_000).toISOString();

  await record([
    { type: "message", group_id: group, role: "system", text: "You are a build assistant." },
    { type: "message", group_id: group, role: "user", text: "Weather in Paris, then ship the patch." },
    { type: "reasoning", group_id: group, text: "Weather first; the search and the watcher in parallel." },
    toolCallEvent({
      group_id: group,
      id: "c_weather",
      call_id: "toolu_weather",
      name: "get_weather",
      arguments: '{"city": "Paris"}',
      step: 0,
      vendor: "anthropic",
      declaration: {
        name: "get_weather",
        description: "Current weather",
        inputSchema: { type: "object", properties: { city: { type: "string" } } },
        outputSchema: {
          type: "object",
          properties: { success: { type: "boolean" }, data: { type: "object" } },
          required: ["success", "data"],
        },
      },
    }),
    toolCallEvent({ group_id: group, id: "c_search", name: "search", arguments: '{"q": "unterminated', step: 0 }),
    toolCallEvent({
      group_id: group,
      id: "c_watch",
      name: "watch_build",
      arguments: { build: 42 },
      subscription: true,
      step: 0,
    }),
    toolCallEvent({
      group_id: group,
      id: "c_mcp",
      name: "fetch_page",
      arguments: { url: "https://example.com" },
      vendor: "mcp",
    }),
    toolCallEvent({ group_id: group, id: "c_patch", name: "apply_patch", arguments: { file: "a.txt" } }),
    toolCallEvent({
      group_id: group,
      id: "c_late",
      call_id: "late_1",
      name: "slow_job",
      occurred_at: past,
      timeout_ms: 1000,
    }),
    toolCallEvent({ group_id: group, id: "c_open", name: "never_answers" }),
  ]);

  const envelope = JSON.stringify({
    success: true,
    data: { temp_c: 18 },
    confidence: 0.92,
    source: [{ type: "api", id: "meteo-1", label: "Météo API", url: "https://meteo.example/paris" }],
    nextAction: "continue",
    error: null,
    meta: { toolName: "get_weather", toolVersion: "1.2.0", traceId: "tr_1", durationMs: 120, cached: false },
  });
  resetConfig({ maxBodyBytes: DEFAULT_MAX_BODY_BYTES, callbackSecrets: [SECRET] });
  const signedBody = JSON.stringify(
    toolResultMessage({ group_id: group, id: "c_weather", call_id: "toolu_weather", text: envelope }),
  );
  const headers = signatureHeaders(SECRET, signedBody, { webhookId: "msg_roundtrip_1" });
  const signed = await acceptToolResult(
    rawDelivery(signedBody, {
      signature: {
        id: headers["webhook-id"],
        timestamp: headers["webhook-timestamp"],
        signature: headers["webhook-signature"],
      },
    }),
  );
  expect(signed.status, JSON.stringify(signed.body)).toBe(200);
  resetConfig({ maxBodyBytes: DEFAULT_MAX_BODY_BYTES, callbackSecrets: [] });

  await deliver({ id: "c_weather", call_id: "toolu_weather", text: envelope }, 200);
  await deliver({ id: "c_weather", call_id: "toolu_weather", text: "different content" }, 409);
  await deliver({ id: "c_search", text: "Error: bad\u0000bytes \ud800 end" }, 200);
  await deliver({ id: "c_watch", text: "build 42: compiling", subscription: true }, 200);
  await deliver({ id: "c_watch", text: "build 42: passed", subscription: true }, 200);
  const mcp = {
    content: [
      { type: "text", text: "Example Domain" },
      { type: "resource_link", uri: "https://example.com", name: "example" },
    ],
    structuredContent: { title: "Example Domain" },
  };
  await deliver({ id: "c_mcp", text: JSON.stringify(mcp) }, 200);
  const patch = "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-old\n+new\n";
  await deliver(
    { id: "c_patch", text: "patched a.txt", display_as: [{ type: "diff", content: { path: "a.txt", patch } }] },
    200,
  );
  await deliver({ id: "c_nobody", text: "lost" }, 404);
  await deliver({ id: "c_late", call_id: "wrong", text: "done" }, 422);
  await deliver({ id: "c_late", call_id: "late_1", text: "done, eventually" }, 200);

  await record([
    { type: "subscription_cancel", group_id: group, id: "c_watch", reason: "build finished" },
    { type: "error", group_id: group, id: "c_search", message: "search index crashed", layer: "runtime" },
    { type: "output_text", group_id: group, text: "Paris is 18 °C. Patch applied.\u2028Done." },
  ]);
}
