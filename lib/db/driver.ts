// The driver connection under Prisma, for repositories' bulk write paths only (today: OTLP span ingest,
// lib/otel). Prisma's raw-query path serializes every bound value, re-parses it and maps each result cell
// through its type system, and the better-sqlite3 adapter compiles a new statement for every query; a write
// path that moves tens of thousands of values per transaction pays more for that than for the SQL itself.
// A DriverConnection runs Prisma `sql` templates on the driver itself (better-sqlite3's Database, a pg pool
// client), with prepared statements reused across calls on SQLite. It exists only inside
// Database.driverTransaction, which keeps the write transactions' rules (one at a time on SQLite, the
// timeline advisory lock on PostgreSQL). Values are bound as Prisma's adapters bind them: DateTime as
// ISO-8601 text with +00:00 on SQLite and as UTC timestamp(3) text on PostgreSQL, booleans 1/0 on SQLite.
// Rows come back as the driver returns them: integers may be bigint (SQLite) — callers Number() them.
import "server-only";
import type BetterSqlite3 from "better-sqlite3";
import type pg from "pg";
import type { Sql } from "./sql.ts";

export type DriverConnection = SqliteConnection | PgConnection;

type Connection = {
  /** Rows of a statement (typed by the caller, as with Prisma's $queryRaw<Rows>). */
  query<Rows extends object[]>(statement: Sql): Promise<Rows>;
  /** Runs a statement; resolves with the number of rows it changed. */
  execute(statement: Sql): Promise<number>;
};

export type SqliteConnection = Connection & {
  provider: "sqlite";
  /**
   * Runs one statement (`?` placeholders, fixed SQL from code) once per row of values, prepared once: on
   * SQLite a row costs microseconds this way, less than packing the rows into one JSON parameter. Returns
   * each run's changed-row count and last inserted rowid.
   */
  runEach(text: string, rows: readonly (readonly unknown[])[]): { changes: number; rowid: number }[];
};

export type PgConnection = Connection & {
  provider: "postgresql";
  /** Rows of a statement given as text with `$n` placeholders (fixed SQL from code) and its values. */
  queryText<Rows extends object[]>(text: string, values: readonly unknown[]): Promise<Rows>;
};

type Bindable = string | number | bigint | Buffer | null;

function sqliteValue(value: unknown): Bindable {
  // Most values are strings and numbers: tested first (this runs for every value of every row).
  if (typeof value === "string" || typeof value === "number") return value;
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString().replace("Z", "+00:00");
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof Uint8Array) return Buffer.from(value);
  if (typeof value === "string" || typeof value === "number" || typeof value === "bigint") return value;
  throw new Error(`cannot bind a ${typeof value} value`);
}

function pgValue(value: unknown): unknown {
  // timestamp(3) without time zone: pg would write a Date in the process's local time zone.
  if (value instanceof Date) return value.toISOString().slice(0, -1);
  return value;
}

/** Statements compiled once and reused (the SQL of the bulk paths is fixed; their data travels as parameters). */
const STATEMENT_CACHE_SIZE = 200;

// Rows are typed by the caller, unchecked, exactly as Prisma's $queryRaw<T> types them; this one overload
// says so in one place (better-sqlite3 types rows as unknown, pg as any).
function callerTyped<Rows extends object[]>(rows: unknown[]): Rows;
function callerTyped(rows: unknown[]): unknown[] {
  return rows;
}

export function sqliteConnection(db: BetterSqlite3.Database): SqliteConnection {
  const statements = new Map<string, BetterSqlite3.Statement>();
  const prepare = (text: string): BetterSqlite3.Statement => {
    let statement = statements.get(text);
    if (!statement) {
      if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear();
      statement = db.prepare(text);
      statements.set(text, statement);
    }
    return statement;
  };
  return {
    provider: "sqlite",
    query: <Rows extends object[]>(statement: Sql) => {
      const prepared = prepare(statement.sql);
      const args = statement.values.map(sqliteValue);
      if (!prepared.reader) {
        prepared.run(...args);
        return Promise.resolve(callerTyped<Rows>([]));
      }
      return Promise.resolve(callerTyped<Rows>(prepared.all(...args)));
    },
    execute: (statement: Sql) =>
      Promise.resolve(prepare(statement.sql).run(...statement.values.map(sqliteValue)).changes),
    runEach: (text, rows) => {
      const prepared = prepare(text);
      return rows.map((row) => {
        const result = prepared.run(...row.map(sqliteValue));
        return { changes: result.changes, rowid: Number(result.lastInsertRowid) };
      });
    },
  };
}

export function pgConnection(client: pg.PoolClient): PgConnection {
  return {
    provider: "postgresql",
    query: async <Rows extends object[]>(statement: Sql) =>
      callerTyped<Rows>((await client.query(statement.text, statement.values.map(pgValue))).rows),
    execute: async (statement: Sql) =>
      (await client.query(statement.text, statement.values.map(pgValue))).rowCount ?? 0,
    queryText: async <Rows extends object[]>(text: string, values: readonly unknown[]) =>
      callerTyped<Rows>((await client.query(text, values.map(pgValue))).rows),
  };
}
