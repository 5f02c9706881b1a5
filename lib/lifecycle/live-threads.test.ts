// Retention and live threads on both backends: a thread with a call still awaiting its result (deadline ahead,
// or none) or an open subscription is never removed, by age or by size, however quiet it is; its result is still
// accepted afterwards. A thread's removal is all or nothing while deliveries and events race with it, and a
// removal cut short (the process stopped) is finished by the next prune.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordEvents } from "../events/service.ts";
import { acceptToolResult, CallbackWriter } from "../ingest/service.ts";
import { rawDelivery } from "../testing/factories.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { fenceThread } from "./repository.ts";
import { prune } from "./service.ts";

const DAY = 86_400_000;
const SECOND_IN_DAYS = 1 / 86_400;

describe.each(testBackends())("live threads and retention on $provider", (backend) => {
  let t: TestDatabase;
  let writer: CallbackWriter;
  const result = (group: string, id: string, text = `result of ${id}`) =>
    acceptToolResult(rawDelivery({ type: "tool_result", group_id: group, id, text }), writer);
  const threadExists = async (group: string) =>
    (await t.database.client.thread.count({ where: { groupId: group } })) === 1;

  beforeAll(async () => {
    t = await useTestDatabase(backend);
    writer = new CallbackWriter(async () => t.database);
  }, 60_000);
  afterAll(async () => {
    await t.cleanup();
  });

  it("keeps a quiet thread while a call awaits its result or a subscription is open; removes it once that ends", async () => {
    const soon = new Date(Date.now() + 300).toISOString();
    const tomorrow = new Date(Date.now() + DAY).toISOString();
    await recordEvents(
      [
        { type: "tool_call", group_id: "deadline-hour", id: "c1", name: "slow", timeout_ms: 3_600_000 },
        { type: "tool_call", group_id: "deadline-tomorrow", id: "c1", name: "slow", deadline: tomorrow },
        { type: "tool_call", group_id: "no-deadline", id: "c1", name: "slow" },
        { type: "tool_call", group_id: "subscribed", id: "s1", name: "watch", subscription: true },
        { type: "tool_call", group_id: "deadline-passed", id: "c1", name: "slow", deadline: soon },
        { type: "tool_call", group_id: "finished", id: "c1", name: "quick" },
      ],
      { database: t.database },
    );
    expect((await result("subscribed", "s1", "first update")).status).toBe(200);
    expect((await result("finished", "c1")).status).toBe(200);
    // Quiet for longer than the retention window (one second) — and past the short deadline.
    await sleep(1_500);

    const byAge = await prune({ database: t.database, days: SECOND_IN_DAYS, maxBytes: null });
    expect(byAge.threads.map((th) => th.groupId).sort()).toEqual(["deadline-passed", "finished"]);
    const bySize = await prune({ database: t.database, days: null, maxBytes: 1 });
    expect(bySize.threads).toEqual([]);
    for (const group of ["deadline-hour", "deadline-tomorrow", "no-deadline", "subscribed"])
      expect(await threadExists(group)).toBe(true);

    // The tools' results, long after the thread went quiet, are still accepted.
    expect((await result("deadline-hour", "c1")).status).toBe(200);
    expect((await result("deadline-tomorrow", "c1")).status).toBe(200);
    expect((await result("subscribed", "s1", "second update")).status).toBe(200);

    // The subscription closes: the thread's inactivity starts then, and it goes when that is old enough.
    await recordEvents({ type: "subscription_cancel", group_id: "subscribed", id: "s1" }, { database: t.database });
    await sleep(1_500);
    const later = await prune({ database: t.database, days: SECOND_IN_DAYS, maxBytes: null });
    expect(later.threads.map((th) => th.groupId).sort()).toEqual(["deadline-hour", "deadline-tomorrow", "subscribed"]);
    expect(await threadExists("no-deadline")).toBe(true);
  }, 60_000);

  it("removes a thread all or nothing while a result for one of its calls and a new event race with it", async () => {
    const group = "big-old";
    const calls = 1_500;
    const longAgo = new Date(Date.now() - 35 * DAY).toISOString();
    for (let start = 0; start < calls; start += 500)
      await recordEvents(
        Array.from({ length: 500 }, (_, i) => ({
          type: "tool_call",
          group_id: group,
          id: `c${start + i}`,
          name: "work",
          deadline: longAgo,
        })),
        { database: t.database, receivedAt: new Date(Date.now() - 40 * DAY) },
      );
    await t.database.client.thread.update({
      where: { groupId: group },
      data: { lastActivityAt: new Date(Date.now() - 40 * DAY) },
    });
    const thread = await t.database.client.thread.findUniqueOrThrow({ where: { groupId: group } });
    const events = () => t.database.client.event.count({ where: { threadId: thread.id } });
    expect(await events()).toBe(calls);

    // As soon as the first rows of the thread are gone, a late result for one of its calls and a new call arrive.
    let racing: Promise<{ result: number; event: number; sawPartial: boolean }> | null = null;
    const race = async () => {
      for (let polls = 0; polls < 10_000; polls++) {
        const left = await events();
        if (left < calls) {
          const late = await result(group, "c7", "late but here");
          const event = await recordEvents(
            { type: "tool_call", group_id: group, id: "new-call", name: "work" },
            { database: t.database },
          );
          return { result: late.status, event: event.status, sawPartial: left > 0 };
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
      return { result: 0, event: 0, sawPartial: false };
    };
    racing = race();
    const report = await prune({ database: t.database, days: 30, maxBytes: null });
    const raced = await racing;
    expect(report.threads.map((th) => th.groupId)).toContain(group);
    expect(raced.sawPartial).toBe(true);

    // Whatever a reader or writer sees: the thread is whole or entirely gone. It went, so the result was refused
    // as for an unknown call (never acknowledged and then lost) and the new call was told to retry.
    const remainingCalls = await t.database.client.toolCall.count({ where: { threadId: thread.id } });
    const remainingEvents = await events();
    expect({ remainingCalls, remainingEvents }).toEqual({ remainingCalls: 0, remainingEvents: 0 });
    expect(raced.result).toBe(404);
    expect(raced.event).toBe(503);
    // The retried call starts the group afresh.
    const retried = await recordEvents(
      { type: "tool_call", group_id: group, id: "new-call", name: "work" },
      { database: t.database },
    );
    expect(retried.status).toBe(201);
    expect((await result(group, "new-call")).status).toBe(200);
  }, 120_000);

  it("finishes a removal that was decided but cut short, even if the thread would now look live", async () => {
    await recordEvents(
      {
        type: "tool_call",
        group_id: "cut-short",
        id: "c1",
        name: "work",
        deadline: new Date(Date.now() - 40 * DAY).toISOString(),
      },
      { database: t.database },
    );
    const thread = await t.database.client.thread.update({
      where: { groupId: "cut-short" },
      data: { lastActivityAt: new Date(Date.now() - 40 * DAY) },
    });
    const row = {
      id: thread.id,
      groupId: thread.groupId,
      lastActivityAt: thread.lastActivityAt,
      liveAfter: new Date(),
    };
    expect(await t.database.transaction((tx) => fenceThread(tx, row, new Date()))).toBe(true);
    // The process stopped here. A fenced thread is gone for writers already:
    expect((await result("cut-short", "c1")).status).toBe(404);
    const report = await prune({ database: t.database, days: null, maxBytes: null });
    expect(report.threads).toEqual([expect.objectContaining({ groupId: "cut-short", reason: "resumed" })]);
    expect(await threadExists("cut-short")).toBe(false);
  }, 60_000);
});
