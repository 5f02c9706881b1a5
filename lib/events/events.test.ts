// POST /api/events semantics on every backend: registration idempotency, conflicts, batches, timeline.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolCallEvent, uniqueId } from "../testing/factories.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { POST as eventsPOST } from "../../app/api/events/route.ts";
import { describeArguments, recordEvents } from "./service.ts";

describe("describeArguments", () => {
  it("keeps raw text verbatim and parses it when it is JSON", () => {
    expect(describeArguments('{"a": 1}')).toEqual({ text: '{"a": 1}', json: '{"a":1}', error: null });
    expect(describeArguments({ a: 1 })).toEqual({ text: '{"a":1}', json: '{"a":1}', error: null });
    const invalid = describeArguments('{"a": 1');
    expect(invalid.text).toBe('{"a": 1');
    expect(invalid.json).toBeNull();
    expect(invalid.error).toMatch(/JSON/);
  });
});

describe.each(testBackends())("trace events on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await t.cleanup();
  });
  const record = (body: unknown) => recordEvents(body, { database: t.database });

  it("registers a call once; the same registration again answers the same; different content is 409", async () => {
    const event = toolCallEvent({
      call_id: "toolu_01",
      declaration: { name: "search_docs", inputSchema: { type: "object" } },
    });
    const first = await record(event);
    expect(first.status).toBe(201);
    const again = await record(event);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const changed = await record({ ...event, arguments: '{"q":"other"}' });
    expect(changed.status).toBe(409);
    expect(changed.body).toMatchObject({ error: { code: "conflict" } });
    expect(await t.database.client.toolCall.count({ where: { groupId: String(event.group_id) } })).toBe(1);
  });

  it("names a thread's vendor after the first call that has one, also when the thread opened with messages", async () => {
    const vendorOf = async (groupId: string) =>
      (await t.database.client.thread.findUniqueOrThrow({ where: { groupId }, select: { vendor: true } })).vendor;
    // Messages first (no vendor), then calls, in one batch and over two requests.
    const batched = uniqueId("vendor-batch");
    expect(
      (
        await record([
          { type: "message", group_id: batched, role: "user", text: "hi" },
          toolCallEvent({ group_id: batched, vendor: "openai-chat" }),
          toolCallEvent({ group_id: batched, vendor: "gemini" }),
        ])
      ).status,
    ).toBe(207);
    expect(await vendorOf(batched)).toBe("openai-chat");
    const apart = uniqueId("vendor-apart");
    expect((await record({ type: "message", group_id: apart, role: "user", text: "hi" })).status).toBe(201);
    expect(await vendorOf(apart)).toBeNull();
    expect((await record(toolCallEvent({ group_id: apart }))).status).toBe(201);
    expect(await vendorOf(apart)).toBeNull();
    expect((await record(toolCallEvent({ group_id: apart, vendor: "openai-responses" }))).status).toBe(201);
    expect((await record(toolCallEvent({ group_id: apart, vendor: "anthropic" }))).status).toBe(201);
    expect(await vendorOf(apart)).toBe("openai-responses");
  });

  it("nested content counts: different arguments, declaration schema or key order inside an object", async () => {
    const event = toolCallEvent({
      arguments: { env: "prod", replicas: 2 },
      declaration: { name: "deploy", inputSchema: { type: "object" } },
    });
    expect((await record(event)).status).toBe(201);
    // The same content with keys in another order is the same registration.
    expect((await record({ ...event, arguments: { replicas: 2, env: "prod" } })).status).toBe(200);
    expect((await record({ ...event, arguments: { env: "staging", replicas: 2 } })).status).toBe(409);
    expect((await record({ ...event, declaration: { name: "deploy", inputSchema: { type: "array" } } })).status).toBe(
      409,
    );
  });

  it("keeps the source digits of integers above 2^53 in arguments posted as JSON", async () => {
    const group = uniqueId("bigint");
    const response = await eventsPOST(
      new Request("http://127.0.0.1/api/events", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: `{"type":"tool_call","group_id":"${group}","id":"c1","name":"lookup","arguments":{"order_id":12345678901234567890,"n":1.5}}`,
      }),
    );
    expect(response.status).toBe(201);
    const row = await t.database.client.toolCall.findFirstOrThrow({
      where: { groupId: group },
      select: { argumentsText: true, argumentsJson: true },
    });
    expect(row.argumentsText).toBe('{"order_id":12345678901234567890,"n":1.5}');
    expect(row.argumentsJson).toBe('{"order_id":12345678901234567890,"n":1.5}');
  });

  it("registers concurrent identical calls exactly once", async () => {
    const event = toolCallEvent();
    const replies = await Promise.all(Array.from({ length: 8 }, () => record(event)));
    expect(replies.every((r) => r.status === 200 || r.status === 201)).toBe(true);
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
    expect(await t.database.client.toolCall.count({ where: { groupId: String(event.group_id) } })).toBe(1);
  });

  it("answers a batch with 207 and one result per item, in order", async () => {
    const group = uniqueId("batch");
    const reply = await record([
      { type: "message", group_id: group, role: "user", text: "What's the weather in Paris and Tokyo?" },
      { type: "reasoning", group_id: group, text: "Two cities: call the tool twice in parallel." },
      toolCallEvent({ group_id: group, id: "call_paris", name: "get_weather", arguments: { city: "Paris" }, step: 1 }),
      toolCallEvent({ group_id: group, id: "call_tokyo", name: "get_weather", arguments: { city: "Tokyo" }, step: 1 }),
      { type: "tool_call", group_id: group },
      { type: "teleport", group_id: group },
      { type: "output_text", group_id: group, text: "Paris is 18°C, Tokyo 22°C." },
      { type: "error", group_id: group, id: "call_unknown", message: "boom" },
    ]);
    expect(reply.status).toBe(207);
    const results = (
      reply.body as { results: { index: number; status: number; body: { error?: { path?: string } } }[] }
    ).results;
    expect(results.map((r) => [r.index, r.status])).toEqual([
      [0, 201],
      [1, 201],
      [2, 201],
      [3, 201],
      [4, 422],
      [5, 422],
      [6, 201],
      [7, 404],
    ]);
    expect(results[4]?.body.error?.path).toBe("id");
    expect(results[5]?.body.error?.path).toBe("type");
    const thread = await t.database.client.thread.findUniqueOrThrow({
      where: { groupId: group },
      select: { id: true },
    });
    const timeline = await t.database.client.event.findMany({
      where: { threadId: thread.id },
      orderBy: { id: "asc" },
      select: { kind: true, role: true, step: true },
    });
    expect(timeline.map((e) => e.kind)).toEqual(["message", "reasoning", "tool_call", "tool_call", "output_text"]);
    expect(timeline.filter((e) => e.step === 1)).toHaveLength(2);
  });

  it("registers a batch of new calls in order, with their timeline events", async () => {
    const group = uniqueId("bulk");
    const batch = Array.from({ length: 1000 }, (_, i) =>
      toolCallEvent({
        group_id: group,
        id: `call_${i}`,
        step: Math.floor(i / 3),
        arguments: i === 7 ? '{"broken"' : { i },
      }),
    );
    const reply = await record(batch);
    const results = (
      reply.body as { results: { index: number; status: number; body: { id: string; event_id: number } }[] }
    ).results;
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(results.map((r) => r.body.id)).toEqual(batch.map((e) => e.id));
    const eventIds = results.map((r) => r.body.event_id);
    expect([...eventIds].sort((a, b) => a - b)).toEqual(eventIds);
    const thread = await t.database.client.thread.findUniqueOrThrow({
      where: { groupId: group },
      select: { id: true },
    });
    const timeline = await t.database.client.event.findMany({
      where: { threadId: thread.id },
      orderBy: { id: "asc" },
      select: { id: true, kind: true, step: true },
    });
    expect(timeline.map((e) => e.id)).toEqual(eventIds);
    expect(timeline[5]?.step).toBe(1);
    const broken = await t.database.client.toolCall.findFirstOrThrow({ where: { groupId: group, callKey: "call_7" } });
    expect(broken).toMatchObject({ argumentsText: '{"broken"', argumentsJson: null, status: "pending" });
    // The same batch again: every registration answers like the first time.
    const again = await record(batch);
    expect((again.body as { results: { status: number; body: unknown }[] }).results.map((r) => r.body)).toEqual(
      results.map((r) => r.body),
    );
  });

  it("keeps invalid JSON arguments verbatim with the parse error", async () => {
    const event = toolCallEvent({ arguments: '{"city": "Paris"' });
    await record(event);
    const call = await t.database.client.toolCall.findFirstOrThrow({ where: { groupId: String(event.group_id) } });
    expect(call.argumentsText).toBe('{"city": "Paris"');
    expect(call.argumentsJson).toBeNull();
    expect(call.argumentsError).toBeTruthy();
  });

  // PostgreSQL's INTEGER is 32-bit: a step of 2^31 was a 500 there (a batch too) while SQLite stored it.
  it("refuses a step over 2,147,483,647 naming it, alike alone and in a batch, and stores the largest", async () => {
    const group = uniqueId("g-step");
    const refused = await record({ type: "message", group_id: group, role: "user", text: "hi", step: 2 ** 31 });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      error: { code: "invalid", path: "step", message: "step: must be at most 2147483647" },
    });
    const batch = await record([toolCallEvent({ group_id: group, id: "c-big", step: 2 ** 31 })]);
    expect(batch.body).toMatchObject({ results: [{ index: 0, status: 422, body: { error: { path: "step" } } }] });
    const stored = await record(toolCallEvent({ group_id: group, id: "c-max", step: 2 ** 31 - 1 }));
    expect(stored.status, JSON.stringify(stored.body)).toBe(201);
    expect(
      await t.database.client.toolCall.findFirst({
        where: { groupId: group, callKey: "c-max" },
        select: { step: true },
      }),
    ).toEqual({ step: 2 ** 31 - 1 });
  });

  // PostgreSQL has no year 0: an occurred_at or deadline in it was a 500 there while SQLite stored it.
  it("refuses an occurred_at or deadline before year 1 (UTC) naming it, and stores year 1", async () => {
    const group = uniqueId("g-year");
    const early = await record({
      type: "message",
      group_id: group,
      role: "user",
      text: "hi",
      occurred_at: "0000-06-01T00:00:00Z",
    });
    expect(early.status).toBe(422);
    expect(early.body).toMatchObject({
      error: { code: "invalid", path: "occurred_at", message: "occurred_at: must be in year 1 or later (UTC)" },
    });
    const shifted = await record(toolCallEvent({ group_id: group, deadline: "0001-01-01T00:30:00+01:00" }));
    expect(shifted.body).toMatchObject({ error: { path: "deadline" } });
    const stored = await record({
      type: "message",
      group_id: group,
      role: "user",
      text: "hi",
      occurred_at: "0001-01-01T00:00:00Z",
    });
    expect(stored.status, JSON.stringify(stored.body)).toBe(201);
    const event = await t.database.client.event.findFirstOrThrow({ where: { thread: { groupId: group } } });
    expect(event.occurredAt.toISOString()).toBe("0001-01-01T00:00:00.000Z");
  });

  it("rejects empty and oversized batches", async () => {
    await expect(record([])).rejects.toMatchObject({ code: "invalid" });
    await expect(record(Array.from({ length: 1001 }, () => ({})))).rejects.toMatchObject({ code: "invalid" });
  });

  it("cancels only active subscriptions", async () => {
    const sub = toolCallEvent({ subscription: true });
    await record(sub);
    const cancel = {
      type: "subscription_cancel",
      group_id: sub.group_id,
      id: sub.id,
      reason: "user closed the dashboard",
    };
    expect((await record(cancel)).status).toBe(201);
    expect((await record(cancel)).status).toBe(200);
    const plain = toolCallEvent();
    await record(plain);
    expect((await record({ ...cancel, group_id: plain.group_id, id: plain.id })).status).toBe(409);
    expect((await record({ ...cancel, id: "nope" })).status).toBe(404);
    const call = await t.database.client.toolCall.findFirstOrThrow({ where: { groupId: String(sub.group_id) } });
    expect(call).toMatchObject({ subscription: "cancelled", status: "cancelled" });
  });
});
