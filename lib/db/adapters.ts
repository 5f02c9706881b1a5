// Builds the Prisma driver-adapter factory for a database target: better-sqlite3 for files, pg for PostgreSQL.
import "server-only";
import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import type { DatabaseTarget } from "./database-url.ts";
import { lockWaitMs } from "./lock-wait.ts";

// Zero: better-sqlite3 is synchronous, and a busy timeout would freeze the whole event loop while another
// process holds the write lock. Lock waits happen asynchronously instead (lock-wait.ts).
export const SQLITE_BUSY_TIMEOUT_MS = 0;

/** The better-sqlite3 factory, remembering the connection it opened (Database.driverTransaction uses it). */
export class SqliteAdapterFactory extends PrismaBetterSqlite3 {
  opened: BetterSqlite3.Database | null = null;

  override async connect() {
    const adapter = await super.connect();
    if ("client" in adapter && adapter.client instanceof BetterSqlite3) this.opened = adapter.client;
    return adapter;
  }
}

/**
 * The PostgreSQL pool Prisma uses, opened here so Database.driverTransaction can take clients from it too.
 * A lost or refused server fails fast (503), not hangs a request (pg waits forever by default), and no lock —
 * the write-ordering advisory lock included — is waited for longer than the lock wait.
 */
export function createPgPool(
  target: { url: string },
  options: { poolSize?: number; lockWaitMs?: number } = {},
): pg.Pool {
  const lockTimeout = Math.max(50, Math.min(options.lockWaitMs ?? lockWaitMs(), 30_000));
  const pool = new pg.Pool({
    connectionString: target.url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: Math.max(1_000, lockTimeout),
    options: `-c lock_timeout=${lockTimeout}`,
  });
  // An idle client's connection error must not crash the process before Prisma attaches its own listener.
  pool.on("error", (error) => console.error("[toolscope] idle PostgreSQL connection failed", error.message));
  return pool;
}

/**
 * `disposePool`: the adapter's dispose() also ends the PostgreSQL pool (the migration engine's short-lived
 * connections); otherwise the pool outlives it, and an idle connection keeps the database busy (a template
 * database with a connection cannot be cloned, nor dropped without FORCE).
 */
export function createAdapterFactory(
  target: DatabaseTarget,
  options: { poolSize?: number; lockWaitMs?: number; disposePool?: boolean } = {},
) {
  if (target.provider === "sqlite") {
    if (target.file !== ":memory:") fs.mkdirSync(path.dirname(target.file), { recursive: true });
    return new SqliteAdapterFactory({ url: target.file, timeout: SQLITE_BUSY_TIMEOUT_MS });
  }
  return new PrismaPg(createPgPool(target, options), { disposeExternalPool: options.disposePool === true });
}

// Prisma's better-sqlite3 adapter opens one connection and leaves SQLite's defaults (rollback journal,
// foreign keys off). WAL + synchronous=FULL gives durable commits at ~20x the default's rate.
// auto_vacuum=INCREMENTAL lets retention give space back (PRAGMA incremental_vacuum) without a full VACUUM;
// it takes effect on a new database, or after one VACUUM on an existing one (the ops_lifecycle migration).
export const SQLITE_PRAGMAS = [
  "PRAGMA auto_vacuum = INCREMENTAL",
  "PRAGMA journal_mode = WAL",
  "PRAGMA synchronous = FULL",
  "PRAGMA foreign_keys = ON",
  `PRAGMA busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`,
] as const;
