// The overview's figures and lists on every backend, seeded through the ingestion services.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepTimedOutCalls } from "../calls/timeouts.ts";
import { confidenceBand } from "../results/envelope.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { getOverview, LOW_CONFIDENCE_BELOW } from "./service.ts";
import { createSeeder } from "./test-seed.ts";

const NOW = new Date("2026-03-01T12:00:00.000Z");
const minutesAgo = (m: number) => new Date(NOW.getTime() - m * 60_000);

describe.each(testBackends())("overview on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
    const seed = createSeeder(t.database);
    const at = (m: number) => minutesAgo(m).toISOString();
    // g-a: one completed call 2 h ago, one errored, one pending.
    await seed.call({ group_id: "g-a", id: "c1", occurred_at: at(121) });
    await seed.deliver(
      { group_id: "g-a", id: "c1", text: seed.envelope({ confidence: 0.92 }) },
      { receivedAt: minutesAgo(120) },
    );
    await seed.call({ group_id: "g-a", id: "c2", occurred_at: at(30), name: "deploy" });
    await seed.deliver(
      { group_id: "g-a", id: "c2", text: "Error: API rate limit exceeded. Retry after 60 seconds." },
      { receivedAt: minutesAgo(29) },
    );
    await seed.call({ group_id: "g-a", id: "c3", occurred_at: at(20) });
    // g-b: low-confidence results, the band edge, and a call that times out.
    await seed.call({ group_id: "g-b", id: "low1", occurred_at: at(15) });
    await seed.deliver(
      { group_id: "g-b", id: "low1", text: seed.envelope({ confidence: 0.32, nextAction: "ask_user" }) },
      { receivedAt: minutesAgo(14) },
    );
    await seed.call({ group_id: "g-b", id: "low2", occurred_at: at(12) });
    await seed.deliver(
      { group_id: "g-b", id: "low2", text: seed.envelope({ confidence: 0.45, nextAction: "human_review" }) },
      { receivedAt: minutesAgo(11) },
    );
    await seed.call({ group_id: "g-b", id: "edge", occurred_at: at(10) });
    await seed.deliver(
      { group_id: "g-b", id: "edge", text: seed.envelope({ confidence: 0.5 }) },
      { receivedAt: minutesAgo(9) },
    );
    await seed.call({ group_id: "g-b", id: "slow", occurred_at: at(8), timeout_ms: 1000 });
    await sweepTimedOutCalls({ now: NOW });
    // g-c: the newest thread, a subscription; and a delivery for a call nobody registered.
    // Registered last, at the real time (callbacks move a thread's activity to their commit time).
    await seed.call({ group_id: "g-c", id: "sub", subscription: true, name: "watch", vendor: "mcp" });
    await seed.deliver({ group_id: "nobody", id: "ghost", text: "hi" }, { receivedAt: minutesAgo(4) });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("counts rows, calls per status and recent results", async () => {
    const overview = await getOverview({ now: NOW });
    expect(overview.generatedAt).toBe(NOW.toISOString());
    expect(overview.counts).toEqual({ threads: 3, calls: 8, results: 5, deliveries: 6 });
    expect(overview.callsByStatus).toEqual({
      pending: 2,
      completed: 4,
      errored: 1,
      timed_out: 1,
      cancelled: 0,
      auth_required: 0,
    });
    expect(overview.resultsLastHour).toBe(4);
    expect(overview.subscriptions).toEqual({ active: 1, cancelled: 0 });
    expect(overview.deliveriesByOutcome).toEqual([
      { outcome: "accepted", count: 5 },
      { outcome: "unknown_call", count: 1 },
    ]);
  });

  it("lists pending calls oldest first, without subscriptions", async () => {
    const overview = await getOverview({ now: NOW });
    expect(overview.pending.total).toBe(1);
    expect(overview.pending.calls.map((c) => [c.groupId, c.callKey])).toEqual([["g-a", "c3"]]);
  });

  it("lists results below the low band edge, newest first", async () => {
    const overview = await getOverview({ now: NOW });
    expect(overview.lowConfidence.total).toBe(2);
    expect(overview.lowConfidence.newest.map((r) => [r.callKey, r.confidence, r.nextAction])).toEqual([
      ["low2", 0.45, "human_review"],
      ["low1", 0.32, "ask_user"],
    ]);
    expect(overview.lowConfidence.newest[0]).toMatchObject({
      groupId: "g-b",
      toolName: "search_docs",
      envelopeKind: "valid",
    });
  });

  it("lists the threads with the latest activity and their calls per status", async () => {
    const overview = await getOverview({ now: NOW });
    const [newest, ...rest] = overview.recentThreads;
    expect(newest).toMatchObject({ groupId: "g-c", calls: 1, vendor: "mcp" });
    const byGroup = new Map(rest.map((th) => [th.groupId, th]));
    expect(byGroup.get("g-a")).toMatchObject({ calls: 3, pending: 1, errored: 1, timedOut: 0, vendor: null });
    expect(byGroup.get("g-b")).toMatchObject({ calls: 4, pending: 0, errored: 0, timedOut: 1 });
  });
});

describe("low confidence threshold", () => {
  it("is the lower edge of the seed's medium band", () => {
    expect(confidenceBand(LOW_CONFIDENCE_BELOW).band).toBe("medium");
    expect(confidenceBand(LOW_CONFIDENCE_BELOW - 1e-9).band).toBe("low");
  });
});
