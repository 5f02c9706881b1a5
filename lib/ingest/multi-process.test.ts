// Several Toolscope processes on one PostgreSQL: the same results delivered to two servers at once are
// stored once, both senders get the same answer, and nothing fails. Routing and idempotency rest on the
// database's unique keys, not on process memory.
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordEvents } from "../events/service.ts";
import { startCallbackServer } from "../testing/spawn-server.ts";
import { postgresTestUrl, testBackends, type TestDatabase } from "../testing/test-databases.ts";

const postgres = testBackends().find((b) => b.provider === "postgresql");

describe.runIf(postgres !== undefined && postgresTestUrl() !== null)("two processes on one PostgreSQL", () => {
  let t: TestDatabase;
  const servers: ChildProcess[] = [];
  const ports: number[] = [];
  const CALLS = 150;

  beforeAll(async () => {
    if (!postgres) return;
    t = await postgres.open();
    const events = Array.from({ length: CALLS }, (_, i) => ({
      type: "tool_call",
      group_id: "multi",
      id: `call_${i}`,
      name: "work",
    }));
    expect((await recordEvents(events, { database: t.database })).status).toBe(207);
    for (let i = 0; i < 2; i++) {
      const { child, port } = await startCallbackServer(t.url);
      servers.push(child);
      ports.push(port);
    }
  });
  afterAll(async () => {
    for (const child of servers) child.kill("SIGKILL");
    await t?.cleanup();
  });

  it("stores each result once when both processes receive it concurrently", async () => {
    const post = (port: number, i: number, text: string) =>
      fetch(`http://127.0.0.1:${port}/api/callback`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ type: "tool_result", group_id: "multi", id: `call_${i}`, text }),
      }).then(async (r) => ({ status: r.status, body: await r.text() }));
    const pairs = await Promise.all(
      Array.from({ length: CALLS }, (_, i) =>
        Promise.all([
          post(ports[0] ?? 0, i, `same ${i}`),
          post(ports[1] ?? 0, i, i % 5 === 0 ? `other ${i}` : `same ${i}`),
        ]),
      ),
    );
    const failures = await t.database.client.delivery.findMany({
      where: { outcome: "failed" },
      select: { reason: true },
      take: 3,
    });
    expect(failures.map((f) => f.reason)).toEqual([]);
    for (const [i, [a, b]] of pairs.entries()) {
      expect(
        [a.status, b.status].every((s) => s === 200 || s === 409),
        `call_${i}: ${a.status} ${b.status}`,
      ).toBe(true);
      if (i % 5 !== 0) expect(a).toEqual(b);
      else expect([a.status, b.status].sort()).toEqual([200, 409]);
    }
    const counts = await t.database.client.toolResult.groupBy({ by: ["toolCallId"], _count: { _all: true } });
    expect(counts).toHaveLength(CALLS);
    expect(counts.every((c) => c._count._all === 1)).toBe(true);
    const outcomes = await t.database.client.delivery.groupBy({ by: ["outcome"], _count: { _all: true } });
    const byOutcome = Object.fromEntries(outcomes.map((o) => [o.outcome, o._count._all]));
    expect(byOutcome.accepted).toBe(CALLS);
    expect((byOutcome.duplicate ?? 0) + (byOutcome.conflict ?? 0)).toBe(CALLS);
    expect(byOutcome.failed).toBeUndefined();
  });
});
