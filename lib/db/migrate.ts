// Applies the checked-in migrations of prisma/<provider>/migrations through the WASM schema engine.
// Runs only in Node scripts (start, db:migrate, tests), never inside the Next bundle: the engine loads a
// .wasm file from node_modules at run time.
import "server-only";
import fs from "node:fs";
import path from "node:path";
import { createAdapterFactory } from "./adapters.ts";
import type { DatabaseTarget, Provider } from "./database-url.ts";
import { PROJECT_ROOT, readMigrationList } from "./migration-files.ts";
import { providerSchemaPath } from "./provider-schemas.ts";
import { openSchemaEngine } from "./schema-engine.ts";

export { PROJECT_ROOT, readMigrationList };
const FILTERS = { externalTables: [], externalEnums: [] };

export type MigrationReport = { provider: Provider; applied: string[]; total: number };

/** Applies every migration not yet recorded in _prisma_migrations; safe to call on every start. */
export async function applyMigrations(target: DatabaseTarget, root: string = PROJECT_ROOT): Promise<MigrationReport> {
  const { engine, close } = await openSchemaEngine(providerSchemaPath(root, target.provider), createAdapterFactory(target, { poolSize: 1 }));
  try {
    const migrationsList = readMigrationList(target.provider, root);
    const { appliedMigrationNames } = await engine.applyMigrations({ migrationsList, filters: FILTERS });
    return { provider: target.provider, applied: appliedMigrationNames, total: migrationsList.migrationDirectories.length };
  } finally {
    await close();
  }
}

// New migrations are diffed datamodel-to-datamodel: each migration folder keeps the schema it produces
// (schema.prisma beside migration.sql), so no database is introspected. That matters because the WASM
// engine cannot describe a PostgreSQL database through the pg adapter ("Column type 'char' could not be
// deserialized"), which rules out diffing against a shadow database.
export const LOCAL_POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/postgres";
export const SNAPSHOT_FILE = "schema.prisma";

export function latestSnapshot(provider: Provider, root: string = PROJECT_ROOT): { name: string; schema: string } | null {
  const { baseDir, migrationDirectories } = readMigrationList(provider, root);
  const last = migrationDirectories.at(-1);
  if (!last) return null;
  const file = path.join(baseDir, last.path, SNAPSHOT_FILE);
  if (!fs.existsSync(file)) throw new Error(`${path.relative(root, file)} is missing: every migration keeps the schema it produces`);
  return { name: last.path, schema: fs.readFileSync(file, "utf8") };
}

/** SQL taking a provider's database from schema `from` (null = empty database) to schema `to`. */
export async function diffSchemas(provider: Provider, from: string | null, to: string, root: string = PROJECT_ROOT): Promise<string> {
  const schemaPath = providerSchemaPath(root, provider);
  // The engine needs a live adapter of the right provider even for a pure datamodel diff (it connects,
  // though it reads nothing): an in-memory SQLite, or any reachable PostgreSQL.
  const target: DatabaseTarget =
    provider === "sqlite"
      ? { provider, file: ":memory:", url: "file::memory:" }
      : { provider, url: process.env.MIGRATION_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? LOCAL_POSTGRES_URL };
  const { engine, close } = await openSchemaEngine(schemaPath, createAdapterFactory(target, { poolSize: 1 }));
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
