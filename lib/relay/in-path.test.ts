// Breakpoints, faults, answers and approvals on real SQLite and PostgreSQL, with a runtime stand-in receiving what
// the relay delivers: what the agent would receive is what the person (or the rule) decided, the original bytes
// stay, and every change is in the audit log with who did it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readAccessSettings, resetAccessSettings } from "../access/settings.ts";
import { resetConfig } from "../config.ts";
import { recordEvents } from "../events/service.ts";
import { OutboxDispatcher } from "../outbox/dispatcher.ts";
import { installOutboxDispatcher } from "../outbox/service.ts";
import { rawDelivery, uniqueId } from "../testing/factories.ts";
import { RuntimeStandIn } from "../testing/runtime-stand-in.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { answerCall } from "./answers-service.ts";
import { addApprovalRule, decideApproval, getApprovalState, requestApproval } from "./approvals-service.ts";
import { decideHold, getHeldPage, sweepExpiredHolds } from "./holds-service.ts";
import { relayToolResult } from "./relay-service.ts";
import { addBreakpoint, addFault, changeBreakpoint, changeFault, getInterventions } from "./rules-service.ts";
import { resolveRelayDestination } from "./targets.ts";

describe.each(testBackends())("in the path ($provider)", (backend) => {
  let t: TestDatabase;
  const runtime = new RuntimeStandIn();
  let dispatcher: OutboxDispatcher;

  beforeAll(async () => {
    t = await useTestDatabase(backend);
    await runtime.start();
    process.env.TOOLSCOPE_RELAYS = JSON.stringify([{ name: "rt", url: runtime.url, mode: "store-and-forward" }]);
    resetConfig();
    resetAccessSettings(readAccessSettings({}));
    dispatcher = new OutboxDispatcher({
      database: async () => t.database,
      resolve: resolveRelayDestination,
      idlePollMs: 20,
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

  let group: string;
  beforeEach(() => {
    group = uniqueId("path");
  });

  async function register(id: string, name = "deploy", args = '{"env":"prod"}') {
    await recordEvents({ type: "tool_call", group_id: group, id, name, arguments: args }, { database: t.database });
    return t.database.client.toolCall.findFirstOrThrow({ where: { groupId: group, callKey: id } });
  }
  const relay = (id: string, text: string) =>
    relayToolResult({ targetName: "rt", raw: rawDelivery({ type: "tool_result", group_id: group, id, text }) });
  const receivedTexts = () =>
    runtime
      .uniqueMessages()
      .filter((m) => m.message.group_id === group)
      .map((m) => m.message.text);

  it("a breakpoint holds a matching result; an edit changes what the runtime receives, the original is kept", async () => {
    const rule = await addBreakpoint({
      input: { name: "low confidence", thread: `${group}*`, confidence_below: 0.5 },
      by: "user:ada",
    });
    try {
      await register("c1");
      await register("c2");
      const envelope = JSON.stringify({ success: true, confidence: 0.2, data: "maybe" });
      expect((await relay("c1", envelope)).status).toBe(200);
      expect((await relay("c2", JSON.stringify({ success: true, confidence: 0.9 }))).status).toBe(200);
      await runtime.waitFor(() => receivedTexts().length === 1);
      const page = await getHeldPage({ groupId: group });
      expect(page.held).toMatchObject([{ callKey: "c1", ruleName: "low confidence", originalText: envelope }]);
      const held = page.held[0];
      if (!held) throw new Error("nothing held");
      await decideHold({ id: held.id, decision: { action: "edit", envelope: { confidence: 0.95 } }, by: "user:ada" });
      await runtime.waitFor(() => receivedTexts().length === 2);
      expect(JSON.parse(String(receivedTexts()[1]))).toEqual({ success: true, confidence: 0.95, data: "maybe" });
      await expect(decideHold({ id: held.id, decision: { action: "drop" }, by: "user:bob" })).rejects.toMatchObject({
        code: "conflict",
      });
      const after = await getHeldPage({ groupId: group });
      expect(after.decided[0]).toMatchObject({ status: "edited", decidedBy: "user:ada", originalText: envelope });
      const log = await getInterventions({ groupId: group });
      expect(log.map((row) => [row.action, row.actor])).toEqual([
        ["edit", "user:ada"],
        ["hold", "rule:low confidence"],
      ]);
    } finally {
      await changeBreakpoint({ id: rule.id, input: { enabled: false }, by: "user:ada" });
    }
  });

  it("a hold's timeout delivers its rule's outcome (an error), so the agent never waits for ever", async () => {
    const rule = await addBreakpoint({
      input: { name: "everything", thread: group, timeout_ms: 1000, on_timeout: "error" },
      by: "local",
    });
    try {
      await register("c1");
      await relay("c1", "the real answer");
      expect(await sweepExpiredHolds({ now: new Date(Date.now() + 2000) })).toBe(1);
      await runtime.waitFor(() => receivedTexts().length === 1);
      expect(receivedTexts()[0]).toMatch(/^Error: the result was held at breakpoint "everything"/);
      expect((await getHeldPage({ groupId: group })).decided[0]).toMatchObject({
        status: "timed_out",
        decidedBy: "timeout",
      });
    } finally {
      await changeBreakpoint({ id: rule.id, input: { enabled: false }, by: "local" });
    }
  });

  it("fault rules drop, fail and duplicate relayed results on purpose, loudly marked", async () => {
    const drop = await addFault({
      input: { name: "drop deploys", thread: group, tool: "deploy", action: "drop", probability: 1 },
      by: "local",
    });
    const fail = await addFault({
      input: { name: "fail search", thread: group, tool: "search", action: "error", probability: 1 },
      by: "local",
    });
    const twice = await addFault({
      input: { name: "twice", thread: group, tool: "fetch", action: "duplicate", probability: 1 },
      by: "local",
    });
    try {
      await register("d", "deploy");
      await register("s", "search");
      await register("f", "fetch");
      await relay("d", "deployed");
      await relay("s", "3 hits");
      await relay("f", "page");
      await runtime.waitFor((received) => received.filter((r) => r.body.toString().includes(group)).length === 3);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const bodies = runtime.received.filter((r) => r.body.toString().includes(group));
      const texts = bodies.map((r) => JSON.parse(r.body.toString()).text as string);
      expect(texts.filter((text) => text === "deployed")).toHaveLength(0);
      expect(texts.filter((text) => /^Error: injected fault "fail search"/.test(text))).toHaveLength(1);
      const pages = bodies.filter((r) => JSON.parse(r.body.toString()).text === "page");
      expect(pages).toHaveLength(2);
      expect(pages[0]?.headers["webhook-id"]).toBe(pages[1]?.headers["webhook-id"]);
      const log = await getInterventions({ groupId: group });
      expect(log.map((row) => row.action).sort()).toEqual(["fault_drop", "fault_duplicate", "fault_error"]);
      const messages = await t.database.client.outboxMessage.findMany({
        where: { groupId: group },
        orderBy: { id: "asc" },
      });
      expect(messages.map((m) => [m.callKey, m.status, m.fault])).toEqual([
        ["d", "dropped", 'drop (fault rule "drop deploys")'],
        ["s", "delivered", 'error (fault rule "fail search")'],
        ["f", "delivered", 'duplicate (fault rule "twice")'],
        ["f", "delivered", 'duplicate (fault rule "twice")'],
      ]);
    } finally {
      for (const rule of [drop, fail, twice])
        await changeFault({ id: rule.id, input: { enabled: false }, by: "local" });
    }
  });

  it("answers a call whose tool never answers, by hand and from a recording, marked with who answered", async () => {
    await register("earlier", "lookup", '{"q":"x"}');
    await relay("earlier", "recorded answer"); // the thread's results come through relay "rt"
    const silent = await register("silent", "lookup", '{ "q" : "x" }');
    const answered = await answerCall({ callRowId: silent.id, input: { from: "recording" }, by: "user:ada" });
    expect(answered).toMatchObject({
      status: "answered",
      answered_by: "user:ada",
      relay: { target: "rt" },
      not_delivered: null,
    });
    const byHand = await register("by-hand", "lookup", '{"q":"y"}');
    await answerCall({ callRowId: byHand.id, input: { from: "hand", text: "typed by a person" }, by: "user:ada" });
    await runtime.waitFor(() => receivedTexts().length === 3);
    expect(receivedTexts()).toEqual(["recorded answer", "recorded answer", "typed by a person"]);
    const rows = await t.database.client.delivery.findMany({ where: { groupId: group, callKey: "by-hand" } });
    expect(rows).toMatchObject([{ outcome: "accepted", answeredBy: "user:ada", relay: "rt" }]);
    await expect(
      answerCall({ callRowId: byHand.id, input: { from: "hand", text: "again" }, by: "user:ada" }),
    ).rejects.toMatchObject({ code: "conflict" });
  });

  it("approvals: a long poll ends with the decision; rules approve at once; requests expire", async () => {
    const asked = await requestApproval({
      request: { group_id: group, id: "danger", name: "drop_table", arguments: { table: "users" }, relay: "rt" },
      by: "key:runtime",
    });
    expect(asked).toMatchObject({ status: "pending" });
    const waiting = getApprovalState({ id: asked.approval_id, waitSeconds: 10 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await decideApproval({
      id: asked.approval_id,
      decision: { decision: "deny", reason: "not in prod" },
      by: "user:ada",
    });
    await expect(waiting).resolves.toMatchObject({ status: "denied", reason: "not in prod", decided_by: "user:ada" });
    await runtime.waitFor(() =>
      runtime.uniqueMessages().some((m) => m.message.type === "approval_decision" && m.message.group_id === group),
    );
    await addApprovalRule({ name: "reads", tool: `read_*`, by: "local" });
    await expect(
      requestApproval({ request: { group_id: group, id: "r", name: "read_file", arguments: "{}" }, by: "key:runtime" }),
    ).resolves.toMatchObject({ status: "approved", decided_by: "rule:reads" });
    const edited = await requestApproval({
      request: { group_id: group, id: "e", name: "send_mail", arguments: '{"to":"all"}' },
      by: "k",
    });
    await decideApproval({
      id: edited.approval_id,
      decision: { decision: "approve", arguments: '{"to":"me"}' },
      by: "user:ada",
    });
    await expect(getApprovalState({ id: edited.approval_id, waitSeconds: 0 })).resolves.toMatchObject({
      status: "approved",
      arguments: '{"to":"me"}',
      arguments_edited: true,
    });
    const short = await requestApproval({
      request: { group_id: group, id: "x", name: "slow", timeout_ms: 1000 },
      by: "k",
    });
    await expect(getApprovalState({ id: short.approval_id, waitSeconds: 3 })).resolves.toMatchObject({
      status: "expired",
    });
  });
});
