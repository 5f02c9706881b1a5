// Alerts on real SQLite and PostgreSQL, end to end through the outbox to a local receiver: a webhook destination's
// messages verify with the standardwebhooks reference library, a Slack destination gets an escaped {"text"} with a
// link to the call, a burst sends one message and then one grouped message with the count, result conditions
// fire from the group commit, time conditions and new tools from the sweeper, a test message goes out at once.
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetConfig, DEFAULT_MAX_BODY_BYTES } from "../config.ts";
import { recordEvents } from "../events/service.ts";
import type { AppError } from "../http/app-error.ts";
import { acceptToolResult } from "../ingest/service.ts";
import { OutboxDispatcher } from "../outbox/dispatcher.ts";
import { installOutboxDispatcher } from "../outbox/service.ts";
import { rawDelivery, uniqueId } from "../testing/factories.ts";
import { RuntimeStandIn, type ReceivedDelivery } from "../testing/runtime-stand-in.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { resolveNotifyDestination } from "./destinations.ts";
import type { AlertRuleInput } from "./schemas.ts";
import {
  addAlertRule,
  changeAlertRule,
  getAlertHistory,
  getAlertRule,
  removeAlertRule,
  sendTestAlert,
} from "./service.ts";
import { sweepAlerts } from "./sweep.ts";

const SECRET = `whsec_${Buffer.from("alerts-test-secret-0123456789abcdef").toString("base64")}`;

type Payload = {
  type: string;
  alert_id: number;
  kind: string;
  title: string;
  count: number;
  rule: { name: string; event: string };
  calls: { group_id: string; id: string; tool: string; detail: string; path: string; url: string | null }[];
  more_calls: number;
};

