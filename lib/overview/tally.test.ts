// The trigger-kept row tallies (RowTally) against real counts on every backend, after every kind of write the
// product does: registration, results (first, duplicate, late), the deadline sweep changing statuses, a bulk
// set-based insert, and a thread deletion cascading to its calls and results.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepTimedOutCalls } from "../calls/timeouts.ts";
import { seedBulk } from "../explorer/bulk-seed.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import {
  countCallsByStatus,
  countDeliveriesByOutcome,
  countLowConfidence,
  countRows,
  readTallies,
} from "./repository.ts";
import { getOverview } from "./service.ts";
import { createSeeder } from "./test-seed.ts";

const T0 = Date.parse("2026-04-01T08:00:00.000Z");

describe.each(testBackends())("row tallies on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
    const seed = createSeeder(t.database);
    for (let i = 0; i < 6; i++)
      await seed.call({
        group_id: i < 3 ? "keep" : "drop",
        id: `c${i}`,
        occurred_at: new Date(T0 + i).toISOString(),
        timeout_ms: i % 2 ? 1000 : 600_000,
      });
    await seed.deliver({ group_id: "keep", id: "c0", text: seed.envelope({ confidence: 0.2 }) });
    await seed.deliver({ group_id: "keep", id: "c0", text: seed.envelope({ confidence: 0.2 }) });
    await seed.deliver({ group_id: "drop", id: "c4", text: seed.envelope({ confidence: 0.3 }) });
    await seed.deliver({ group_id: "nobody", id: "x", text: "lost" });
    await sweepTimedOutCalls({ now: new Date(T0 + 60_000) });
    await seed.deliver({ group_id: "keep", id: "c1", text: "late but here" });
    await seedBulk(t.database, { calls: 700, callsPerThread: 70, prefix: "tally", start: new Date(T0 + 1e9) });
    await t.database.client.thread.delete({ where: { groupId: "drop" } });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("equal the real counts", async () => {
    const db = t.database.client;
    const tallies = await readTallies(db);
    const rows = await countRows(db);
    expect({
      threads: tallies.get("threads"),
      calls: tallies.get("calls"),
      results: tallies.get("results"),
      deliveries: tallies.get("deliveries"),
    }).toEqual(rows);
    for (const [status, count] of await countCallsByStatus(db))
      expect([status, tallies.get(`calls.status:${status}`)]).toEqual([status, count]);
    for (const [outcome, count] of await countDeliveriesByOutcome(db))
      expect([outcome, tallies.get(`deliveries.outcome:${outcome}`)]).toEqual([outcome, count]);
    expect(tallies.get("results.confidence<0.5")).toBe(await countLowConfidence(db, 0.5));
    expect(rows.calls).toBe(3 + 700);
    expect(tallies.get("events")).toBe(await db.event.count());
    const actions = await db.toolResult.groupBy({
      by: ["nextAction"],
      where: { nextAction: { not: null } },
      _count: { _all: true },
    });
    expect(actions.length).toBeGreaterThan(1);
    for (const group of actions)
      expect([group.nextAction, tallies.get(`results.nextAction:${group.nextAction}`)]).toEqual([
        group.nextAction,
        group._count._all,
      ]);
  });

  it("feed the overview", async () => {
    const overview = await getOverview();
    const db = t.database.client;
    expect(overview.counts).toEqual(await countRows(db));
    expect(overview.callsByStatus.timed_out).toBe((await countCallsByStatus(db)).get("timed_out"));
    expect(overview.lowConfidence.total).toBe(await countLowConfidence(db, 0.5));
  });
});
