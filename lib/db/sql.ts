// Portable raw SQL for repositories' hot paths: Prisma's tagged templates (placeholders rendered per
// provider) plus multi-row INSERT helpers. Prisma's query compiler costs ~0.2–1 ms per createMany row set
// here; a prepared multi-row INSERT costs microseconds per row. Identifiers are the Prisma model/field names.
import "server-only";
import { empty, join, raw, sqltag as sql, type Sql } from "@prisma/client/runtime/client";

export { empty, join, raw, sql, type Sql };

/** Quotes a Prisma model or field name (always a fixed identifier from code, never user input). */
export function ident(name: string): Sql {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`not an identifier: ${name}`);
  return raw(`"${name}"`);
}

export type SqlValue = string | number | boolean | Date | Uint8Array | null;

/**
 * `INSERT INTO "Table" ("a","b") VALUES (…),(…)` for rows sharing `columns`, split into statements that stay
 * under SQLite's 32,766 bound-parameter limit.
 */
export function multiRowInserts(
  table: string,
  columns: readonly string[],
  rows: readonly (readonly SqlValue[])[],
  returning?: readonly string[],
): Sql[] {
  const perStatement = Math.max(1, Math.floor(30_000 / columns.length));
  const statements: Sql[] = [];
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    const values = join(chunk.map((row) => sql`(${join(row.map((value) => sql`${value}`))})`));
    const tail = returning ? sql` RETURNING ${join(returning.map(ident))}` : empty;
    statements.push(sql`INSERT INTO ${ident(table)} (${join(columns.map(ident))}) VALUES ${values}${tail}`);
  }
  return statements;
}
