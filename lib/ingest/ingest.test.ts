// The callback protocol end to end through the service, on a real SQLite file and (with TEST_DATABASE_URL)
// a real PostgreSQL: routing, idempotency, subscriptions, deadlines, bad input, signatures, analysis, storage.
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sweepTimedOutCalls } from "../calls/timeouts.ts";
import { DEFAULT_MAX_BODY_BYTES, resetConfig } from "../config.ts";
import { recordEvents } from "../events/service.ts";
import { sha256Hex } from "../results/hash.ts";
import { decodeStoredText } from "../results/text-codec.ts";
import { rawDelivery, toolCallEvent, toolResultMessage, uniqueId } from "../testing/factories.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { acceptToolResult } from "./service.ts";
import { signatureHeaders } from "./webhook-signature.ts";

describe.each(testBackends())("callback ingestion on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await t.cleanup();
  });
  beforeEach(() => resetConfig({ maxBodyBytes: DEFAULT_MAX_BODY_BYTES, callbackSecrets: [] }));

  async function register(overrides: Record<string, unknown> = {}) {
    const event = toolCallEvent(overrides);
    const reply = await recordEvents(event, { database: t.database });
    expect(reply.status).toBe(201);
    return { groupId: String(event.group_id), id: String(event.id) };
  }
  const deliver = (message: Record<string, unknown>, overrides = {}) =>
    acceptToolResult(rawDelivery(message, overrides));
  const callRow = (groupId: string, callKey: string) =>
    t.database.client.toolCall.findUniqueOrThrow({
      where: { groupId_callKey: { groupId, callKey } },
      select: { id: true, status: true, subscription: true, resultCount: true, timedOutAt: true },
    });
  const resultsOf = (toolCallId: number) =>
    t.database.client.toolResult.findMany({ where: { toolCallId }, orderBy: { ordinal: "asc" } });
  const deliveriesOf = (groupId: string) =>
    t.database.client.delivery.findMany({ where: { groupId }, orderBy: { id: "asc" } });

  it("accepts a result for a pending call and stores it exactly", async () => {
    const call = await register();
    const text = "Deployment completed successfully. Instance i-0abc123 is running.";
    const reply = await deliver(
      toolResultMessage({
        group_id: call.groupId,
        id: call.id,
        text,
        display_as: [{ type: "text", content: "Deployed" }],
      }),
    );
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      status: "accepted",
      group_id: call.groupId,
      id: call.id,
      ordinal: 0,
      late: false,
      text_sha256: sha256Hex(text),
    });
    const row = await callRow(call.groupId, call.id);
    expect(row).toMatchObject({ status: "completed", resultCount: 1 });
    const [result] = await resultsOf(row.id);
    expect(decodeStoredText(result?.text ?? "", result?.textEscaped ?? false)).toBe(text);
    expect(result?.displayKind).toBe("text");
    const events = await t.database.client.event.findMany({
      where: { toolCallId: row.id },
      orderBy: { id: "asc" },
      select: { kind: true, resultId: true },
    });
    expect(events).toEqual([
      { kind: "tool_call", resultId: null },
      { kind: "tool_result", resultId: result?.id },
    ]);
    const [audit] = await deliveriesOf(call.groupId);
    expect(audit).toMatchObject({ outcome: "accepted", httpStatus: 200, resultId: result?.id, toolCallId: row.id });
  });

  it("answers 404 for an unknown call, attaches nothing and audits the reason", async () => {
    const groupId = uniqueId("nothread");
    const reply = await deliver(toolResultMessage({ group_id: groupId, id: "call_missing" }));
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({
      error: { code: "unknown_call", message: `No registered call "call_missing" in thread "${groupId}"` },
    });
    expect(await t.database.client.thread.count({ where: { groupId } })).toBe(0);
    const [audit] = await deliveriesOf(groupId);
    expect(audit).toMatchObject({ outcome: "unknown_call", httpStatus: 404, toolCallId: null, resultId: null });
    expect(Buffer.from(audit?.rawBody ?? new Uint8Array()).toString("utf8")).toContain("call_missing");
  });

  it("rejects a result that does not echo the registered call_id", async () => {
    const call = await register({ call_id: "toolu_01A" });
    const wrong = await deliver(toolResultMessage({ group_id: call.groupId, id: call.id, call_id: "toolu_99Z" }));
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ error: { code: "call_id_mismatch" } });
    const missing = await deliver(toolResultMessage({ group_id: call.groupId, id: call.id, call_id: null }));
    expect(missing.status).toBe(422);
    expect((await callRow(call.groupId, call.id)).status).toBe("pending");
    const right = await deliver(toolResultMessage({ group_id: call.groupId, id: call.id, call_id: "toolu_01A" }));
    expect(right.status).toBe(200);
    expect((await deliveriesOf(call.groupId)).map((d) => d.outcome)).toEqual([
      "call_id_mismatch",
      "call_id_mismatch",
      "accepted",
    ]);
  });

  it("answers a repeated delivery exactly like the first and stores nothing new", async () => {
    const call = await register();
    const message = toolResultMessage({ group_id: call.groupId, id: call.id, text: "same" });
    const first = await deliver(message);
    const second = await deliver(message);
    expect(second).toEqual({ ...first, outcome: "duplicate" });
    expect(second.status).toBe(first.status);
    expect(second.body).toEqual(first.body);
    const row = await callRow(call.groupId, call.id);
    expect(await resultsOf(row.id)).toHaveLength(1);
    expect((await deliveriesOf(call.groupId)).map((d) => d.outcome)).toEqual(["accepted", "duplicate"]);
  });

  it("keeps the first result and answers 409 to a different one", async () => {
    const call = await register();
    await deliver(toolResultMessage({ group_id: call.groupId, id: call.id, text: "first" }));
    const conflict = await deliver(toolResultMessage({ group_id: call.groupId, id: call.id, text: "second" }));
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ error: { code: "conflict" } });
    const row = await callRow(call.groupId, call.id);
    const results = await resultsOf(row.id);
    expect(results.map((r) => r.text)).toEqual(["first"]);
    const audits = await deliveriesOf(call.groupId);
    expect(audits.map((d) => d.outcome)).toEqual(["accepted", "conflict"]);
    expect(Buffer.from(audits[1]?.rawBody ?? new Uint8Array()).toString("utf8")).toContain('"second"');
    expect(audits[1]?.resultId).toBe(results[0]?.id);
  });

  it("stores exactly one result for concurrent duplicates and one winner among concurrent different results", async () => {
    const same = await register();
    const message = toolResultMessage({ group_id: same.groupId, id: same.id, text: "racing" });
    const replies = await Promise.all(Array.from({ length: 12 }, () => deliver(message)));
    expect(new Set(replies.map((r) => JSON.stringify([r.status, r.body]))).size).toBe(1);
    expect(replies.filter((r) => r.outcome === "accepted")).toHaveLength(1);
    expect(await resultsOf((await callRow(same.groupId, same.id)).id)).toHaveLength(1);

    const different = await register();
    const mixed = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        deliver(toolResultMessage({ group_id: different.groupId, id: different.id, text: `answer ${i}` })),
      ),
    );
    expect(mixed.filter((r) => r.status === 200)).toHaveLength(1);
    expect(mixed.filter((r) => r.status === 409)).toHaveLength(5);
    expect(await resultsOf((await callRow(different.groupId, different.id)).id)).toHaveLength(1);
  });

  it("writes a mixed group commit — a new result, a subscription's next two, an unknown call — as if each came alone", async () => {
    const done = await register();
    const watch = await register({ name: "watch_prices" });
    expect(
      (await deliver(toolResultMessage({ group_id: watch.groupId, id: watch.id, text: "tick 0", subscription: true })))
        .status,
    ).toBe(200);
    // Sent together: they share one transaction (on PostgreSQL, one statement: batch-statement-repository.ts).
    const replies = await Promise.all([
      deliver(toolResultMessage({ group_id: done.groupId, id: done.id, text: "done" })),
      deliver(toolResultMessage({ group_id: watch.groupId, id: watch.id, text: "tick 1" })),
      deliver(toolResultMessage({ group_id: watch.groupId, id: watch.id, text: "tick 2" })),
      deliver(toolResultMessage({ group_id: done.groupId, id: "never-registered", text: "lost" })),
    ]);
    expect(replies.map((reply) => [reply.status, reply.outcome])).toEqual([
      [200, "accepted"],
      [200, "accepted"],
      [200, "accepted"],
      [404, "unknown_call"],
    ]);
    expect(replies.slice(1, 3).map((reply) => (reply.body as { ordinal: number }).ordinal)).toEqual([1, 2]);
    const watchRow = await callRow(watch.groupId, watch.id);
    expect(watchRow).toMatchObject({ status: "completed", subscription: "active", resultCount: 3 });
    expect(await callRow(done.groupId, done.id)).toMatchObject({ status: "completed", resultCount: 1 });
    const ticks = await resultsOf(watchRow.id);
    expect(ticks.map((r) => r.text)).toEqual(["tick 0", "tick 1", "tick 2"]);
    // Each reply names its own result; the audit rows and timeline rows point at the same ones, in order.
    expect(replies.slice(1, 3).map((reply) => (reply.body as { result_id: number }).result_id)).toEqual(
      ticks.slice(1).map((r) => r.id),
    );
    const events = await t.database.client.event.findMany({
      where: { toolCallId: watchRow.id, kind: "tool_result" },
      orderBy: { id: "asc" },
    });
    expect(events.map((event) => event.resultId)).toEqual(ticks.map((r) => r.id));
    const audit = await t.database.client.delivery.findMany({
      where: { toolCallId: watchRow.id },
      orderBy: { id: "asc" },
    });
    expect(audit.map((row) => [row.outcome, row.resultId])).toEqual(ticks.map((r) => ["accepted", r.id]));
    expect((await deliveriesOf(done.groupId)).map((row) => [row.callKey, row.outcome, row.httpStatus])).toEqual([
      [done.id, "accepted", 200],
      ["never-registered", "unknown_call", 404],
    ]);
  });

  it("writes each call of a group commit once, with the explorer columns its results' own trigger computes", async () => {
    const client = t.database.client;
    // A recorder of every write of a call row, for this test only.
    if (backend.provider === "sqlite") {
      await client.$executeRawUnsafe(`CREATE TABLE "test_call_writes" ("id" INTEGER)`);
      await client.$executeRawUnsafe(
        `CREATE TRIGGER "test_call_writes_au" AFTER UPDATE ON "ToolCall" BEGIN INSERT INTO "test_call_writes" VALUES (NEW."id"); END`,
      );
    } else {
      await client.$executeRawUnsafe(`CREATE TABLE "test_call_writes" ("id" INTEGER)`);
      await client.$executeRawUnsafe(
        `CREATE FUNCTION test_call_writes() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "test_call_writes" VALUES (NEW."id"); RETURN NULL; END $$`,
      );
      await client.$executeRawUnsafe(
        `CREATE TRIGGER "test_call_writes_au" AFTER UPDATE ON "ToolCall" FOR EACH ROW EXECUTE FUNCTION test_call_writes()`,
      );
    }
    try {
      const plain = await register();
      const failed = await register({ name: "deploy" });
      const slow = await register({ name: "slow", timeout_ms: 1000 });
      const watch = await register({ name: "watch_prices" });
      const envelope = JSON.stringify({
        success: false,
        confidence: 0.2,
        nextAction: "retry",
        error: { type: "timeout", message: "upstream", retryable: true },
        meta: { durationMs: 42 },
      });
      const later = new Date(Date.now() + 5_000);
      const replies = await Promise.all([
        deliver(toolResultMessage({ group_id: plain.groupId, id: plain.id, text: "done" })),
        deliver(toolResultMessage({ group_id: failed.groupId, id: failed.id, text: envelope })),
        deliver(toolResultMessage({ group_id: slow.groupId, id: slow.id, text: "finally" }), { receivedAt: later }),
        deliver(toolResultMessage({ group_id: watch.groupId, id: watch.id, text: "tick 0", subscription: true })),
        deliver(toolResultMessage({ group_id: watch.groupId, id: watch.id, text: "tick 1" })),
      ]);
      expect(replies.map((reply) => reply.outcome)).toEqual(["accepted", "accepted", "late", "accepted", "accepted"]);
      const keys = [plain, failed, slow, watch].map((call) => call.id);
      const calls = await client.toolCall.findMany({
        where: { callKey: { in: keys } },
        include: { results: { orderBy: { ordinal: "asc" } } },
        orderBy: { id: "asc" },
      });
      const writes = await client.$queryRawUnsafe<{ id: number | bigint }[]>(`SELECT "id" FROM "test_call_writes"`);
      // One write per call: its status, counters and explorer columns together (not a second one by the trigger).
      expect(writes.map((row) => Number(row.id)).sort((a, b) => a - b)).toEqual(calls.map((call) => call.id));
      for (const call of calls) {
        // The trigger's own answer: a copy of the call with no explorer columns, then copies of its results in order.
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
        for (const { id: _resultId, toolCallId: _callId, ...result } of results)
          await client.toolResult.create({ data: { ...result, toolCallId: copy.id } });
        const byTrigger = await client.toolCall.findUniqueOrThrow({ where: { id: copy.id } });
        expect(written, `call ${id} (${call.toolName})`).toEqual({
          latencyMs: byTrigger.latencyMs,
          resultEnvelopeKind: byTrigger.resultEnvelopeKind,
          resultSuccess: byTrigger.resultSuccess,
          resultIsError: byTrigger.resultIsError,
          resultErrorSource: byTrigger.resultErrorSource,
          resultErrorType: byTrigger.resultErrorType,
          resultConfidence: byTrigger.resultConfidence,
          resultNextAction: byTrigger.resultNextAction,
          resultLate: byTrigger.resultLate,
        });
      }
      expect(calls.map((call) => [call.toolName, call.resultIsError, call.resultLate, call.resultCount])).toEqual([
        [calls[0]?.toolName, false, false, 1],
        ["deploy", true, false, 1],
        ["slow", false, true, 1],
        ["watch_prices", false, false, 2],
      ]);
      expect(calls[1]).toMatchObject({
        latencyMs: 42,
        resultConfidence: 0.2,
        resultNextAction: "retry",
        resultErrorType: "timeout",
        resultEnvelopeKind: "partial",
      });
    } finally {
      await client.$executeRawUnsafe(
        `DROP TRIGGER "test_call_writes_au"${backend.provider === "postgresql" ? ` ON "ToolCall"` : ""}`,
      );
      await client.$executeRawUnsafe(`DROP TABLE "test_call_writes"`);
      if (backend.provider === "postgresql") await client.$executeRawUnsafe(`DROP FUNCTION test_call_writes()`);
    }
  });

  it("appends results to an active subscription until it is cancelled", async () => {
    const call = await register({ name: "watch_prices" });
    const ticks = ["AAPL 190.1", "AAPL 190.4", "AAPL 189.9"];
    for (const [i, text] of ticks.entries()) {
      const reply = await deliver(
        toolResultMessage({ group_id: call.groupId, id: call.id, text, subscription: i === 0 ? true : undefined }),
      );
      expect(reply).toMatchObject({ status: 200, body: { ordinal: i } });
    }
    const again = await deliver(toolResultMessage({ group_id: call.groupId, id: call.id, text: "AAPL 189.9" }));
    expect(again.outcome).toBe("duplicate");
    const row = await callRow(call.groupId, call.id);
    expect(row).toMatchObject({ subscription: "active", resultCount: 3 });
    const cancel = await recordEvents(
      { type: "subscription_cancel", group_id: call.groupId, id: call.id },
      { database: t.database },
    );
    expect(cancel.status).toBe(201);
    const late = await deliver(toolResultMessage({ group_id: call.groupId, id: call.id, text: "AAPL 191.0" }));
    expect(late.status).toBe(409);
    expect((await resultsOf(row.id)).map((r) => r.text)).toEqual(ticks);
    expect((await callRow(call.groupId, call.id)).subscription).toBe("cancelled");
  });

  it("times a call out at its deadline and still records a late result, marked late", async () => {
    const past = new Date(Date.now() - 60_000).toISOString();
    const call = await register({ occurred_at: past, timeout_ms: 1000 });
    expect(await sweepTimedOutCalls({ database: t.database })).toBeGreaterThanOrEqual(1);
    expect((await callRow(call.groupId, call.id)).status).toBe("timed_out");
    const reply = await deliver(toolResultMessage({ group_id: call.groupId, id: call.id, text: "finally" }));
    expect(reply).toMatchObject({ status: 200, outcome: "late", body: { late: true } });
    const row = await callRow(call.groupId, call.id);
    expect(row.status).toBe("timed_out");
    const [result] = await resultsOf(row.id);
    expect(result).toMatchObject({ late: true, text: "finally" });

    // Without a sweep in between, the delivery itself notices the passed deadline.
    const unswept = await register({ occurred_at: past, timeout_ms: 1000 });
    const direct = await deliver(toolResultMessage({ group_id: unswept.groupId, id: unswept.id, text: "late too" }));
    expect(direct).toMatchObject({ status: 200, outcome: "late" });
    const unsweptRow = await callRow(unswept.groupId, unswept.id);
    expect(unsweptRow.status).toBe("timed_out");
    expect(unsweptRow.timedOutAt).not.toBeNull();
  });

  it("recognises `Error: ` results and marks the call errored", async () => {
    const call = await register();
    await deliver(
      toolResultMessage({
        group_id: call.groupId,
        id: call.id,
        text: "Error: API rate limit exceeded. Retry after 60 seconds.",
      }),
    );
    const row = await callRow(call.groupId, call.id);
    expect(row.status).toBe("errored");
    const [result] = await resultsOf(row.id);
    expect(result).toMatchObject({ isError: true, errorSource: "error_prefix" });
  });

  describe("bad input", () => {
    it.each([
      [
        "unsupported content type",
        rawDelivery("{}", { contentType: "text/plain" }),
        415,
        "unsupported_media_type",
        undefined,
      ],
      ["no content type", rawDelivery("{}", { contentType: null }), 415, "unsupported_media_type", undefined],
      [
        "a gzip-encoded body",
        rawDelivery(gzipSync(JSON.stringify(toolResultMessage())), { contentEncoding: "gzip" }),
        415,
        "unsupported_media_type",
        undefined,
      ],
      ["malformed JSON", rawDelivery('{"type": "tool_result",'), 400, "malformed_json", undefined],
      ["a JSON array", rawDelivery([1, 2]), 422, "invalid", undefined],
      ["unknown type", rawDelivery(toolResultMessage({ type: "tool_results" })), 422, "invalid", "type"],
      ["missing text", rawDelivery({ type: "tool_result", group_id: "g", id: "c" }), 422, "invalid", "text"],
      ["text not a string", rawDelivery(toolResultMessage({ text: 42 })), 422, "invalid", "text"],
      ["display_as not an array", rawDelivery(toolResultMessage({ display_as: "diff" })), 422, "invalid", "display_as"],
      [
        "segment without type",
        rawDelivery(toolResultMessage({ display_as: [{ content: "x" }] })),
        422,
        "invalid",
        "display_as[0].type",
      ],
      ["empty group_id", rawDelivery(toolResultMessage({ group_id: "" })), 422, "invalid", "group_id"],
      ["NUL in id", rawDelivery(toolResultMessage({ id: "call\u0000x" })), 422, "invalid", "id"],
      [
        "lone surrogate in group_id",
        rawDelivery(toolResultMessage({ group_id: "g\ud800" })),
        422,
        "invalid",
        "group_id",
      ],
      [
        "a raw NUL byte outside strings",
        rawDelivery(Buffer.from('{"type":"tool_result",\u0000}')),
        400,
        "malformed_json",
        undefined,
      ],
    ] as const)("%s → %i with an audit row", async (_name, raw, status, code, path) => {
      const before = await t.database.client.delivery.count();
      const reply = await acceptToolResult(raw);
      expect(reply.status).toBe(status);
      expect(reply.body).toMatchObject({ error: { code } });
      if (path) expect(reply.body).toMatchObject({ error: { path } });
      expect(await t.database.client.delivery.count()).toBe(before + 1);
      const audit = await t.database.client.delivery.findFirstOrThrow({ orderBy: { id: "desc" } });
      expect(audit).toMatchObject({ outcome: code, httpStatus: status });
      expect(audit.reason).toBeTruthy();
      expect(Buffer.from(audit.rawBody ?? new Uint8Array()).equals(raw.body)).toBe(true);
    });

    it("answers 413 for an oversized body and keeps only its prefix", async () => {
      resetConfig({ maxBodyBytes: 2048, callbackSecrets: [] });
      const prefix = Buffer.alloc(2048, "a");
      const reply = await acceptToolResult(rawDelivery(prefix, { tooLarge: true, receivedBytes: 4096 }));
      expect(reply).toMatchObject({ status: 413, body: { error: { code: "too_large" } } });
      const audit = await t.database.client.delivery.findFirstOrThrow({ orderBy: { id: "desc" } });
      expect(audit).toMatchObject({ outcome: "too_large", bodyBytes: 4096, rawBodyTruncated: true, bodySha256: null });
    });

    it("cannot be polluted through __proto__ or constructor keys", async () => {
      const call = await register();
      const body = `{"type":"tool_result","group_id":${JSON.stringify(call.groupId)},"id":${JSON.stringify(call.id)},"text":"{\\"__proto__\\":{\\"polluted\\":1},\\"success\\":true,\\"confidence\\":0.9}","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"display_as":[{"type":"text","content":"ok","__proto__":{"polluted":true}}]}`;
      const reply = await acceptToolResult(rawDelivery(body));
      expect(reply.status).toBe(200);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty("polluted");
      const audit = await t.database.client.delivery.findFirstOrThrow({ orderBy: { id: "desc" } });
      expect(Buffer.from(audit.rawBody ?? new Uint8Array()).toString("utf8")).toBe(body);
    });
  });

  describe("signatures", () => {
    const secret = "whsec_" + Buffer.from("toolscope-test-secret-0123456789").toString("base64");
    const rotated = "whsec_" + Buffer.from("toolscope-next-secret-9876543210").toString("base64");
    function signed(
      message: Record<string, unknown>,
      signWith: string,
      options: { now?: Date; tamper?: boolean } = {},
    ) {
      const body = Buffer.from(JSON.stringify(message));
      const headers = signatureHeaders(signWith, body, { now: options.now });
      const sent = options.tamper ? Buffer.from(JSON.stringify({ ...message, text: "tampered" })) : body;
      return rawDelivery(sent, {
        signature: {
          id: headers["webhook-id"],
          timestamp: headers["webhook-timestamp"],
          signature: headers["webhook-signature"],
        },
      });
    }

    it("accepts a valid signature and rejects tampered, stale, unsigned and wrongly keyed requests with 401", async () => {
      resetConfig({ maxBodyBytes: DEFAULT_MAX_BODY_BYTES, callbackSecrets: [secret] });
      const call = await register();
      const message = toolResultMessage({ group_id: call.groupId, id: call.id, text: "signed" });
      expect((await acceptToolResult(signed(message, secret, { tamper: true }))).status).toBe(401);
      expect((await acceptToolResult(signed(message, secret, { now: new Date(Date.now() - 6 * 60_000) }))).status).toBe(
        401,
      );
      expect((await acceptToolResult(signed(message, rotated))).status).toBe(401);
      expect((await acceptToolResult(rawDelivery(message))).status).toBe(401);
      expect((await callRow(call.groupId, call.id)).status).toBe("pending");
      const ok = await acceptToolResult(signed(message, secret));
      expect(ok.status).toBe(200);
      const audits = await t.database.client.delivery.findMany({
        where: { outcome: "unauthorized" },
        select: { reason: true, webhookId: true, rawBody: true },
      });
      expect(audits.length).toBeGreaterThanOrEqual(4);
      for (const audit of audits)
        expect(Buffer.from(audit.rawBody ?? new Uint8Array()).toString("utf8")).not.toContain("v1,");
      expect(audits.map((a) => a.reason).join("\n")).toMatch(/old|missing|no webhook-signature matches/);
    });

    it("accepts either secret during key rotation", async () => {
      resetConfig({ maxBodyBytes: DEFAULT_MAX_BODY_BYTES, callbackSecrets: [rotated, secret] });
      const a = await register();
      const b = await register();
      expect(
        (await acceptToolResult(signed(toolResultMessage({ group_id: a.groupId, id: a.id }), secret))).status,
      ).toBe(200);
      expect(
        (await acceptToolResult(signed(toolResultMessage({ group_id: b.groupId, id: b.id }), rotated))).status,
      ).toBe(200);
    });
  });

  describe("understanding results", () => {
    it("stores a full envelope's fields as columns", async () => {
      const call = await register();
      const envelope = {
        success: true,
        data: { items: [] },
        confidence: 0.32,
        source: [{ type: "document", id: "doc_1", label: "Runbook", url: "https://example.com/runbook" }],
        nextAction: "ask_user",
        error: null,
        meta: {
          toolName: "searchDocs",
          toolVersion: "2026-05-06",
          traceId: "tool_001",
          durationMs: 183,
          cached: false,
        },
      };
      await deliver(toolResultMessage({ group_id: call.groupId, id: call.id, text: JSON.stringify(envelope) }));
      const [result] = await resultsOf((await callRow(call.groupId, call.id)).id);
      expect(result).toMatchObject({
        envelopeKind: "valid",
        success: true,
        confidence: 0.32,
        nextAction: "ask_user",
        metaToolName: "searchDocs",
        metaDurationMs: 183,
        metaCached: false,
        isError: false,
      });
    });

    it("flags partial and invalid envelopes without rejecting them", async () => {
      const partial = await register();
      const invalid = await register();
      expect(
        (
          await deliver(
            toolResultMessage({ group_id: partial.groupId, id: partial.id, text: '{"success":true,"confidence":0.9}' }),
          )
        ).status,
      ).toBe(200);
      expect(
        (
          await deliver(
            toolResultMessage({
              group_id: invalid.groupId,
              id: invalid.id,
              text: '{"success":"yes","confidence":1.7,"nextAction":"explode"}',
            }),
          )
        ).status,
      ).toBe(200);
      const [p] = await resultsOf((await callRow(partial.groupId, partial.id)).id);
      const [i] = await resultsOf((await callRow(invalid.groupId, invalid.id)).id);
      expect(p?.envelopeKind).toBe("partial");
      expect(i?.envelopeKind).toBe("invalid");
      expect(JSON.parse(i?.analysisJson ?? "{}").envelope.problems.join(" ")).toMatch(/confidence/);
    });

    it("validates MCP structuredContent against the declared outputSchema, and skips it for isError", async () => {
      const outputSchema = {
        type: "object",
        properties: { temperature: { type: "number" } },
        required: ["temperature"],
      };
      const declaration = { name: "get_weather", outputSchema };
      const good = await register({ name: "get_weather", declaration });
      const bad = await register({ name: "get_weather", declaration });
      const failed = await register({ name: "get_weather", declaration });
      const noSchema = await register({ name: "get_weather" });
      const mcp = (structuredContent: unknown, isError = false) =>
        JSON.stringify({
          content: [{ type: "text", text: JSON.stringify(structuredContent) }],
          structuredContent,
          isError,
        });
      await deliver(toolResultMessage({ group_id: good.groupId, id: good.id, text: mcp({ temperature: 22.5 }) }));
      await deliver(toolResultMessage({ group_id: bad.groupId, id: bad.id, text: mcp({ temperature: "warm" }) }));
      await deliver(
        toolResultMessage({ group_id: failed.groupId, id: failed.id, text: mcp({ error: "upstream down" }, true) }),
      );
      await deliver(toolResultMessage({ group_id: noSchema.groupId, id: noSchema.id, text: mcp({ anything: 1 }) }));
      const first = async (c: { groupId: string; id: string }) =>
        (await resultsOf((await callRow(c.groupId, c.id)).id))[0];
      expect(await first(good)).toMatchObject({ isMcp: true, schemaStatus: "valid", isError: false });
      const badRow = await first(bad);
      expect(badRow).toMatchObject({ isMcp: true, schemaStatus: "invalid" });
      expect(JSON.parse(badRow?.analysisJson ?? "{}").schema.errors[0].path).toBe("/temperature");
      expect(await first(failed)).toMatchObject({
        isMcp: true,
        schemaStatus: "skipped",
        isError: true,
        errorSource: "mcp",
      });
      expect((await callRow(failed.groupId, failed.id)).status).toBe("errored");
      expect(await first(noSchema)).toMatchObject({ isMcp: true, schemaStatus: "skipped" });
    });

    it("counts invisible characters and credential-looking strings", async () => {
      const call = await register();
      await deliver(
        toolResultMessage({
          group_id: call.groupId,
          id: call.id,
          text: "ok\u202Etxt.exe\u200B key AKIAIOSFODNN7EXAMPLE",
        }),
      );
      const [result] = await resultsOf((await callRow(call.groupId, call.id)).id);
      expect(result).toMatchObject({ invisibleCount: 2, secretCount: 1 });
    });
  });

  it("stores NUL, lone surrogates and a 5 MB text byte-for-byte, identically on every backend", async () => {
    const awkward = await register();
    const text = "nul:\u0000 high:\ud800 low:\udc00 pair:\ud83d\ude00 bidi:\u202e";
    expect((await deliver(toolResultMessage({ group_id: awkward.groupId, id: awkward.id, text }))).status).toBe(200);
    const [stored] = await resultsOf((await callRow(awkward.groupId, awkward.id)).id);
    expect(decodeStoredText(stored?.text ?? "", stored?.textEscaped ?? false)).toBe(text);
    expect(stored?.textSha256).toBe(sha256Hex(text));

    const big = await register();
    const line = "2026-11-22T02:16:54Z INFO request served path=/api/things status=200 — ünïcödé ✓\n";
    const bigText = line.repeat(Math.ceil((5 * 1024 * 1024) / Buffer.byteLength(line)));
    const reply = await deliver(toolResultMessage({ group_id: big.groupId, id: big.id, text: bigText }));
    expect(reply.status).toBe(200);
    const [bigStored] = await resultsOf((await callRow(big.groupId, big.id)).id);
    expect(bigStored?.textBytes).toBe(Buffer.byteLength(bigText));
    expect(Buffer.byteLength(bigText)).toBeGreaterThanOrEqual(5 * 1024 * 1024);
    expect(decodeStoredText(bigStored?.text ?? "", bigStored?.textEscaped ?? false) === bigText).toBe(true);
    expect(bigStored?.textSha256).toBe(sha256Hex(bigText));
  });
});
