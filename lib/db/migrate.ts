// Applies the checked-in migrations of prisma/<provider>/migrations through the WASM schema engine.
// Runs only in Node scripts (start, db:migrate, tests), never inside the Next bundle: the engine loads a
// .wasm file from node_modules at run time.
import "server-only";
import { setting } from "../config.ts";
import fs from "node:fs";
import path from "node:path";
import { createAdapterFactory } from "./adapters.ts";
import type { DatabaseTarget, Provider } from "./database-url.ts";
import { PROJECT_ROOT, readMigrationList } from "./migration-files.ts";
import { providerSchemaPath } from "./provider-schemas.ts";
import { openSchemaEngine } from "./schema-engine.ts";
import { readAppliedMigrations } from "./probe.ts";
import Sqlite from "better-sqlite3";

export { PROJECT_ROOT, readMigrationList };
const FILTERS = { externalTables: [], externalEnums: [] };

export type MigrationReport = { provider: Provider; applied: string[]; total: number };

/** A migration could not run because another process holds the database: what to do, in plain words. */
export class MigrationBlocked extends Error {
  constructor(target: DatabaseTarget, pending: string[]) {
    super(
      `${pending.length} migration(s) must run (${pending.join(", ")}), but another process is writing to ${target.provider === "sqlite" ? target.file : "the database"} ` +
        `and did not let go in time. Stop the running Toolscope server (and any import) using this database, then run \`npm run db:migrate\` ` +
        `(or start the new version, which migrates first).`,
    );
    this.name = "MigrationBlocked";
  }
}

async function pendingMigrations(target: DatabaseTarget, names: string[]): Promise<string[] | null> {
  if (target.provider === "sqlite" && (target.file === ":memory:" || !fs.existsSync(target.file))) return null;
  try {
    const applied = await readAppliedMigrations(target);
    return applied === null ? null : names.filter((name) => !applied.includes(name));
  } catch {
    return null; // unknown: let the engine decide (and report)
  }
}

/**
 * Applies every migration not yet recorded in _prisma_migrations; safe to call on every start, and beside
 * a running server: when nothing is pending it only reads (no schema engine, no lock), and when a migration
 * must run while another process holds the database it retries for a while, then throws MigrationBlocked.
 */
export async function applyMigrations(target: DatabaseTarget, root: string = PROJECT_ROOT): Promise<MigrationReport> {
  const migrationsList = readMigrationList(target.provider, root);
  const names = migrationsList.migrationDirectories.map((d) => d.path);
  const total = names.length;
  const pending = await pendingMigrations(target, names);
  if (pending !== null && pending.length === 0) return { provider: target.provider, applied: [], total };
  if (target.provider === "sqlite" && target.file !== ":memory:" && !fs.existsSync(target.file))
    prepareNewSqliteFile(target.file);
  const deadline = Date.now() + setting("TOOLSCOPE_MIGRATE_WAIT_MS");
  for (let delay = 50; ; delay = Math.min(1_000, delay * 2)) {
    const { engine, close } = await openSchemaEngine(
      providerSchemaPath(root, target.provider),
      createAdapterFactory(target, { poolSize: 1, disposePool: true }),
    );
    try {
      const { appliedMigrationNames } = await engine.applyMigrations({ migrationsList, filters: FILTERS });
      return { provider: target.provider, applied: appliedMigrationNames, total };
    } catch (error) {
      // The engine reports a busy SQLite file as "unknown variant SocketTimeout": another process is writing.
      const busy = /SocketTimeout|SQLITE_BUSY|database is locked|lock timeout|55P03/i.test(
        error instanceof Error ? error.message : String(error),
      );
      if (!busy) throw error;
      if (Date.now() > deadline) throw new MigrationBlocked(target, pending ?? names);
    } finally {
      await close();
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

// A new SQLite file starts in WAL mode with incremental auto-vacuum: auto_vacuum must be chosen before the
// first table exists (or costs a full VACUUM later), and retention gives space back through it.
function prepareNewSqliteFile(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Sqlite(file);
  try {
    db.pragma("auto_vacuum = INCREMENTAL");
    db.pragma("journal_mode = WAL");
  } finally {
    db.close();
  }
}

// New migrations are diffed datamodel-to-datamodel: each migration folder keeps the schema it produces
// (schema.prisma beside migration.sql), so no database is introspected. That matters because the WASM
// engine cannot describe a PostgreSQL database through the pg adapter ("Column type 'char' could not be
// deserialized"), which rules out diffing against a shadow database.
export const LOCAL_POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/postgres";
export const SNAPSHOT_FILE = "schema.prisma";

export function latestSnapshot(
  provider: Provider,
  root: string = PROJECT_ROOT,
): { name: string; schema: string } | null {
  const { baseDir, migrationDirectories } = readMigrationList(provider, root);
  const last = migrationDirectories.at(-1);
  if (!last) return null;
  const file = path.join(baseDir, last.path, SNAPSHOT_FILE);
  if (!fs.existsSync(file))
    throw new Error(`${path.relative(root, file)} is missing: every migration keeps the schema it produces`);
  return { name: last.path, schema: fs.readFileSync(file, "utf8") };
}

/** SQL taking a provider's database from schema `from` (null = empty database) to schema `to`. */
export async function diffSchemas(
  provider: Provider,
  from: string | null,
  to: string,
  root: string = PROJECT_ROOT,
): Promise<string> {
  const schemaPath = providerSchemaPath(root, provider);
  // The engine needs a live adapter of the right provider even for a pure datamodel diff (it connects,
  // though it reads nothing): an in-memory SQLite, or any reachable PostgreSQL.
  const target: DatabaseTarget =
    provider === "sqlite"
      ? { provider, file: ":memory:", url: "file::memory:" }
      : { provider, url: setting("MIGRATION_DATABASE_URL") ?? setting("TEST_DATABASE_URL") ?? LOCAL_POSTGRES_URL };
  const { engine, close } = await openSchemaEngine(
    schemaPath,
    createAdapterFactory(target, { poolSize: 1, disposePool: true }),
  );
  try {
    const result = await engine.diff({
      from: from === null ? { tag: "empty" } : { tag: "schemaDatamodel", files: [{ path: schemaPath, content: from }] },
      to: { tag: "schemaDatamodel", files: [{ path: schemaPath, content: to }] },
      script: true,
      exitCode: null,
      filters: FILTERS,
    });
    return result.stdout ?? "";
  } finally {
    await close();
  }
}

export function isEmptyMigration(sql: string): boolean {
  return sql.trim() === "" || /^-- This is an empty migration\.?$/.test(sql.trim());
}
