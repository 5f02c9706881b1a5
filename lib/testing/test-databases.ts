// Real databases for integration tests: a fresh SQLite file always, and a fresh PostgreSQL database when
// TEST_DATABASE_URL names a PostgreSQL server. Same tests, both backends; nothing is mocked.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openDatabase, setDatabase, type Database } from "../db/client.ts";
import { resolveDatabaseTarget, type Provider } from "../db/database-url.ts";
import { applyMigrations } from "../db/migrate.ts";
import { copySqliteTemplate, createPostgresDatabase, databaseUrlFor } from "./test-templates.ts";

export type TestBackend = { provider: Provider; open(): Promise<TestDatabase> };
export type TestDatabase = { database: Database; url: string; cleanup(): Promise<void> };

export function postgresTestUrl(): string | null {
  const url = process.env.TEST_DATABASE_URL?.trim();
  return url && /^postgres(ql)?:\/\//.test(url) ? url : null;
}

async function openSqlite(): Promise<TestDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolscope-test-"));
  const url = `file:${path.join(dir, "test.db")}`;
  const target = resolveDatabaseTarget(url);
  // A copy of the run's migrated template (vitest global set-up); applyMigrations then only reads that nothing
  // is pending. Without a template (a test run outside vitest's set-up) it migrates the new file.
  copySqliteTemplate(path.join(dir, "test.db"));
  await applyMigrations(target);
  const database = await openDatabase(target);
  return {
    database,
    url,
    cleanup: async () => {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function openPostgres(serverUrl: string): Promise<TestDatabase> {
  const name = `toolscope_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await createPostgresDatabase(serverUrl, name);
  const url = databaseUrlFor(serverUrl, name);
  const target = resolveDatabaseTarget(url);
  await applyMigrations(target);
  const database = await openDatabase(target, { poolSize: 5 });
  return {
    database,
    url,
    cleanup: async () => {
      await database.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

/** The backends this run tests: SQLite always; PostgreSQL when TEST_DATABASE_URL is set. */
export function testBackends(): TestBackend[] {
  const backends: TestBackend[] = [{ provider: "sqlite", open: openSqlite }];
  const pgUrl = postgresTestUrl();
  if (pgUrl) backends.push({ provider: "postgresql", open: () => openPostgres(pgUrl) });
  return backends;
}

/** Opens a backend and makes it the process database that services use. */
export async function useTestDatabase(backend: TestBackend): Promise<TestDatabase> {
  const opened = await backend.open();
  setDatabase(opened.database);
  return opened;
}
