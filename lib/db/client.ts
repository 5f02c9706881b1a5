// Opens Toolscope's database (SQLite or PostgreSQL) as one Prisma model API; only repositories use it.
import "server-only";
import type pg from "pg";
import { PrismaClient as SqliteClient } from "./generated/sqlite/client.ts";
import { PrismaClient as PostgresClient } from "./generated/postgresql/client.ts";
import { PrismaPg } from "@prisma/adapter-pg";
import { createPgPool, SqliteAdapterFactory, SQLITE_BUSY_TIMEOUT_MS, SQLITE_PRAGMAS } from "./adapters.ts";
import { pgConnection, sqliteConnection, type DriverConnection } from "./driver.ts";
import { resolveDatabaseTarget, type DatabaseTarget, type Provider } from "./database-url.ts";
import { lockWaitMs, withLockWait } from "./lock-wait.ts";

/** The model API both providers share (delegates, $queryRaw, $executeRaw); transactions go through Database. */
export type ModelClient = Omit<SqliteClient, "$transaction" | "$connect" | "$disconnect" | "$on" | "$extends">;

export type Database = {
  provider: Provider;
  target: DatabaseTarget;
  client: ModelClient;
  /** One interactive transaction; the callback's client sees only the transaction. */
  transaction<R>(fn: (tx: ModelClient) => Promise<R>, options?: TransactionOptions): Promise<R>;
  /**
   * One write transaction, with the same rules as `transaction` (SQLite: one at a time; PostgreSQL: the
   * timeline advisory lock first; both: lock waits bounded and retried asynchronously), whose callback gets the
   * driver connection itself (driver.ts) instead of Prisma. For repositories' bulk write paths only; everything
   * else uses `transaction`. `timeout`: on SQLite Prisma's transaction timeout, on PostgreSQL each statement's.
   */
  driverTransaction<R>(
    fn: (connection: DriverConnection) => Promise<R>,
    options?: DriverTransactionOptions,
  ): Promise<R>;
  close(): Promise<void>;
};

// Both clients are generated from prisma/models.prisma (lib/db/schema-drift.test.ts fails if the two
// schemas ever differ), so the PostgreSQL client's model API is the SQLite one's. TypeScript cannot prove
// that across Prisma's conditional aggregate types, hence this one overload, the only such assertion.
function asSharedModelApi(client: PostgresClient): SqliteClient;
function asSharedModelApi(client: object): object {
  return client;
}

import { TIMELINE_LOCK_KEY } from "./lock-key.ts";

export { TIMELINE_LOCK_KEY };

/**
 * `ordered: false` (PostgreSQL): skip the timeline lock. Only for writes to tables no live view reads "after id N"
 * (the outbox, lib/outbox): they need not take turns with the timeline's writers, and must not slow them.
 */
export type DriverTransactionOptions = { timeout?: number; lockWaitMs?: number; ordered?: boolean };

/** `lockWaitMs` overrides the database's lock wait for this transaction (e.g. what is left of a request's). */
export type TransactionOptions = { timeout?: number; maxWait?: number; lockWaitMs?: number };

export type OpenOptions = {
  poolSize?: number;
  /** How long a write transaction waits for a lock or a connection before failing as a 503 (default lockWaitMs()). */
  lockWaitMs?: number;
};

