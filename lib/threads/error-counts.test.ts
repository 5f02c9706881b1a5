// One failure is one error wherever a thread's errors are counted: the threads list, its "has errors" filter and
// the overview's recent threads agree. An errored call with an error event about it (what an errored OTel span
// stores) counted 2 on the threads list and 1 on the overview; a timed-out call counted on the overview only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepTimedOutCalls } from "../calls/timeouts.ts";
import { getOverview } from "../overview/service.ts";
import { createSeeder } from "../overview/test-seed.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { listThreads } from "./service.ts";

describe.each(testBackends())("a thread's errors on $provider", (backend) => {
  let t: TestDatabase;
  const now = new Date();
  const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * 60_000).toISOString();

  beforeAll(async () => {
    t = await useTestDatabase(backend);
    const seed = createSeeder(t.database);
    const error = (groupId: string, id?: string) =>
      seed.event({
        type: "error",
        group_id: groupId,
        message: "tool crashed",
        layer: "runtime",
        ...(id ? { id } : {}),
      });
    // An errored call and the runtime's error event about that call: one failure.
    await seed.call({ group_id: "e-errored-call", id: "c1", occurred_at: at(9) });
    await seed.deliver({ group_id: "e-errored-call", id: "c1", text: "Error: connection reset" });
    await error("e-errored-call", "c1");
    // A timed-out call: a failure, on every page.
    await seed.call({ group_id: "e-timed-out", id: "c1", occurred_at: at(8), timeout_ms: 1000 });
    await sweepTimedOutCalls({ now });
    // An error event about a call that completed: the event is the failure.
    await seed.call({ group_id: "e-event-on-ok-call", id: "c1", occurred_at: at(7) });
    await seed.deliver({ group_id: "e-event-on-ok-call", id: "c1", text: "done" });
    await error("e-event-on-ok-call", "c1");
    // Two error events about no call, and an errored call: three failures.
    await seed.call({ group_id: "e-three", id: "c1", occurred_at: at(6) });
    await seed.deliver({ group_id: "e-three", id: "c1", text: "Error: quota exceeded" });
    await error("e-three");
    await error("e-three");
    // No failure.
    await seed.call({ group_id: "e-clean", id: "c1", occurred_at: at(5) });
    await seed.deliver({ group_id: "e-clean", id: "c1", text: "ok" });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  const expected = { "e-errored-call": 1, "e-timed-out": 1, "e-event-on-ok-call": 1, "e-three": 3, "e-clean": 0 };

  it("counts each failure once on the threads list", async () => {
    const page = await listThreads({ query: {}, database: t.database });
    expect(Object.fromEntries(page.threads.map((thread) => [thread.groupId, thread.counts.errors]))).toEqual(expected);
    // The thread's figures still say what kind each failure is.
    expect(page.threads.find((thread) => thread.groupId === "e-errored-call")?.counts).toMatchObject({
      errored: 1,
      errorEvents: 1,
      errors: 1,
    });
  });

  it("gives the overview's recent threads the same counts", async () => {
    const overview = await getOverview({ database: t.database });
    expect(Object.fromEntries(overview.recentThreads.map((thread) => [thread.groupId, thread.errors]))).toEqual(
      expected,
    );
  });

  it("finds exactly the threads with a failure under 'has errors'", async () => {
    const page = await listThreads({ query: { errors: "1" }, database: t.database });
    expect(page.threads.map((thread) => thread.groupId).sort()).toEqual([
      "e-errored-call",
      "e-event-on-ok-call",
      "e-three",
      "e-timed-out",
    ]);
  });
});
