// Pending calls and subscriptions on every backend: what counts as pending, order, cancellations.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { createSeeder } from "../overview/test-seed.ts";
import { getSubscriptionsSnapshot } from "../subscriptions/service.ts";
import { sweepTimedOutCalls } from "../calls/timeouts.ts";
import { getPendingSnapshot, listPendingCalls } from "./service.ts";
import { pendingQuerySchema } from "./schemas.ts";

describe.each(testBackends())("pending calls and subscriptions on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
    const seed = createSeeder(t.database);
    await seed.call({ group_id: "g1", id: "old", occurred_at: "2026-01-01T10:00:00.000Z", call_id: "call_old" });
    await seed.call({
      group_id: "g1",
      id: "due",
      occurred_at: "2026-01-01T10:05:00.000Z",
      timeout_ms: 60_000,
      step: 2,
      vendor: "anthropic",
    });
    await seed.call({ group_id: "g2", id: "new", occurred_at: "2026-01-01T10:10:00.000Z", name: "deploy" });
    await seed.call({ group_id: "g2", id: "done" });
    await seed.deliver({ group_id: "g2", id: "done", text: "ok" });
    await seed.call({ group_id: "g2", id: "watch", name: "watch_build", subscription: true });
    await seed.deliver({ group_id: "g2", id: "watch", text: "build 1 queued" });
    await seed.deliver({ group_id: "g2", id: "watch", text: "build 1 running" });
    await seed.call({ group_id: "g3", id: "feed", name: "price_feed", subscription: true });
    await seed.deliver({ group_id: "g3", id: "feed", text: "AAPL 201.3" });
    await seed.cancel("g3", "feed", "user closed the chart");
    await seed.call({ group_id: "g3", id: "never", name: "tail_logs", subscription: true });
    await seed.cancel("g3", "never");
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("lists calls awaiting a result, oldest first, without subscriptions", async () => {
    const list = await listPendingCalls({ sort: "oldest", limit: 10 });
    expect(list.total).toBe(3);
    expect(list.calls.map((c) => c.callKey)).toEqual(["old", "due", "new"]);
    expect(list.calls[1]).toMatchObject({
      groupId: "g1",
      toolName: "search_docs",
      step: 2,
      vendor: "anthropic",
      requestedAt: "2026-01-01T10:05:00.000Z",
      deadlineAt: "2026-01-01T10:06:00.000Z",
    });
    expect(list.calls[0]).toMatchObject({ callId: "call_old", deadlineAt: null });
  });

  it("sorts newest first and bounds the list while counting everything", async () => {
    const list = await listPendingCalls({ sort: "newest", limit: 2 });
    expect(list.total).toBe(3);
    expect(list.calls.map((c) => c.callKey)).toEqual(["new", "due"]);
  });

  it("puts active subscriptions beside the pending calls", async () => {
    const snapshot = await getPendingSnapshot({ sort: "oldest", now: new Date("2026-01-01T11:00:00.000Z") });
    expect(snapshot.generatedAt).toBe("2026-01-01T11:00:00.000Z");
    expect(snapshot.subscriptions.items.map((s) => s.callKey)).toEqual(["watch"]);
    expect(snapshot.subscriptions.items[0]).toMatchObject({ state: "active", status: "completed", resultCount: 2 });
  });

  it("keeps a call that timed out on the page, marked timed out, for a day after its deadline", async () => {
    const now = new Date("2026-01-01T11:00:00.000Z");
    expect(await sweepTimedOutCalls({ now })).toBe(1);
    const snapshot = await getPendingSnapshot({ sort: "oldest", now });
    expect(snapshot.pending.calls.map((c) => c.callKey)).toEqual(["old", "new"]);
    expect(snapshot.timedOut).toMatchObject({ total: 1, sinceHours: 24 });
    expect(snapshot.timedOut.calls[0]).toMatchObject({
      callKey: "due",
      groupId: "g1",
      deadlineAt: "2026-01-01T10:06:00.000Z",
    });
    expect(Date.parse(snapshot.timedOut.calls[0]?.timedOutAt ?? "")).toBeGreaterThanOrEqual(
      Date.parse("2026-01-01T10:06:00.000Z"),
    );
    const later = await getPendingSnapshot({ sort: "oldest", now: new Date("2026-01-03T11:00:00.000Z") });
    expect(later.timedOut.total).toBe(0);
  });

  it("lists cancelled subscriptions with when and why", async () => {
    const snapshot = await getSubscriptionsSnapshot();
    expect(snapshot.active.total).toBe(1);
    expect(snapshot.cancelled.total).toBe(2);
    const [never, feed] = snapshot.cancelled.items;
    expect(feed).toMatchObject({
      callKey: "feed",
      resultCount: 1,
      cancelReason: "user closed the chart",
      status: "completed",
    });
    expect(feed?.cancelledAt).toEqual(expect.any(String));
    expect(feed?.lastResultAt).toEqual(expect.any(String));
    expect(never).toMatchObject({
      callKey: "never",
      resultCount: 0,
      cancelReason: null,
      status: "cancelled",
      lastResultAt: null,
    });
  });
});

describe("pending query", () => {
  it("falls back to oldest first", () => {
    expect(pendingQuerySchema.parse({}).sort).toBe("oldest");
    expect(pendingQuerySchema.parse({ sort: "newest" }).sort).toBe("newest");
    expect(pendingQuerySchema.safeParse({ sort: "<script>" }).success).toBe(false);
  });
});
