// The callback protocol's oauth message on real databases: stored, settling the call, answered idempotently,
// audited, and refused when it names no call, a wrong call_id, a non-web URL or a call that already answered.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordEvents } from "../events/service.ts";
import { rawDelivery, toolCallEvent, toolResultMessage } from "../testing/factories.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { acceptToolResult } from "./service.ts";

describe.each(testBackends())("oauth messages on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  async function register(overrides: Record<string, unknown> = {}) {
    const event = toolCallEvent(overrides);
    expect((await recordEvents(event, { database: t.database })).status).toBe(201);
    return { groupId: String(event.group_id), id: String(event.id) };
  }
  const oauth = (call: { groupId: string; id: string }, extra: Record<string, unknown> = {}) => ({
    type: "oauth",
    group_id: call.groupId,
    id: call.id,
    call_id: null,
    auth_url: "https://github.com/login/oauth/authorize?client_id=abc&state=s1",
    ...extra,
  });
  const deliver = (message: Record<string, unknown>) => acceptToolResult(rawDelivery(message));
  const callRow = (call: { groupId: string; id: string }) =>
    t.database.client.toolCall.findUniqueOrThrow({
      where: { groupId_callKey: { groupId: call.groupId, callKey: call.id } },
      select: { id: true, status: true, resultCount: true, completedAt: true, lastResultAt: true },
    });

  it("stores the URL as an oauth event, settles the call as auth_required and audits it", async () => {
    const call = await register();
    const reply = await deliver(oauth(call));
    const expected = {
      status: "accepted",
      type: "oauth",
      group_id: call.groupId,
      id: call.id,
      auth_url: "https://github.com/login/oauth/authorize?client_id=abc&state=s1",
    };
    expect(reply).toMatchObject({ status: 200, outcome: "oauth", body: expected });
    const row = await callRow(call);
    expect(row).toMatchObject({ status: "auth_required", resultCount: 0 });
    expect(row.completedAt).not.toBeNull();
    expect(row.lastResultAt).toBeNull();
    const events = await t.database.client.event.findMany({
      where: { toolCallId: row.id, kind: "oauth" },
      select: { text: true, source: true },
    });
    expect(events).toEqual([{ text: expected.auth_url, source: "callback" }]);

    // The same message again answers alike and writes nothing new.
    const again = await deliver(oauth(call));
    expect(again).toMatchObject({ status: 200, outcome: "duplicate", body: expected });
    expect(await t.database.client.event.count({ where: { toolCallId: row.id, kind: "oauth" } })).toBe(1);
    const outcomes = await t.database.client.delivery.findMany({
      where: { toolCallId: row.id },
      orderBy: { id: "asc" },
      select: { outcome: true, httpStatus: true },
    });
    expect(outcomes).toEqual([
      { outcome: "oauth", httpStatus: 200 },
      { outcome: "duplicate", httpStatus: 200 },
    ]);
  });

  it("lets the tool answer after the user authorized, and refuses oauth once it has", async () => {
    const call = await register();
    expect((await deliver(oauth(call))).status).toBe(200);
    const result = await deliver(
      toolResultMessage({ group_id: call.groupId, id: call.id, text: "Repository created." }),
    );
    expect(result.status).toBe(200);
    expect(await callRow(call)).toMatchObject({ status: "completed", resultCount: 1 });
    const late = await deliver(oauth(call, { auth_url: "https://github.com/login/oauth/authorize?state=s2" }));
    expect(late).toMatchObject({ status: 409, body: { error: { code: "conflict" } } });
  });

  it("routes like a result: unknown call 404, call_id must echo, only http(s) URLs", async () => {
    expect((await deliver(oauth({ groupId: "no-such-thread", id: "call_x" }))).status).toBe(404);
    const call = await register({ call_id: "toolu_01A" });
    expect(await deliver(oauth(call))).toMatchObject({ status: 422, body: { error: { code: "call_id_mismatch" } } });
    expect(await deliver(oauth(call, { call_id: "toolu_01A", auth_url: "javascript:alert(1)" }))).toMatchObject({
      status: 422,
      body: { error: { code: "invalid", path: "auth_url", message: "auth_url: must be an http(s) URL" } },
    });
    expect(await deliver({ ...oauth(call), type: "auth" })).toMatchObject({
      status: 422,
      body: { error: { message: expect.stringContaining('type must be "tool_result" or "oauth"') } },
    });
    expect((await deliver(oauth(call, { call_id: "toolu_01A" }))).status).toBe(200);
  });
});
