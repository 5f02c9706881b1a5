// Builds the Prisma driver-adapter factory for a database target: better-sqlite3 for files, pg for PostgreSQL.
import "server-only";
import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type { DatabaseTarget } from "./database-url.ts";

export const SQLITE_BUSY_TIMEOUT_MS = 5_000;

export function createAdapterFactory(target: DatabaseTarget, options: { poolSize?: number } = {}) {
  if (target.provider === "sqlite") {
    if (target.file !== ":memory:") fs.mkdirSync(path.dirname(target.file), { recursive: true });
    return new PrismaBetterSqlite3({ url: target.file, timeout: SQLITE_BUSY_TIMEOUT_MS });
  }
  return new PrismaPg({ connectionString: target.url, max: options.poolSize ?? 10 });
}

// Prisma's better-sqlite3 adapter opens one connection and leaves SQLite's defaults (rollback journal,
// foreign keys off). WAL + synchronous=FULL gives durable commits at ~20x the default's rate.
export const SQLITE_PRAGMAS = [
  "PRAGMA journal_mode = WAL",
  "PRAGMA synchronous = FULL",
  "PRAGMA foreign_keys = ON",
  `PRAGMA busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`,
] as const;
