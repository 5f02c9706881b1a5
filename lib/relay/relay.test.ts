// The relay on real SQLite and PostgreSQL: store-and-forward delivers the exact bytes signed (verified with the
// standardwebhooks reference library), pass-through answers with the runtime's own status and body, results for
// unknown calls are forwarded and recorded as unregistered, one call's results arrive in order, a runtime that is
// down gets everything when it comes back, refusals dead-letter and are retried from the page.
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetAccessSettings, readAccessSettings } from "../access/settings.ts";
import { resetConfig } from "../config.ts";
import { recordEvents } from "../events/service.ts";
import { CallbackWriter } from "../ingest/callback-writer.ts";
import { OutboxDispatcher } from "../outbox/dispatcher.ts";
import { installOutboxDispatcher, listCallOutbox, retryOutboxMessage } from "../outbox/service.ts";
import { rawDelivery, uniqueId } from "../testing/factories.ts";
import { RuntimeStandIn } from "../testing/runtime-stand-in.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { relayToolResult } from "./relay-service.ts";
import { resolveRelayDestination } from "./targets.ts";

const SECRET = `whsec_${Buffer.from("relay-test-secret-0123456789abcdef").toString("base64")}`;

describe.each(testBackends())("relay ($provider)", (backend) => {
  let t: TestDatabase;
  const runtime = new RuntimeStandIn();
  let dispatcher: OutboxDispatcher;
  let writer: CallbackWriter;

  beforeAll(async () => {
    t = await useTestDatabase(backend);
    await runtime.start();
    process.env.RELAY_TEST_SECRET = SECRET;
    process.env.TOOLSCOPE_RELAYS = JSON.stringify([
      { name: "sf", url: runtime.url, mode: "store-and-forward", secretEnv: "RELAY_TEST_SECRET", maxAttempts: 4 },
      { name: "pt", url: runtime.url, mode: "pass-through", secretEnv: "RELAY_TEST_SECRET" },
    ]);
    resetConfig();
    resetAccessSettings(readAccessSettings({}));
    writer = new CallbackWriter(async () => t.database);
    dispatcher = new OutboxDispatcher({
      database: async () => t.database,
      resolve: resolveRelayDestination,
      idlePollMs: 20,
      repairEveryMs: 200,
      random: () => 0,
    }).start();
    installOutboxDispatcher(dispatcher);
  });
  afterAll(async () => {
    await dispatcher.stop();
    installOutboxDispatcher(null);
    await runtime.stop();
    delete process.env.TOOLSCOPE_RELAYS;
    resetAccessSettings();
    await t.cleanup();
  });

  async function register(overrides: Record<string, unknown> = {}) {
    const call = { type: "tool_call", group_id: uniqueId("relay"), id: uniqueId("call"), name: "deploy", ...overrides };
    await recordEvents(call, { database: t.database });
    return call as { group_id: string; id: string };
  }

  const post = (target: string, body: unknown) =>
    relayToolResult({ targetName: target, raw: rawDelivery(body), writer });
  const bodyOf = (reply: { body: { kind: string; value?: unknown } }) =>
    reply.body.kind === "json" ? reply.body.value : JSON.parse(Buffer.from(reply.body.value as Uint8Array).toString());

  it("store-and-forward: 200 once stored and queued, then the exact bytes arrive signed, same webhook-id", async () => {
    const call = await register();
    const bytes = Buffer.from(
      `{"type":"tool_result","group_id":${JSON.stringify(call.group_id)},"id":${JSON.stringify(call.id)},"text":"Deployed  i-1 ✓"}`,
    );
    const reply = await relayToolResult({ targetName: "sf", raw: rawDelivery(bytes), writer });
    expect(reply.status).toBe(200);
    expect(bodyOf(reply)).toMatchObject({ status: "accepted", relay: { target: "sf" } });
    await runtime.waitFor((received) => received.some((r) => r.body.equals(bytes)));
    const arrived = runtime.received.find((r) => r.body.equals(bytes));
    expect(arrived?.headers["content-type"]).toBe("application/json");
    const headers = Object.fromEntries(
      ["webhook-id", "webhook-timestamp", "webhook-signature"].map((name) => [name, String(arrived?.headers[name])]),
    );
    expect(() => new Webhook(SECRET).verify(bytes, headers)).not.toThrow();
    expect(headers["webhook-id"]).toBe((bodyOf(reply) as { relay: { webhook_id: string } }).relay.webhook_id);
  });

  it("pass-through: the runtime's own status and body reach the tool, and both are recorded", async () => {
    const call = await register();
    runtime.answer = () => ({ status: 404, body: '{"error":"unknown call at the runtime"}' });
    try {
      const reply = await post("pt", { type: "tool_result", group_id: call.group_id, id: call.id, text: "42" });
      expect(reply.status).toBe(404);
      expect(bodyOf(reply)).toEqual({ error: "unknown call at the runtime" });
    } finally {
      runtime.answer = () => ({ status: 200, body: '{"ok":true}' });
    }
    const rows = await t.database.client.delivery.findMany({ where: { groupId: call.group_id } });
    expect(rows).toMatchObject([{ outcome: "accepted", relay: "pt" }]);
    const callRow = await t.database.client.toolCall.findFirstOrThrow({ where: { groupId: call.group_id } });
    await expect
      .poll(async () => (await listCallOutbox(callRow.id))[0]?.attempts.map((a) => a.httpStatus))
      .toEqual([404]);
    expect((await listCallOutbox(callRow.id))[0]?.message).toMatchObject({
      status: "dead",
      deadReason: "refused by the destination (HTTP 404)",
    });
  });

  it("forwards results for calls Toolscope does not know, recorded as unregistered", async () => {
    const group = uniqueId("unknown");
    const reply = await post("sf", { type: "tool_result", group_id: group, id: "c1", text: "from a tool" });
    expect(reply.status).toBe(200);
    expect(bodyOf(reply)).toMatchObject({ status: "unregistered" });
    await runtime.waitFor((received) => received.some((r) => r.body.toString().includes(group)));
    const rows = await t.database.client.delivery.findMany({ where: { groupId: group } });
    expect(rows).toMatchObject([{ outcome: "unregistered", httpStatus: 200, relay: "sf" }]);
  });

  it("refusals are answered by Toolscope and not forwarded; a duplicate is not forwarded twice", async () => {
    const call = await register();
    const before = runtime.received.length;
    expect((await post("sf", { type: "tool_result", group_id: call.group_id })).status).toBe(422);
    const message = { type: "tool_result", group_id: call.group_id, id: call.id, text: "once" };
    expect((await post("sf", message)).status).toBe(200);
    expect((await post("sf", message)).status).toBe(200);
    await runtime.waitFor((received) => received.some((r) => r.body.toString().includes(call.group_id)));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(runtime.received.slice(before).filter((r) => r.body.toString().includes(call.group_id))).toHaveLength(1);
  });

  it("keeps one call's results in order and delivers everything to a runtime that was down", async () => {
    const call = await register({ subscription: true });
    await runtime.stop();
    const results = Array.from({ length: 6 }, (_, i) => `update ${i}`);
    for (const text of results)
      expect(
        (await post("sf", { type: "tool_result", group_id: call.group_id, id: call.id, text, subscription: true }))
          .status,
      ).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await runtime.start();
    await runtime.waitFor(
      () => runtime.uniqueMessages().filter((m) => m.message.group_id === call.group_id).length === results.length,
      20_000,
    );
    const texts = runtime
      .uniqueMessages()
      .filter((m) => m.message.group_id === call.group_id)
      .map((m) => m.message.text);
    expect(texts).toEqual(results);
  });

  it("dead-letters after the attempt budget and retries from the page", async () => {
    const call = await register();
    let refuse = true;
    runtime.answer = (delivery) =>
      refuse && delivery.body.toString().includes(call.group_id)
        ? { status: 503, body: "busy", headers: { "retry-after": "0" } }
        : { status: 200, body: "{}" };
    try {
      expect((await post("sf", { type: "tool_result", group_id: call.group_id, id: call.id, text: "x" })).status).toBe(
        200,
      );
      const callRow = await t.database.client.toolCall.findFirstOrThrow({ where: { groupId: call.group_id } });
      await expect
        .poll(async () => (await listCallOutbox(callRow.id))[0]?.message.status, { timeout: 15_000 })
        .toBe("dead");
      const [dead] = await listCallOutbox(callRow.id);
      expect(dead?.attempts.map((a) => a.httpStatus)).toEqual([503, 503, 503, 503]);
      expect(dead?.message.deadReason).toBe("gave up after 4 attempts");
      refuse = false;
      await retryOutboxMessage({ id: dead?.message.id ?? 0, by: "local" });
      await expect
        .poll(async () => (await listCallOutbox(callRow.id))[0]?.message.status, { timeout: 15_000 })
        .toBe("delivered");
      const webhookIds = new Set(
        runtime.received.filter((r) => r.body.toString().includes(call.group_id)).map((r) => r.headers["webhook-id"]),
      );
      expect(webhookIds.size).toBe(1);
    } finally {
      runtime.answer = () => ({ status: 200, body: '{"ok":true}' });
    }
  });
});
