// Multi-row writes and long id lists on a transaction's driver connection (driver.ts), for the bulk write paths
// (OTLP ingest, callback ingest). SQLite: one prepared INSERT run per row (microseconds a row, no statement
// compiled per VALUES list). PostgreSQL: multi-row VALUES with bound values (the driver sends them as they are;
// Prisma's raw path serialized, re-parsed and mapped each one, which is why rows once travelled as one JSON
// parameter). Long id lists for look-ups still go as one JSON parameter (json_each /
// jsonb_array_elements_text) instead of hundreds of placeholders.
import "server-only";
import type { Provider } from "./database-url.ts";
import type { PgConnection, SqliteConnection } from "./driver.ts";
import { sql, type Sql, type SqlValue } from "./sql.ts";

/** `(SELECT … )` of a list of strings passed as one JSON parameter: for `x IN ${jsonList(…)}` with long lists. */
export function jsonList(provider: Provider, items: readonly string[]): Sql {
  const json = JSON.stringify(items);
  if (provider === "sqlite") return sql`(SELECT value FROM json_each(${json}))`;
  return sql`(SELECT jsonb_array_elements_text(${json}::jsonb))`;
}

/**
 * SQLite on its driver connection: `INSERT INTO "table" (columns) VALUES (?, …) <tail>` prepared once and run
 * per row, in array order — cheaper there than packing rows into JSON (no JSON text built, escaped and parsed
 * again). Returns each row's rowid, or null for a row the tail's ON CONFLICT skipped.
 */
export function insertEach(tx: SqliteConnection, table: string, columns: readonly string[], rows: readonly (readonly SqlValue[])[], tail: string): (number | null)[] {
  const text = `INSERT INTO "${table}" (${columns.map((column) => `"${column}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")}) ${tail}`;
  return tx.runEach(text, rows).map((run) => (run.changes > 0 ? run.rowid : null));
}

/** Bound values per PostgreSQL statement (the protocol allows 65,535). */
const PG_VALUES_PER_STATEMENT = 30_000;

/**
 * PostgreSQL on its driver connection: `INSERT INTO "table" (columns) VALUES ($1, …), (…) <tail>` with the
 * rows as bound values (typed by their target columns), in statements of up to 30,000 values; rows keep
 * array order (serial ids ascend in it). Returns the RETURNING rows of the tail, if any.
 */
export async function insertValues<Rows extends object[]>(tx: PgConnection, table: string, columns: readonly string[], rows: readonly (readonly SqlValue[])[], tail: string): Promise<Rows[number][]> {
  const names = columns.map((column) => `"${column}"`).join(", ");
  const perStatement = Math.max(1, Math.floor(PG_VALUES_PER_STATEMENT / columns.length));
  const out: Rows[number][] = [];
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    const params: SqlValue[] = [];
    const tuples = chunk.map((row) => `(${row.map((value) => `$${params.push(value)}`).join(", ")})`);
    out.push(...(await tx.queryText<Rows>(`INSERT INTO "${table}" (${names}) VALUES ${tuples.join(", ")} ${tail}`, params)));
  }
  return out;
}
