// Health's own line to the database, apart from the connection writers use: on SQLite a second
// better-sqlite3 connection (WAL readers are never blocked by a writer, busy_timeout 0, so it cannot wait
// on a lock); on PostgreSQL a pool of two with connect and statement timeouts, which waiting writers
// cannot exhaust. Also answers "which migrations are applied" for db:migrate without the schema engine.
import "server-only";
import fs from "node:fs";
import Sqlite from "better-sqlite3";
import pg from "pg";
import { TIMELINE_LOCK_KEY } from "./lock-key.ts";
import type { DatabaseTarget } from "./database-url.ts";

export type ProbeResult = {
  /** Migrations recorded as applied (null: the table does not exist yet). */
  applied: string[] | null;
  /** Whether a writer could take the write lock now (SQLite write lock / the PostgreSQL write-order lock). */
  writable: boolean;
  counts: Record<string, number> | null;
};

const COUNTED = ["threads", "calls", "results", "deliveries", "events"] as const;
const APPLIED_SQL = `SELECT migration_name FROM _prisma_migrations WHERE rolled_back_at IS NULL AND finished_at IS NOT NULL ORDER BY migration_name`;
// Row counts from the trigger-kept tallies (RowTally, explorer_calls migration): constant time at a million rows,
// where count(*) over the tables took most of health's one-second budget.
const COUNTS_SQL = `SELECT ${COUNTED.map((name) => `(SELECT coalesce(sum("count"), 0) FROM "RowTally" WHERE "key" = '${name}') AS ${name}`).join(", ")}`;

/** The tallies exist once the migration that made them is applied (a database mid-upgrade reports no counts). */
function hasTallies(applied: string[] | null): boolean {
  return applied?.some((name) => name.endsWith("_explorer_calls")) ?? false;
}

type RunOptions = { counts: boolean; writesFailing?: boolean };
type Probe = { run(options: RunOptions): Promise<ProbeResult>; close(): Promise<void> };
const probes = globalThis as typeof globalThis & { toolscopeProbes?: Map<string, Probe> };

function isBusy(error: unknown): boolean {
  return (
    error instanceof Error && "code" in error && typeof error.code === "string" && error.code.startsWith("SQLITE_BUSY")
  );
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// A busy server holds the write lock for milliseconds at a time, again and again (longer when the machine is
// short of CPU). The lock counts as stuck only when it was not seen free for LOCK_GRACE_MS and stays taken
// for up to LOCK_PROBE_MS more (or this process's own writes are being refused already).
const LOCK_GRACE_MS = 1_000;
const LOCK_PROBE_MS = 200;

async function lockFree(
  state: { lastFreeAt: number },
  writesFailing: boolean | undefined,
  attempt: () => Promise<boolean>,
): Promise<boolean> {
  const now = Date.now();
  if (await attempt()) {
    state.lastFreeAt = now;
    return true;
  }
  if (writesFailing) return false;
  if (now - state.lastFreeAt < LOCK_GRACE_MS) return true;
  const end = now + LOCK_PROBE_MS;
  while (Date.now() < end) {
    await pause(10);
    if (await attempt()) {
      state.lastFreeAt = Date.now();
      return true;
    }
  }
  return false;
}

function sqliteProbe(file: string): Probe {
  let db: Sqlite.Database | null = null;
  const seen = { lastFreeAt: 0 };
  const open = () => {
    if (!fs.existsSync(file)) throw Object.assign(new Error(`no database file at ${file}`), { code: "ENOENT" });
    db ??= new Sqlite(file, { timeout: 0, fileMustExist: true });
    return db;
  };
  const tryWrite = (conn: Sqlite.Database) => {
    try {
      conn.exec("BEGIN IMMEDIATE");
      conn.exec("ROLLBACK");
      return true;
    } catch (error) {
      if (isBusy(error)) return false;
      throw error;
    }
  };
  return {
    async run({ counts, writesFailing }) {
      const conn = open();
      const hasTable =
        conn.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'`).get() !==
        undefined;
      const applied = hasTable
        ? conn
            .prepare(APPLIED_SQL)
            .all()
            .map((row) => String((row as { migration_name: string }).migration_name))
        : null;
      const writable = await lockFree(seen, writesFailing, async () => tryWrite(conn));
      const row =
        counts && hasTallies(applied) ? (conn.prepare(COUNTS_SQL).get() as Record<string, number | bigint>) : null;
      return {
        applied,
        writable,
        counts: row ? Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])) : null,
      };
    },
    async close() {
      db?.close();
      db = null;
    },
  };
}

function postgresProbe(url: string, timeoutMs: number): Probe {
  const pool = new pg.Pool({
    connectionString: url,
    max: 2,
    connectionTimeoutMillis: timeoutMs,
    idleTimeoutMillis: 10_000,
    statement_timeout: timeoutMs,
    query_timeout: timeoutMs,
  });
  pool.on("error", () => {}); // a lost idle connection is replaced on the next probe
  const seen = { lastFreeAt: 0 };
  return {
    async run({ counts, writesFailing }) {
      const client = await pool.connect();
      try {
        const exists = await client.query(`SELECT to_regclass('_prisma_migrations') IS NOT NULL AS present`);
        const applied = exists.rows[0]?.present
          ? (await client.query<{ migration_name: string }>(APPLIED_SQL)).rows.map((r) => r.migration_name)
          : null;
        const tryLock = async () =>
          (await client.query<{ free: boolean }>(`SELECT pg_try_advisory_xact_lock(${TIMELINE_LOCK_KEY}) AS free`))
            .rows[0]?.free === true;
        const writable = await lockFree(seen, writesFailing, tryLock);
        const row =
          counts && hasTallies(applied) ? (await client.query<Record<string, string>>(COUNTS_SQL)).rows[0] : undefined;
        return {
          applied,
          writable,
          counts: row ? Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])) : null,
        };
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** Probes `target` through health's own connection (opened on first use, kept). */
export function probeDatabase(
  target: DatabaseTarget,
  options: RunOptions & { timeoutMs?: number } = { counts: true },
): Promise<ProbeResult> {
  probes.toolscopeProbes ??= new Map();
  let probe = probes.toolscopeProbes.get(target.url);
  if (!probe) {
    probe =
      target.provider === "sqlite" ? sqliteProbe(target.file) : postgresProbe(target.url, options.timeoutMs ?? 800);
    probes.toolscopeProbes.set(target.url, probe);
  }
  return probe.run(options);
}

/** One-off: the applied migrations of `target`, without keeping a connection (db:migrate's fast path). */
export async function readAppliedMigrations(target: DatabaseTarget): Promise<string[] | null> {
  const probe = target.provider === "sqlite" ? sqliteProbe(target.file) : postgresProbe(target.url, 5_000);
  try {
    return (await probe.run({ counts: false })).applied;
  } finally {
    await probe.close();
  }
}

export async function closeProbes(): Promise<void> {
  for (const probe of probes.toolscopeProbes?.values() ?? []) await probe.close();
  probes.toolscopeProbes?.clear();
}