describe.each(testBackends())("alerts ($provider)", (backend) => {
  let t: TestDatabase;
  const receiver = new RuntimeStandIn();
  let dispatcher: OutboxDispatcher;
  const rules: number[] = [];

  beforeAll(async () => {
    t = await useTestDatabase(backend);
    await receiver.start();
    process.env.ALERTS_TEST_SECRET = SECRET;
    process.env.TOOLSCOPE_PUBLIC_URL = "https://toolscope.example";
    process.env.TOOLSCOPE_NOTIFY = JSON.stringify([
      { name: "ops", url: `${receiver.url}/ops`, format: "webhook", secretEnv: "ALERTS_TEST_SECRET" },
      { name: "chat", url: `${receiver.url}/chat`, format: "slack" },
    ]);
    dispatcher = new OutboxDispatcher({
      database: async () => t.database,
      resolve: (id) => resolveNotifyDestination(id),
      idlePollMs: 20,
      repairEveryMs: 200,
      random: () => 0,
    }).start();
    installOutboxDispatcher(dispatcher);
  });
  afterAll(async () => {
    for (const id of rules) await removeAlertRule(id).catch(() => undefined);
    await dispatcher.stop();
    installOutboxDispatcher(null);
    await receiver.stop();
    delete process.env.TOOLSCOPE_NOTIFY;
    delete process.env.TOOLSCOPE_PUBLIC_URL;
    await t.cleanup();
  });
  beforeEach(() => resetConfig({ maxBodyBytes: DEFAULT_MAX_BODY_BYTES, callbackSecrets: [] }));

  async function rule(input: Omit<AlertRuleInput, "name"> & { name?: string }) {
    const created = await addAlertRule({ input: { name: uniqueId("rule"), ...input }, by: "test" });
    rules.push(created.id);
    return created;
  }
  async function register(tool: string, overrides: Record<string, unknown> = {}) {
    const call = { type: "tool_call", group_id: uniqueId("thread"), id: uniqueId("call"), name: tool, ...overrides };
    expect((await recordEvents(call, { database: t.database })).status).toBe(201);
    return call as { group_id: string; id: string };
  }
  const answer = (call: { group_id: string; id: string }, text: string) =>
    acceptToolResult(rawDelivery({ type: "tool_result", group_id: call.group_id, id: call.id, text }));
  const payloads = (path: string, ruleName: string): Payload[] =>
    receiver.received
      .filter((delivery) => delivery.path === `/callback/${path}`)
      .map((delivery) => JSON.parse(delivery.body.toString()) as Payload & { text?: string })
      .filter((payload) => payload.rule?.name === ruleName);
  const arrived = async (ruleName: string, count: number) => {
    await expect.poll(() => payloads("ops", ruleName).length, { timeout: 10_000 }).toBe(count);
    return payloads("ops", ruleName);
  };

  it("an errored result sends a signed webhook that names the call; history and the rule show it", async () => {
    const tool = uniqueId("deploy");
    const created = await rule({ when: { event: "result_errored", tool }, notify: ["ops"] });
    const call = await register(tool);
    const other = await register(uniqueId("other"));
    expect((await answer(other, "Error: not this tool")).status).toBe(200);
    expect((await answer(call, "Error: rollout failed")).status).toBe(200);
    const [payload] = await arrived(created.name, 1);
    const delivery = receiver.received.find((r) => r.body.toString().includes(created.name)) as ReceivedDelivery;
    const headers = Object.fromEntries(
      ["webhook-id", "webhook-timestamp", "webhook-signature"].map((name) => [name, String(delivery.headers[name])]),
    );
    expect(() => new Webhook(SECRET).verify(delivery.body, headers)).not.toThrow();
    const row = await t.database.client.toolCall.findUniqueOrThrow({
      where: { groupId_callKey: { groupId: call.group_id, callKey: call.id } },
    });
    expect(payload).toMatchObject({
      type: "toolscope.alert",
      kind: "first",
      count: 1,
      rule: { name: created.name, event: "result_errored" },
      calls: [
        {
          group_id: call.group_id,
          id: call.id,
          tool,
          path: `/calls/${row.id}`,
          url: `https://toolscope.example/calls/${row.id}`,
        },
      ],
    });
    // Never the tool's output: it is untrusted and may hold secrets.
    expect(delivery.body.toString()).not.toContain("rollout failed");
    await expect
      .poll(async () => (await getAlertHistory({ rule: created.id })).items[0]?.deliveries[0]?.status)
      .toBe("delivered");
    const history = await getAlertHistory({ rule: created.id });
    expect(history.items).toMatchObject([{ id: payload?.alert_id, count: 1, calls: [{ toolCallId: row.id }] }]);
    expect(await getAlertRule(created.id)).toMatchObject({ lastAlert: { id: payload?.alert_id }, heldCount: 0 });
  });

  it("a burst sends one message, then one grouped message with the count when the cooldown ends", async () => {
    const tool = uniqueId("flaky");
    const created = await rule({ when: { event: "result_errored", tool }, notify: ["ops"], cooldown_ms: 60_000 });
    for (let i = 0; i < 6; i += 1) await answer(await register(tool), `Error: attempt ${i}`);
    await arrived(created.name, 1);
    expect(await getAlertRule(created.id)).toMatchObject({ heldCount: 5 });
    expect(await sweepAlerts({ now: new Date(Date.now() + 1_000) })).toBe(0);
    await sweepAlerts({ now: new Date(Date.now() + 61_000) });
    const [, grouped] = await arrived(created.name, 2);
    expect(grouped).toMatchObject({ kind: "grouped", count: 5, more_calls: 4 });
    expect(grouped?.calls).toHaveLength(1);
    expect(grouped?.title).toBe(`${created.name}: 5 results errored (tool ${tool})`);
    expect(await getAlertRule(created.id)).toMatchObject({ heldCount: 0 });
  });

  it("envelope conditions: success false, low confidence, nextAction; a muted rule sends nothing", async () => {
    const tool = uniqueId("search");
    const failed = await rule({ when: { event: "envelope_failed", tool }, notify: ["ops"] });
    const unsure = await rule({ when: { event: "low_confidence", tool, below: 0.5 }, notify: ["ops"] });
    const human = await rule({ when: { event: "next_action", tool, equals: "human_review" }, notify: ["ops"] });
    const muted = await rule({
      when: { event: "next_action", tool, equals: "human_review" },
      notify: ["ops"],
      muted_until: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const envelope = (fields: Record<string, unknown>) => JSON.stringify({ success: true, data: {}, ...fields });
    await answer(await register(tool), envelope({ success: false, error: { type: "timeout", message: "slow" } }));
    await answer(await register(tool), envelope({ confidence: 0.31 }));
    await answer(await register(tool), envelope({ confidence: 0.9, nextAction: "human_review" }));
    expect((await arrived(failed.name, 1))[0]?.calls[0]?.detail).toBe("envelope success: false");
    expect((await arrived(unsure.name, 1))[0]?.calls[0]?.detail).toBe("confidence 0.31");
    expect((await arrived(human.name, 1))[0]?.calls[0]?.detail).toBe("nextAction human_review");
    expect(payloads("ops", muted.name)).toEqual([]);
  });

  it("error rate: fires once the window holds min_count results and the rate passes the line", async () => {
    const tool = uniqueId("lookup");
    const created = await rule({
      when: { event: "error_rate", tool, above_percent: 40, window_ms: 60_000, min_count: 4 },
      notify: ["ops"],
    });
    await answer(await register(tool), "ok");
    await answer(await register(tool), "Error: one");
    await answer(await register(tool), "ok");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(payloads("ops", created.name)).toEqual([]);
    await answer(await register(tool), "Error: two");
    const [payload] = await arrived(created.name, 1);
    expect(payload?.calls[0]?.detail).toBe("error rate 50 % of 4 results");
  });

  it("slack format: escaped text with links to the call and the history", async () => {
    const tool = uniqueId("ship");
    const created = await rule({ when: { event: "result_errored", tool }, notify: ["chat"] });
    const call = await register(tool, { group_id: uniqueId("<b>&thread") });
    await answer(call, "Error: <!channel>");
    await expect.poll(() => payloads("chat", created.name).length + slackTexts(created.name).length).toBe(1);
    const [text] = slackTexts(created.name);
    expect(text).toContain(`*${created.name}: 1 result errored (tool ${tool})*`);
    expect(text).toMatch(/<https:\/\/toolscope\.example\/calls\/\d+\|/);
    expect(text).toContain("&lt;b&gt;&amp;thread");
    expect(text).not.toContain("<!channel>");
    expect(text).toMatch(/<https:\/\/toolscope\.example\/alerts\/history\?alert=\d+\|Alert history>/);
  });
  const slackTexts = (ruleName: string) =>
    receiver.received
      .filter((delivery) => delivery.path === "/callback/chat")
      .map((delivery) => (JSON.parse(delivery.body.toString()) as { text: string }).text)
      .filter((text) => text.includes(ruleName));

  it("the sweeper: timed out, pending too long, a new tool (once)", async () => {
    const tool = uniqueId("slow");
    const timedOut = await rule({ when: { event: "call_timed_out", tool }, notify: ["ops"], cooldown_ms: 0 });
    const pending = await rule({ when: { event: "pending_too_long", tool, above_ms: 60_000 }, notify: ["ops"] });
    const fresh = await rule({ when: { event: "new_tool", tool: `${tool}*` }, notify: ["ops"], cooldown_ms: 0 });
    const late = await register(tool, { deadline: new Date(Date.now() + 30_000).toISOString() });
    await register(tool);
    await register(`${tool}_v2`);
    await sweepAlerts();
    await arrived(fresh.name, 1);
    expect(
      payloads("ops", fresh.name)[0]
        ?.calls.map((c) => c.tool)
        .sort(),
    ).toEqual([tool, `${tool}_v2`]);
    expect(payloads("ops", timedOut.name)).toEqual([]);
    await sweepAlerts({ now: new Date(Date.now() + 35_000) });
    const [timeout] = await arrived(timedOut.name, 1);
    expect(timeout?.calls).toMatchObject([{ id: late.id }]);
    await sweepAlerts({ now: new Date(Date.now() + 120_000) });
    expect((await arrived(pending.name, 1))[0]?.count).toBe(2);
    // Swept rows are not swept again; a known tool is not new.
    await register(tool);
    await sweepAlerts({ now: new Date(Date.now() + 121_000) });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(payloads("ops", timedOut.name)).toHaveLength(1);
    expect(payloads("ops", fresh.name)).toHaveLength(1);
  });

  it("send a test: goes out at once whatever the cooldown, marked as a test", async () => {
    const created = await rule({ when: { event: "new_tool", tool: uniqueId("never") }, notify: ["ops", "chat"] });
    const sent = await sendTestAlert({ id: created.id, by: "user:ada@example.com" });
    expect(sent).toMatchObject({ kind: "test", destinations: ["ops", "chat"] });
    const [payload] = await arrived(created.name, 1);
    expect(payload).toMatchObject({
      kind: "test",
      count: 0,
      title: `Test of "${created.name}" (sent by user:ada@example.com)`,
    });
    await expect.poll(() => slackTexts(created.name).length).toBe(1);
    expect(slackTexts(created.name)[0]).toContain(":test_tube: *Test*");
  });

  it("refuses a destination that is not configured, naming the field; a disabled rule is silent", async () => {
    await expect(
      addAlertRule({ input: { name: "x", when: { event: "result_errored" }, notify: ["ops", "pager"] }, by: "t" }),
    ).rejects.toMatchObject({ code: "invalid", path: "notify[1]" } satisfies Partial<AppError>);
    const tool = uniqueId("quiet");
    const created = await rule({ when: { event: "result_errored", tool }, notify: ["ops"] });
    await changeAlertRule({ id: created.id, input: { enabled: false }, by: "t" });
    await answer(await register(tool), "Error: nobody hears");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(payloads("ops", created.name)).toEqual([]);
  });
});
