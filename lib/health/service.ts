// Health of this Toolscope instance within one second, from a connection writers cannot starve
// (lib/db/probe.ts): ok (200) — reads and writes work, migrations applied; degraded (503) — reachable but
// the write lock has been held elsewhere past the lock wait, or migrations are pending; down (503) —
// unreachable or no answer in time. Writes answer 503 + Retry-After meanwhile; reads keep working.
import "server-only";
import { getDatabase } from "../db/client.ts";
import { resolveDatabaseTarget, redactDatabaseUrl, type DatabaseTarget } from "../db/database-url.ts";
import { writeLockState } from "../db/lock-wait.ts";
import { readMigrationList } from "../db/migration-files.ts";
import { probeDatabase, type ProbeResult } from "../db/probe.ts";

export type HealthState = "ok" | "degraded" | "down";
export type DatabaseCounts = { threads: number; calls: number; results: number; deliveries: number; events: number };

export type HealthReport = {
  status: HealthState;
  database: {
    provider: "sqlite" | "postgresql";
    url: string;
    state: HealthState;
    writable: boolean;
    latencyMs: number;
    message?: string;
  };
  migrations: { applied: string[]; pending: string[]; state: "up_to_date" | "pending" | "unknown" };
  counts: DatabaseCounts | null;
};

/** Health answers within this bound, whatever the database does. */
export const HEALTH_BUDGET_MS = 900;

async function currentTarget(): Promise<DatabaseTarget> {
  try {
    return (await getDatabase()).target;
  } catch {
    return resolveDatabaseTarget();
  }
}

function timeout(ms: number): Promise<never> {
  return new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref());
}

export async function getHealth(options: { counts?: boolean } = {}): Promise<HealthReport> {
  const target = await currentTarget();
  const started = performance.now();
  const database = { provider: target.provider, url: redactDatabaseUrl(target) };
  // Writes refused for lock waits within the last 10 s (and none stored since) mean the lock is held elsewhere.
  const writesFailing =
    Date.now() - writeLockState.lastRefusedAt < 10_000 && writeLockState.lastRefusedAt > writeLockState.lastSucceededAt;
  let probe: ProbeResult;
  try {
    const probing = probeDatabase(target, {
      counts: options.counts ?? true,
      writesFailing,
      timeoutMs: HEALTH_BUDGET_MS - 100,
    });
    probe = await Promise.race([probing, timeout(HEALTH_BUDGET_MS)]);
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0]?.slice(0, 200) : "unreachable";
    return {
      status: "down",
      database: {
        ...database,
        state: "down",
        writable: false,
        latencyMs: Math.round(performance.now() - started),
        message: `database unreachable: ${message}`,
      },
      migrations: { applied: [], pending: [], state: "unknown" },
      counts: null,
    };
  }
  const applied = probe.applied ?? [];
  const pending = readMigrationList(target.provider)
    .migrationDirectories.map((d) => d.path)
    .filter((name) => !applied.includes(name));
  const refusing = !probe.writable || writesFailing;
  const state: HealthState = refusing || pending.length > 0 ? "degraded" : "ok";
  const message = refusing
    ? "writes are refused (503 + Retry-After): another process holds the write lock"
    : pending.length > 0
      ? "migrations pending: run npm run db:migrate"
      : undefined;
  return {
    status: state,
    database: {
      ...database,
      state,
      writable: !refusing,
      latencyMs: Math.round(performance.now() - started),
      ...(message ? { message } : {}),
    },
    migrations: { applied, pending, state: pending.length === 0 ? "up_to_date" : "pending" },
    counts: probe.counts ? { threads: 0, calls: 0, results: 0, deliveries: 0, events: 0, ...probe.counts } : null,
  };
}
