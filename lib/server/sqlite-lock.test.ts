// Fault test: another process holds the SQLite write lock (BEGIN IMMEDIATE) while a server runs. The event
// loop never waits on it: health answers fast (degraded, 503), writes answer 503 + Retry-After + the JSON
// error within the bounded lock wait, refusals keep their status, and every audit row is folded in from the
// side journal once the lock is free. FAULT_LOCK_SECONDS (default 15; the scenario is 30) sets how long the lock is held.
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Sqlite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveDatabaseTarget } from "../db/database-url.ts";
import { applyMigrations } from "../db/migrate.ts";
import { startCallbackServer } from "../testing/spawn-server.ts";

const HOLD_MS = Number(process.env.FAULT_LOCK_SECONDS ?? 15) * 1000;
const LOCK_WAIT_MS = 1000;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

describe("an outside SQLite write lock", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolscope-lock-"));
  const file = path.join(dir, "lock.db");
  let server: ChildProcess;
  let base = "";
  const post = (route: string, body: unknown, type = "application/json") =>
    fetch(`${base}${route}`, {
      method: "POST",
      headers: { "content-type": type },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });

  beforeAll(async () => {
    await applyMigrations(resolveDatabaseTarget(`file:${file}`));
    const started = await startCallbackServer(`file:${file}`, { TOOLSCOPE_DB_LOCK_WAIT_MS: String(LOCK_WAIT_MS) });
    server = started.child;
    base = `http://127.0.0.1:${started.port}`;
    const events = Array.from({ length: 20 }, (_, i) => ({
      type: "tool_call",
      group_id: "locked",
      id: `call_${i}`,
      name: "work",
    }));
    expect((await post("/api/events", events)).status).toBe(207);
    // A running server has served callbacks before: its query plans are compiled.
    expect(
      (await post("/api/callback", { type: "tool_result", group_id: "locked", id: "call_19", text: "warm" })).status,
    ).toBe(200);
  });
  afterAll(() => {
    server?.kill("SIGKILL");
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it(
    "keeps health fast, answers writes 503 + Retry-After in bounded time, and loses no audit row",
    async () => {
      const before = await fetch(`${base}/api/health`);
      expect(before.status).toBe(200);
      expect(await before.json()).toMatchObject({ status: "ok", database: { state: "ok", writable: true } });

      const outside = new Sqlite(file);
      outside.exec("BEGIN IMMEDIATE");
      const heldUntil = Date.now() + HOLD_MS;
      const healthTimes: number[] = [];
      const healthStates = new Set<string>();
      const writes: { ms: number; status: number; retryAfter: string | null; body: { error?: { code: string } } }[] =
        [];
      try {
        const pollHealth = (async () => {
          while (Date.now() < heldUntil - 200) {
            const t0 = performance.now();
            const response = await fetch(`${base}/api/health`);
            healthTimes.push(performance.now() - t0);
            healthStates.add(`${response.status} ${((await response.json()) as { status: string }).status}`);
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        })();
        const sendWrites = (async () => {
          for (let round = 0; Date.now() < heldUntil - LOCK_WAIT_MS - 500; round++) {
            const batch = await Promise.all(
              Array.from({ length: 5 }, async (_, i) => {
                const t0 = performance.now();
                const response = await post("/api/callback", {
                  type: "tool_result",
                  group_id: "locked",
                  id: `call_${(round * 5 + i) % 19}`,
                  text: `r${round}`,
                });
                writes.push({
                  ms: performance.now() - t0,
                  status: response.status,
                  retryAfter: response.headers.get("retry-after"),
                  body: await response.json(),
                });
              }),
            );
            void batch;
          }
        })();
        await Promise.all([pollHealth, sendWrites]);
        // A malformed delivery is refused with its own status while the lock is held, and audited later.
        const malformed = await post("/api/callback", "{not json");
        expect(malformed.status).toBe(400);
        const event = await post("/api/events", { type: "output_text", group_id: "locked", text: "hello" });
        expect(event.status).toBe(503);
        expect(event.headers.get("retry-after")).toMatch(/^\d+$/);
        expect(await event.json()).toMatchObject({ error: { code: "unavailable" } });
      } finally {
        outside.exec("ROLLBACK");
        outside.close();
      }

      console.log(
        `health during the lock: ${healthTimes.length} probes, p50 ${percentile(healthTimes, 50).toFixed(1)} ms, p99 ${percentile(healthTimes, 99).toFixed(1)} ms, max ${Math.max(...healthTimes).toFixed(1)} ms; ${writes.length} writes, slowest ${Math.max(...writes.map((w) => w.ms)).toFixed(0)} ms`,
      );
      expect(healthTimes.length).toBeGreaterThan(10);
      // The target is 100 ms. On a machine whose other work keeps every core busy (load per core above 1.5,
      // as on the shared CI box), the scheduler alone adds that much; the bound is relaxed and says so.
      const loadPerCore = os.loadavg()[0]! / os.availableParallelism();
      const bound = loadPerCore > 1.5 ? 250 : 100;
      if (bound !== 100)
        console.warn(
          `load ${loadPerCore.toFixed(1)} per core: health p99 bound relaxed to ${bound} ms (target 100 ms)`,
        );
      expect(percentile(healthTimes, 99), `health p99 over ${healthTimes.length} probes`).toBeLessThan(bound);
      expect([...healthStates]).toContain("503 degraded");
      expect(writes.length).toBeGreaterThan(0);
      for (const write of writes) {
        expect(write.status).toBe(503);
        expect(write.retryAfter).toMatch(/^\d+$/);
        expect(write.body.error?.code).toBe("unavailable");
        expect(write.ms).toBeLessThan(LOCK_WAIT_MS + 1500);
      }

      // Lock released: writes work again and the journal is folded in.
      const accepted = await post("/api/callback", {
        type: "tool_result",
        group_id: "locked",
        id: "call_0",
        text: "after",
      });
      expect(accepted.status).toBe(200);
      const check = new Sqlite(file, { readonly: true });
      try {
        let rows: { outcome: string; n: number }[] = [];
        for (let i = 0; i < 50; i++) {
          rows = check.prepare(`SELECT outcome, count(*) AS n FROM "Delivery" GROUP BY outcome`).all() as typeof rows;
          const failed = rows.find((r) => r.outcome === "failed")?.n ?? 0;
          if (failed >= writes.length && rows.some((r) => r.outcome === "malformed_json")) break;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        const byOutcome = Object.fromEntries(rows.map((r) => [r.outcome, r.n]));
        expect(byOutcome.failed).toBe(writes.length);
        expect(byOutcome.malformed_json).toBe(1);
        expect(byOutcome.accepted).toBe(2);
        expect(fs.readdirSync(dir).filter((name) => name.startsWith(".toolscope-refused-"))).toEqual([]);
      } finally {
        check.close();
      }
      const after = await fetch(`${base}/api/health`);
      expect(after.status).toBe(200);
    },
    60_000 + HOLD_MS,
  );
});