export async function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Promise<Database> {
  const waitMs = options.lockWaitMs ?? lockWaitMs();
  if (target.provider === "sqlite") {
    const factory = new SqliteAdapterFactory({ url: target.file, timeout: SQLITE_BUSY_TIMEOUT_MS });
    const client = new SqliteClient({ adapter: factory, errorFormat: "minimal" });
    // Set-up pragmas may meet another process's lock (journal_mode needs a moment alone): retried, never blocking.
    for (const pragma of SQLITE_PRAGMAS)
      await withLockWait(() => client.$queryRawUnsafe(pragma), Math.max(waitMs, 10_000));
    const opened = factory.opened;
    if (!opened) throw new Error("the SQLite driver connection was not opened");
    const connection = sqliteConnection(opened);
    // The whole transaction is retried when the write lock is taken (SQLITE_BUSY at once: busy_timeout is 0).
    const transaction: Database["transaction"] = (fn, { lockWaitMs: wait = waitMs, ...opts } = {}) =>
      withLockWait(() => client.$transaction((tx) => fn(tx), { timeout: 30_000, maxWait: 30_000, ...opts }), wait);
    return {
      provider: "sqlite",
      target,
      client,
      transaction,
      // Prisma's transaction holds its adapter's lock and BEGIN/COMMIT on the one connection; the callback
      // writes through that same connection.
      driverTransaction: (fn, { ordered: _ordered, ...opts } = {}) => transaction(() => fn(connection), opts),
      close: () => client.$disconnect(),
    };
  }
  const pool = createPgPool(target, { ...options, lockWaitMs: waitMs });
  const client = asSharedModelApi(new PostgresClient({ adapter: new PrismaPg(pool), errorFormat: "minimal" }));
  return {
    provider: "postgresql",
    target,
    client,
    // lock_timeout (set per connection, see adapters.ts) bounds the wait for the advisory lock and row locks;
    // maxWait bounds the wait for a pooled connection. Either ends as a transient error → retried → 503.
    transaction: (fn, { lockWaitMs: wait = waitMs, ...opts } = {}) =>
      withLockWait(
        () =>
          client.$transaction(
            async (tx) => {
              // Write transactions take turns, as they do on SQLite. Timeline rows are ordered by their serial id
              // and live views poll "events after id N": on PostgreSQL, concurrent transactions could otherwise
              // commit ids out of order (a later id visible before an earlier one), and a poll would skip the
              // earlier row for good. Taken first, before any row lock, so it cannot deadlock.
              await tx.$queryRawUnsafe(`SELECT 1 AS locked FROM pg_advisory_xact_lock(${TIMELINE_LOCK_KEY})`);
              return fn(tx);
            },
            { timeout: 30_000, maxWait: Math.max(100, wait), ...opts },
          ),
        wait,
      ),
    driverTransaction: (fn, { lockWaitMs: wait = waitMs, timeout = 30_000, ordered = true } = {}) =>
      withLockWait(() => pgDriverTransaction(pool, fn, timeout, ordered), wait),
    // Idempotent: tests and shutdown paths may both close the database; the pool may end only once.
    close: async () => {
      await client.$disconnect();
      if (!pool.ended) await pool.end();
    },
  };
}
/** A transaction on a client of Prisma's own pool, taking the timeline lock first (see openDatabase). */
async function pgDriverTransaction<R>(
  pool: pg.Pool,
  fn: (connection: DriverConnection) => Promise<R>,
  timeoutMs: number,
  ordered = true,
): Promise<R> {
  const client = await pool.connect();
  let failed: unknown = null;
  try {
    // One round trip (simple query protocol: several statements, no parameters).
    const lock = ordered ? `; SELECT pg_advisory_xact_lock(${TIMELINE_LOCK_KEY})` : "";
    await client.query(`BEGIN; SET LOCAL statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}${lock}`);
    const result = await fn(pgConnection(client));
    await client.query("COMMIT");
    return result;
  } catch (error) {
    failed = error;
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    // A client whose transaction failed is dropped, not returned to the pool in an unknown state.
    client.release(failed instanceof Error ? failed : undefined);
  }
}

// One database per process, shared through globalThis: the custom server (scripts/start.ts) and the Next
// bundle load this module separately, and `next dev` reloads it on every edit; all of them must share one
// SQLite connection. Migrations are applied before the server starts (scripts/prepare-db.ts).
const globalForDb = globalThis as typeof globalThis & { toolscopeDb?: Promise<Database> };

export function getDatabase(): Promise<Database> {
  globalForDb.toolscopeDb ??= openDatabase(resolveDatabaseTarget()).catch((error: unknown) => {
    globalForDb.toolscopeDb = undefined;
    throw error;
  });
  return globalForDb.toolscopeDb;
}

/** Installs an already-open database as the process's database (the server and tests do this). */
export function setDatabase(database: Database): void {
  globalForDb.toolscopeDb = Promise.resolve(database);
}
