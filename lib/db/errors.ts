// Recognises database errors that callers handle as part of normal flow.
import "server-only";

/**
 * A unique constraint rejected the write: another writer got there first. Prisma reports it as P2002 for
 * model queries and as P2010 (raw query failed) with the driver's code for raw SQL: 23505 on PostgreSQL,
 * SQLITE_CONSTRAINT_UNIQUE (2067) or "UNIQUE constraint failed" on SQLite.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null || !("code" in error)) return false;
  if (error.code === "P2002") return true;
  if (error.code !== "P2010") return false;
  const meta = "meta" in error && typeof error.meta === "object" && error.meta !== null ? error.meta : {};
  const driverCode = "code" in meta ? String(meta.code) : "";
  const message = "message" in error && typeof error.message === "string" ? error.message : "";
  return driverCode === "23505" || driverCode === "2067" || /UNIQUE constraint failed|duplicate key value violates unique constraint/.test(message);
}
