// Opens Toolscope's database (SQLite or PostgreSQL) as one Prisma model API; only repositories use it.
import "server-only";
import { PrismaClient as SqliteClient } from "./generated/sqlite/client.ts";
import { PrismaClient as PostgresClient } from "./generated/postgresql/client.ts";
import { createAdapterFactory, SQLITE_PRAGMAS } from "./adapters.ts";
import { resolveDatabaseTarget, type DatabaseTarget, type Provider } from "./database-url.ts";

/** The model API both providers share (delegates, $queryRaw, $executeRaw); transactions go through Database. */
export type ModelClient = Omit<SqliteClient, "$transaction" | "$connect" | "$disconnect" | "$on" | "$extends">;

export type Database = {
  provider: Provider;
  target: DatabaseTarget;
  client: ModelClient;
  /** One interactive transaction; the callback's client sees only the transaction. */
  transaction<R>(fn: (tx: ModelClient) => Promise<R>, options?: { timeout?: number; maxWait?: number }): Promise<R>;
  close(): Promise<void>;
};

// Both clients are generated from prisma/models.prisma (lib/db/schema-drift.test.ts fails if the two
// schemas ever differ), so the PostgreSQL client's model API is the SQLite one's. TypeScript cannot prove
// that across Prisma's conditional aggregate types, hence this one overload, the only such assertion.
function asSharedModelApi(client: PostgresClient): SqliteClient;
function asSharedModelApi(client: object): object {
  return client;
}

/** Advisory lock key serializing PostgreSQL write transactions (see openDatabase). */
export const TIMELINE_LOCK_KEY = 7_336_001;

export async function openDatabase(target: DatabaseTarget, options: { poolSize?: number } = {}): Promise<Database> {
  if (target.provider === "sqlite") {
    const client = new SqliteClient({ adapter: createAdapterFactory(target) });
    for (const pragma of SQLITE_PRAGMAS) await client.$queryRawUnsafe(pragma);
    return {
      provider: "sqlite",
      target,
      client,
      transaction: (fn, opts) => client.$transaction((tx) => fn(tx), { timeout: 30_000, maxWait: 30_000, ...opts }),
      close: () => client.$disconnect(),
    };
  }
  const client = asSharedModelApi(new PostgresClient({ adapter: createAdapterFactory(target, options) }));
  return {
    provider: "postgresql",
    target,
    client,
    transaction: (fn, opts) =>
      client.$transaction(
        async (tx) => {
          // Write transactions take turns, as they do on SQLite. Timeline rows are ordered by their serial id
          // and live views poll "events after id N": on PostgreSQL, concurrent transactions could otherwise
          // commit ids out of order (a later id visible before an earlier one), and a poll would skip the
          // earlier row for good. Taken first, before any row lock, so it cannot deadlock.
          await tx.$queryRawUnsafe(`SELECT 1 AS locked FROM pg_advisory_xact_lock(${TIMELINE_LOCK_KEY})`);
          return fn(tx);
        },
        { timeout: 30_000, maxWait: 30_000, ...opts },
      ),
    close: () => client.$disconnect(),
  };
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
