// Several processes on one SQLite file while a server runs and takes callbacks: db:migrate is a no-op, the
// CLI imports and exports, a second server starts and serves; a migration that must run while another
// process holds the file ends with a plain-language message, never a raw engine error.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Sqlite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveDatabaseTarget } from "../db/database-url.ts";
import { applyMigrations } from "../db/migrate.ts";
import { nodeScriptArgs, PROJECT_DIR } from "../testing/node-command.ts";
import { startCallbackServer } from "../testing/spawn-server.ts";

function run(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, nodeScriptArgs(script, ...args), {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("several processes on one SQLite file", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolscope-multi-"));
  const file = path.join(dir, "multi.db");
  const url = `file:${file}`;
  const servers: ChildProcess[] = [];
  let base = "";
  let sending = true;
  let sent = 0;
  const failures: string[] = [];
  let traffic: Promise<void> = Promise.resolve();

  beforeAll(async () => {
    await applyMigrations(resolveDatabaseTarget(url));
    const started = await startCallbackServer(url);
    servers.push(started.child);
    base = `http://127.0.0.1:${started.port}`;
    // Keep the server writing all along: calls registered and answered in a loop.
    traffic = (async () => {
      for (let i = 0; sending; i++) {
        const post = (route: string, body: unknown) =>
          fetch(`${base}${route}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body),
          });
        const registered = await post("/api/events", {
          type: "tool_call",
          group_id: "busy",
          id: `c${i}`,
          name: "work",
        });
        const answered = await post("/api/callback", {
          type: "tool_result",
          group_id: "busy",
          id: `c${i}`,
          text: `r${i}`,
        });
        if (registered.status !== 201 || answered.status !== 200)
          failures.push(`${i}: ${registered.status} ${answered.status}`);
        sent += 1;
      }
    })();
  }, 120_000);
  afterAll(async () => {
    sending = false;
    await traffic;
    for (const child of servers) child.kill("SIGKILL");
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("db:migrate, import, export and a second server all work beside a busy server", async () => {
    const migrate = await run("scripts/db-migrate.ts", [], { DATABASE_URL: url });
    expect(migrate.stderr).not.toMatch(/SchemaConnectorError|SocketTimeout/);
    expect(migrate.code, migrate.stderr).toBe(0);
    expect(migrate.stdout).toContain("up to date");

    const fixture = path.join(PROJECT_DIR, "lib/formats/fixtures/anthropic-parallel-weather.json");
    const imported = await run("scripts/toolscope.ts", ["import", fixture, "--group-id", "imported-beside", "--json"], {
      DATABASE_URL: url,
    });
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ group_id: "imported-beside", created: true });

    const exported = await run("scripts/toolscope.ts", ["export", "imported-beside"], { DATABASE_URL: url });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout.split("\n").filter(Boolean).length).toBeGreaterThan(1);

    const second = await startCallbackServer(url);
    servers.push(second.child);
    // Healthy beside the busy one (a probe can miss its one-second budget once on a loaded machine: asked again).
    await expect
      .poll(async () => (await fetch(`http://127.0.0.1:${second.port}/api/health`)).status, {
        timeout: 15_000,
        interval: 500,
      })
      .toBe(200);
    const answered = await fetch(`http://127.0.0.1:${second.port}/api/events`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: "tool_call", group_id: "second", id: "c", name: "work" }),
    });
    expect(answered.status).toBe(201);
    expect(sent).toBeGreaterThan(5);
    expect(failures).toEqual([]);
  }, 120_000);

  it("says in plain words what to do when a migration must run while another process holds the file", async () => {
    const olderRoot = fs.mkdtempSync(path.join(os.tmpdir(), "toolscope-older-"));
    fs.cpSync(path.join(PROJECT_DIR, "prisma"), path.join(olderRoot, "prisma"), { recursive: true });
    const migrations = path.join(olderRoot, "prisma/sqlite/migrations");
    const newest =
      fs
        .readdirSync(migrations)
        .filter((name) => /^\d/.test(name))
        .sort()
        .at(-1) ?? "";
    fs.rmSync(path.join(migrations, newest), { recursive: true });
    const olderFile = path.join(dir, "older.db");
    await applyMigrations(resolveDatabaseTarget(`file:${olderFile}`), olderRoot);
    const holder = new Sqlite(olderFile);
    holder.exec("BEGIN IMMEDIATE");
    try {
      const migrate = await run("scripts/db-migrate.ts", [], {
        DATABASE_URL: `file:${olderFile}`,
        TOOLSCOPE_MIGRATE_WAIT_MS: "1500",
      });
      expect(migrate.code).toBe(1);
      expect(migrate.stderr).not.toMatch(/SchemaConnectorError|SocketTimeout|WASM_ERROR|\n\s+at /);
      expect(migrate.stderr).toContain(newest);
      expect(migrate.stderr).toMatch(
        /another process is writing .* Stop the running Toolscope server .*npm run db:migrate/s,
      );
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
      fs.rmSync(olderRoot, { recursive: true, force: true });
    }
    const retried = await run("scripts/db-migrate.ts", [], { DATABASE_URL: `file:${olderFile}` });
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stdout).toContain(`applied ${newest}`);
  }, 120_000);
});
