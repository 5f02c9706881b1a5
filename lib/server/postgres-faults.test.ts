// Fault tests on PostgreSQL against a server process: another session holds the write-ordering advisory
// lock; the database refuses connections (ALTER DATABASE … ALLOW_CONNECTIONS false, live sessions ended).
// Writes answer 503 + Retry-After + the JSON error (never 500, never a hang), health answers within a second
// (degraded / down, 503), and once the database is back everything works and no audit row is lost.
import type { ChildProcess } from "node:child_process";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TIMELINE_LOCK_KEY } from "../db/lock-key.ts";
import { startCallbackServer } from "../testing/spawn-server.ts";
import { postgresTestUrl, testBackends, type TestDatabase } from "../testing/test-databases.ts";

const postgres = testBackends().find((b) => b.provider === "postgresql");
const serverUrl = postgresTestUrl();

describe.runIf(postgres !== undefined && serverUrl !== null)("PostgreSQL under pressure", () => {
  let t: TestDatabase;
  let server: ChildProcess;
  let base = "";
  let dbName = "";
  const admin = () => new pg.Client({ connectionString: serverUrl ?? "" });
  const post = (route: string, body: unknown) =>
    fetch(`${base}${route}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const timed = async (run: () => Promise<Response>) => {
    const t0 = performance.now();
    const response = await run();
    return {
      ms: performance.now() - t0,
      status: response.status,
      retryAfter: response.headers.get("retry-after"),
      body: (await response.json()) as Record<string, unknown>,
    };
  };

  beforeAll(async () => {
    if (!postgres) return;
    t = await postgres.open();
    dbName = new URL(t.url).pathname.slice(1);
    const started = await startCallbackServer(t.url, { TOOLSCOPE_DB_LOCK_WAIT_MS: "1000" });
    server = started.child;
    base = `http://127.0.0.1:${started.port}`;
    const events = Array.from({ length: 10 }, (_, i) => ({
      type: "tool_call",
      group_id: "pg-faults",
      id: `call_${i}`,
      name: "work",
    }));
    expect((await post("/api/events", events)).status).toBe(207);
  }, 120_000);
  afterAll(async () => {
    server?.kill("SIGKILL");
    const client = admin();
    await client.connect();
    await client.query(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS true`).catch(() => {});
    await client.end();
    await t?.cleanup();
  });

  it("answers 503 + Retry-After while another session holds the write-ordering advisory lock", async () => {
    const holder = new pg.Client({ connectionString: t.url });
    await holder.connect();
    await holder.query("BEGIN");
    await holder.query(`SELECT pg_advisory_xact_lock(${TIMELINE_LOCK_KEY})`);
    try {
      const writes = await Promise.all([
        timed(() => post("/api/events", { type: "output_text", group_id: "pg-faults", text: "blocked" })),
        ...Array.from({ length: 12 }, (_, i) =>
          timed(() =>
            post("/api/callback", { type: "tool_result", group_id: "pg-faults", id: `call_${i % 10}`, text: "r" }),
          ),
        ),
      ]);
      for (const write of writes) {
        expect(write.status, JSON.stringify(write.body)).toBe(503);
        expect(write.retryAfter).toMatch(/^\d+$/);
        expect(write.body).toMatchObject({ error: { code: "unavailable" } });
        expect(write.ms).toBeLessThan(4000);
      }
      const health = await timed(() => fetch(`${base}/api/health`));
      expect(health.ms).toBeLessThan(1000);
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({ status: "degraded", database: { state: "degraded", writable: false } });
    } finally {
      await holder.query("ROLLBACK");
      await holder.end();
    }
    expect(
      (await post("/api/callback", { type: "tool_result", group_id: "pg-faults", id: "call_0", text: "after" })).status,
    ).toBe(200);
    const outcomes = async () =>
      (await t.database.client.delivery.groupBy({ by: ["outcome"], _count: { _all: true } }))
        .map((o) => `${o.outcome}:${o._count._all}`)
        .sort();
    for (let i = 0; i < 40 && !(await outcomes()).includes("failed:12"); i++)
      await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await outcomes()).toEqual(["accepted:1", "failed:12"]);
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
  }, 60_000);

  it("answers 503 + Retry-After and health 'down' within a second while the database refuses connections", async () => {
    const client = admin();
    await client.connect();
    try {
      await client.query(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS false`);
      await client.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
        [dbName],
      );
      const health = await timed(() => fetch(`${base}/api/health`));
      expect(health.ms).toBeLessThan(1000);
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({ status: "down", database: { state: "down" } });
      const writes = await Promise.all([
        timed(() => post("/api/events", { type: "output_text", group_id: "pg-faults", text: "refused" })),
        timed(() => post("/api/callback", { type: "tool_result", group_id: "pg-faults", id: "call_5", text: "r" })),
      ]);
      for (const write of writes) {
        expect(write.status, JSON.stringify(write.body)).toBe(503);
        expect(write.retryAfter).toMatch(/^\d+$/);
        expect(write.body).toMatchObject({ error: { code: "unavailable" } });
        expect(write.ms).toBeLessThan(4000);
      }
    } finally {
      await client.query(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS true`);
      await client.end();
    }
    let status = 0;
    for (let i = 0; i < 40 && status !== 200; i++) {
      status = (await fetch(`${base}/api/health`)).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(status).toBe(200);
    expect(
      (await post("/api/callback", { type: "tool_result", group_id: "pg-faults", id: "call_5", text: "back" })).status,
    ).toBe(200);
  }, 60_000);
});
