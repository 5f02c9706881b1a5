// Multi-row writes and long id lists on a transaction's driver connection (driver.ts), for the bulk write paths
// (OTLP ingest, callback ingest). SQLite: one prepared INSERT run per row (microseconds a row, no statement
// compiled per VALUES list). PostgreSQL: one array parameter per column (unnest), or a multi-row VALUES list for
// rows of long texts (see insertValues); the driver sends the values as they are (Prisma's raw path serialized,
// re-parsed and mapped each one, which is why rows once travelled as one JSON parameter). Long id lists for
// look-ups still go as one JSON parameter (json_each / jsonb_array_elements_text) instead of hundreds of placeholders.
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
export function insertEach(
  tx: SqliteConnection,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly SqlValue[])[],
  tail: string,
): (number | null)[] {
  const text = `INSERT INTO "${table}" (${columns.map((column) => `"${column}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")}) ${tail}`;
  return tx.runEach(text, rows).map((run) => (run.changes > 0 ? run.rowid : null));
}

/** Rows per statement when the rows travel as one array parameter per column (bounds only memory). */
const PG_ROWS_PER_STATEMENT = 5_000;
/** Bound values per statement when the rows travel as a VALUES list (the protocol allows 65,535). */
const PG_VALUES_PER_STATEMENT = 30_000;
/**
 * Rows whose strings average more characters than this go as a VALUES list. Inside an array parameter every `"`
 * and `\` is escaped (by pg) and parsed back (by PostgreSQL): for span-sized JSON texts that cost more than the
 * VALUES list saves (measured, 1,600 rows of 364-character JSON: 30 µs a row as arrays, 19–21 as VALUES).
 */
const ARRAY_STRING_CHARS_PER_ROW = 768;

/** Each table's column types as PostgreSQL spells them (format_type), read once per process: migrations run before a server starts. */
const columnTypes = new Map<string, Promise<Map<string, string>>>();

function typesOf(tx: PgConnection, table: string): Promise<Map<string, string>> {
  let types = columnTypes.get(table);
  if (!types) {
    types = tx
      .queryText<{ name: string; type: string }[]>(
        `SELECT a.attname AS "name", format_type(a.atttypid, a.atttypmod) AS "type" FROM pg_attribute a
          WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped`,
        [`"${table}"`],
      )
      .then((rows) => new Map(rows.map((row) => [row.name, row.type])));
    // A failed look-up (the transaction was aborted, the connection dropped) is asked again next time.
    types.catch(() => columnTypes.delete(table));
    columnTypes.set(table, types);
  }
  return types;
}

/** A value as an element of a PostgreSQL array parameter (pg writes a Date inside an array in local time). */
function arrayElement(value: SqlValue): SqlValue {
  return value instanceof Date ? value.toISOString().slice(0, -1) : value;
}

function stringCharsPerRow(rows: readonly (readonly SqlValue[])[]): number {
  let chars = 0;
  for (const row of rows) for (const value of row) if (typeof value === "string") chars += value.length;
  return chars / Math.max(1, rows.length);
}

/**
 * PostgreSQL on its driver connection: inserts rows in array order (serial ids ascend in it) and returns the
 * RETURNING rows of the tail, if any. Rows of short values go as one array parameter per column, typed as its
 * column: `INSERT INTO "table" (columns) (SELECT … FROM unnest($1::type[], …) WITH ORDINALITY … ORDER BY ord)
 * <tail>`. PostgreSQL parses and plans a multi-row VALUES list value by value: for a few thousand Event-, call-
 * and result-shaped rows that took ~40 % longer (measured: 17–19 µs a row against 10–12, 1,600 rows a statement).
 * Rows of long texts (spans, trace states) go as `VALUES ($1, …), (…)` instead (ARRAY_STRING_CHARS_PER_ROW).
 */
export async function insertValues<Rows extends object[]>(
  tx: PgConnection,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly SqlValue[])[],
  tail: string,
): Promise<Rows[number][]> {
  if (rows.length === 0) return [];
  const names = columns.map((column) => `"${column}"`).join(", ");
  const out: Rows[number][] = [];
  if (stringCharsPerRow(rows) > ARRAY_STRING_CHARS_PER_ROW) {
    const perStatement = Math.max(1, Math.floor(PG_VALUES_PER_STATEMENT / columns.length));
    for (let start = 0; start < rows.length; start += perStatement) {
      const params: SqlValue[] = [];
      const tuples = rows
        .slice(start, start + perStatement)
        .map((row) => `(${row.map((value) => `$${params.push(value)}`).join(", ")})`);
      out.push(
        ...(await tx.queryText<Rows>(`INSERT INTO "${table}" (${names}) VALUES ${tuples.join(", ")} ${tail}`, params)),
      );
    }
    return out;
  }
  const types = await typesOf(tx, table);
  const arrays = columns.map((column, index) => {
    const type = types.get(column);
    if (type === undefined) throw new Error(`table "${table}" has no column "${column}"`);
    return `$${index + 1}::${type}[]`;
  });
  const aliases = columns.map((_, index) => `c${index}`);
  // Parenthesised, so that an ON CONFLICT tail cannot be read as part of the SELECT's FROM clause.
  const select = `(SELECT ${aliases.join(", ")} FROM unnest(${arrays.join(", ")}) WITH ORDINALITY AS u(${aliases.join(", ")}, ord) ORDER BY ord)`;
  for (let start = 0; start < rows.length; start += PG_ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + PG_ROWS_PER_STATEMENT);
    const params = columns.map((_, index) => chunk.map((row) => arrayElement(row[index] ?? null)));
    out.push(...(await tx.queryText<Rows>(`INSERT INTO "${table}" (${names}) ${select} ${tail}`, params)));
  }
  return out;
}
