// The run's template databases: each test database is a full copy of the migrated schema, and migrating a
// PostgreSQL database leaves no connection to it (a connected template cannot be cloned).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { resolveDatabaseTarget } from "../db/database-url.ts";
import { applyMigrations, readMigrationList } from "../db/migrate.ts";
import { readAppliedMigrations } from "../db/probe.ts";
import { postgresTestUrl, testBackends } from "./test-databases.ts";
import { copySqliteTemplate, createPostgresDatabase, databaseUrlFor } from "./test-templates.ts";

describe.each(testBackends())("test database on $provider", (backend) => {
  it("starts with every migration applied", async () => {
    const opened = await backend.open();
    try {
      const expected = readMigrationList(backend.provider).migrationDirectories.map((d) => d.path);
      expect(await readAppliedMigrations(resolveDatabaseTarget(opened.url))).toEqual(expected);
    } finally {
      await opened.cleanup();
    }
  });
});

describe("templates", () => {
  it("copies the migrated SQLite template", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolscope-copy-"));
    try {
      expect(copySqliteTemplate(path.join(dir, "copy.db"))).toBe(true);
      expect(fs.statSync(path.join(dir, "copy.db")).size).toBeGreaterThan(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  const server = postgresTestUrl();
  it.runIf(server)("migrating a PostgreSQL database leaves no connection to it", async () => {
    const url = server ?? "";
    const name = `toolscope_conn_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE "${name}"`);
      const report = await applyMigrations(resolveDatabaseTarget(databaseUrlFor(url, name)));
      expect(report.applied.length).toBe(report.total);
      const { rows } = await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1", [name]);
      expect(rows[0].n).toBe(0);
      // and so it serves as a template
      const clone = `${name}_clone`;
      await createPostgresDatabase(url, clone);
      await admin.query(`DROP DATABASE "${clone}" WITH (FORCE)`);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    }
  });
});
