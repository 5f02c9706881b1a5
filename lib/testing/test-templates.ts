// Migrated template databases, made once per test run by vitest's global set-up: every test database is then a
// copy (SQLite: the migrated file; PostgreSQL: CREATE DATABASE … TEMPLATE) instead of a fresh migration through the
// WASM schema engine (~1 s per database against ~0.05 s per copy). The workers find them through two variables.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { resolveDatabaseTarget } from "../db/database-url.ts";
import { applyMigrations } from "../db/migrate.ts";

export const SQLITE_TEMPLATE_VAR = "TOOLSCOPE_TEST_SQLITE_TEMPLATE";
export const PG_TEMPLATE_VAR = "TOOLSCOPE_TEST_PG_TEMPLATE";

export function databaseUrlFor(serverUrl: string, name: string): string {
  const parsed = new URL(serverUrl);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function onServer<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A migrated SQLite file (WAL checkpointed into it by the engine's close), in a directory of its own. */
export async function makeSqliteTemplate(): Promise<{ file: string; remove(): void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolscope-template-"));
  const file = path.join(dir, "template.db");
  await applyMigrations(resolveDatabaseTarget(`file:${file}`));
  return { file, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** A migrated PostgreSQL database on the server, with no connection left open to it (so it can be cloned). */
export async function makePostgresTemplate(serverUrl: string): Promise<{ name: string; remove(): Promise<void> }> {
  const name = `toolscope_template_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await onServer(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  await applyMigrations(resolveDatabaseTarget(databaseUrlFor(serverUrl, name)));
  return {
    name,
    remove: async () => {
      await onServer(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

/** Copies the run's SQLite template to `file` (false when this run has none). */
export function copySqliteTemplate(file: string): boolean {
  const template = process.env[SQLITE_TEMPLATE_VAR];
  if (!template || !fs.existsSync(template)) return false;
  fs.copyFileSync(template, file);
  return true;
}

/**
 * Creates database `name` on the server, cloned from the run's template when there is one (true), else empty
 * (false). Concurrent clones of one template are allowed; a connection to the template itself is not (55006),
 * which only a stray client could cause: retried briefly.
 */
export async function createPostgresDatabase(serverUrl: string, name: string): Promise<boolean> {
  const template = process.env[PG_TEMPLATE_VAR];
  return onServer(serverUrl, async (client) => {
    if (!template) {
      await client.query(`CREATE DATABASE "${name}"`);
      return false;
    }
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        return true;
      } catch (error) {
        const code = error instanceof Error && "code" in error ? error.code : null;
        if (code !== "55006" || attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  });
}
