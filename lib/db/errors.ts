// Recognises database errors that callers handle as part of normal flow: unique-key races, and the
// "busy / unreachable / out of connections" family that means "try again shortly" (503 + Retry-After).
import "server-only";
import { AppError } from "../http/app-error.ts";

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
  return (
    driverCode === "23505" ||
    driverCode === "2067" ||
    /UNIQUE constraint failed|duplicate key value violates unique constraint/.test(message)
  );
}

// Prisma codes: P1001 can't reach, P1002 reached but timed out, P1008 operation timed out (SQLITE_BUSY
// arrives as this), P1017 server closed the connection, P2024 pool timeout, P2028 transaction API error
// (could not start / expired), P2034 write conflict or deadlock.
const TRANSIENT_PRISMA = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2028", "P2034"]);
// PostgreSQL SQLSTATEs: connection exceptions (08…), serialization/deadlock, lock not available, query
// cancelled (statement/lock timeout), too many connections, shutting down / starting up / not accepting.
const TRANSIENT_SQLSTATE = /^(08\d\d\d|40001|40P01|55P03|57014|53300|53400|57P01|57P02|57P03)$/;
const TRANSIENT_TEXT =
  /SQLITE_BUSY|SQLITE_LOCKED|database is locked|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|Connection terminated|connection timeout|timeout exceeded when trying to connect|Can't reach database|not currently accepting connections|Transaction already closed|Unable to start a transaction|Client has encountered a connection error/i;

/** Every code- and message-like string in an error, its `meta` and its `cause` chain (bounded depth). */
function errorFacts(error: unknown, depth = 0, out: string[] = []): string[] {
  if (depth > 5 || typeof error !== "object" || error === null) return out;
  for (const key of ["code", "originalCode", "kind", "message", "originalMessage"]) {
    const value = (error as Record<string, unknown>)[key];
    if (typeof value === "string") out.push(value);
  }
  const record = error as Record<string, unknown>;
  for (const key of ["meta", "cause", "driverAdapterError"]) errorFacts(record[key], depth + 1, out);
  return out;
}

/** Busy, locked, timed out, out of connections, unreachable: nothing wrong with the request, retry later. */
export function isTransientDatabaseError(error: unknown): boolean {
  if (error instanceof AppError) return false;
  const facts = errorFacts(error);
  if (facts.length === 0) return false;
  const [code] = facts;
  if (code && TRANSIENT_PRISMA.has(code)) return true;
  return facts.some((fact) => TRANSIENT_SQLSTATE.test(fact) || fact === "SocketTimeout" || TRANSIENT_TEXT.test(fact));
}

/** The 503 a request answers when the database is busy or unreachable. */
export function databaseUnavailable(retryAfterSeconds = 1, detail = "The database is busy or unreachable"): AppError {
  return new AppError("unavailable", `${detail}; nothing was changed. Retry after ${retryAfterSeconds} s.`, {
    retryAfterSeconds,
  });
}

/** `error` as the AppError it should answer: transient database failures become 503, anything else is unchanged. */
export function mapDatabaseError(error: unknown): unknown {
  return isTransientDatabaseError(error) ? databaseUnavailable() : error;
}
