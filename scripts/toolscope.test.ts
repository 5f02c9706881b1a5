// The toolscope CLI as a user runs it (a child process): import into a database, export, re-deliver to a
// recording HTTP server (order, exact bytes, signatures, spacing), and usage errors with their exit codes.
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_MAX_BODY_BYTES, resetConfig } from "../lib/config.ts";
import { recordEvents } from "../lib/events/service.ts";
import { acceptToolResult } from "../lib/ingest/service.ts";
import { verifySignature } from "../lib/ingest/webhook-signature.ts";
import { rawDelivery, toolResultMessage } from "../lib/testing/factories.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../lib/testing/test-databases.ts";
import { exportThreadText } from "../lib/traces/service.ts";
import { nodeScriptArgs } from "../lib/testing/node-command.ts";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const ROOT = path.resolve(import.meta.dirname, "..");

type Run = { code: number | null; stdout: string; stderr: string };

function runCli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, nodeScriptArgs("scripts/toolscope.ts", ...args), {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

type Received = { body: Buffer; headers: http.IncomingHttpHeaders; at: number };

describe("toolscope CLI", () => {
  const [sqlite] = testBackends();
  let t: TestDatabase;
  let dir: string;
  let exportFile: string;
  let server: http.Server;
  let serverUrl: string;
  const received: Received[] = [];
  const group = `cli-${Date.now().toString(36)}`;

  beforeAll(async () => {
    if (sqlite === undefined) throw new Error("no SQLite backend");
    t = await useTestDatabase(sqlite);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolscope-cli-"));
    resetConfig({ maxBodyBytes: DEFAULT_MAX_BODY_BYTES, callbackSecrets: [] });
    await recordEvents(
      [
        { type: "tool_call", group_id: group, id: "c1", name: "search", arguments: '{"q":"a"}' },
        { type: "tool_call", group_id: group, id: "c2", name: "search", arguments: '{"q":"b"}' },
      ],
      { database: t.database },
    );
    for (const message of [
      { id: "c1", text: "first" },
      { id: "c1", text: "first" },
      { id: "c2", text: "second \u0000 with a NUL" },
      { id: "c_unknown", text: "nobody asked" },
    ]) {
      await acceptToolResult(rawDelivery(toolResultMessage({ group_id: group, ...message })));
    }
    exportFile = path.join(dir, "thread.toolscope.jsonl");
    fs.writeFileSync(exportFile, await exportThreadText({ groupId: group, database: t.database }));

    server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        received.push({ body: Buffer.concat(chunks), headers: request.headers, at: Date.now() });
        response.writeHead(received.length === 4 ? 404 : 200, { "content-type": "application/json" });
        response.end(JSON.stringify({ seen: received.length }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    serverUrl = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/api/callback`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await t.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("re-delivers the recorded deliveries in order, byte for byte, signed, and prints each answer", async () => {
    const run = await runCli(["redeliver", exportFile, "--to", serverUrl, "--secret", SECRET]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const recorded = await t.database.client.delivery.findMany({
      where: { groupId: group },
      orderBy: { id: "asc" },
      select: { rawBody: true },
    });
    expect(received.map((request) => request.body.toString("base64"))).toEqual(
      recorded.map((row) => Buffer.from(row.rawBody ?? new Uint8Array()).toString("base64")),
    );
    for (const request of received) {
      const check = verifySignature({
        secrets: [SECRET],
        headers: {
          id: String(request.headers["webhook-id"]),
          timestamp: String(request.headers["webhook-timestamp"]),
          signature: String(request.headers["webhook-signature"]),
        },
        body: request.body,
      });
      expect(check.ok).toBe(true);
      expect(request.headers["content-type"]).toBe("application/json");
    }
    const lines = run.stdout.trim().split("\n");
    expect(lines[0]).toBe(`re-delivering 4 recorded deliveries of ${group} to ${serverUrl}`);
    expect(lines.slice(1).map((line) => line.replace(/^\[(\d)\/4\] \S+ (was .*?) → (.*)$/, "$1 $2 → $3"))).toEqual([
      '1 was 200 accepted → 200 {"seen":1}',
      '2 was 200 duplicate → 200 {"seen":2}',
      '3 was 200 accepted → 200 {"seen":3}',
      '4 was 404 unknown_call → 404 {"seen":4}',
    ]);
  });

  it("keeps the original spacing with --realtime", async () => {
    // The same export with its deliveries recorded 400 ms apart.
    const base = Date.parse("2026-11-22T10:00:00.000Z");
    let index = 0;
    const spaced = fs
      .readFileSync(exportFile, "utf8")
      .split("\n")
      .map((line) =>
        line.startsWith('{"kind":"delivery"')
          ? line.replace(/"received_at":"[^"]+"/, `"received_at":"${new Date(base + 400 * index++).toISOString()}"`)
          : line,
      )
      .join("\n");
    const spacedFile = path.join(dir, "spaced.jsonl");
    fs.writeFileSync(spacedFile, spaced);
    received.length = 0;
    const run = await runCli(["redeliver", spacedFile, "--to", serverUrl, "--realtime"]);
    expect(run.code).toBe(0);
    expect(received).toHaveLength(4);
    for (let i = 1; i < received.length; i += 1)
      expect((received[i]?.at ?? 0) - (received[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(350);
    expect(received[0]?.headers["webhook-signature"]).toBeUndefined();
  });

  it("imports a transcript into the database DATABASE_URL names, and exports it back", async () => {
    const databaseUrl = `file:${path.join(dir, "cli.db")}`;
    const imported = await runCli(
      ["import", path.join(ROOT, "lib/formats/fixtures/gemini-no-ids.json"), "--group-id", "cli-gemini"],
      { DATABASE_URL: databaseUrl },
    );
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain("imported cli-gemini (gemini): 11 events, 3 calls, 3 results, 2 issues");
    expect(imported.stderr).toContain("write");
    const again = await runCli(["import", exportFile, "--json"], { DATABASE_URL: databaseUrl });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      group_id: group,
      format: "toolscope",
      created: true,
      counts: { deliveries: 4 },
    });
    const exported = await runCli(["export", group], { DATABASE_URL: databaseUrl });
    expect(exported.code).toBe(0);
    expect(exported.stdout).toBe(fs.readFileSync(exportFile, "utf8"));
  });

  it("exits 1 with the precise error for rejected input, and 2 for usage errors", async () => {
    const bad = path.join(dir, "bad.json");
    fs.writeFileSync(bad, '{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":7}]}]}');
    const rejected = await runCli(["import", bad, "--format", "anthropic"], {
      DATABASE_URL: `file:${path.join(dir, "bad.db")}`,
    });
    expect(rejected.code).toBe(1);
    expect(rejected.stderr).toContain(
      "toolscope: invalid: messages[0].content[0].tool_use_id: expected a string, got number",
    );

    const usage = await runCli(["redeliver", exportFile]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("redeliver needs --to <callback-url>");
    expect((await runCli([])).code).toBe(2);
    expect((await runCli(["import", bad, "--format", "klingon"])).stderr).toContain("--format must be one of");
    const unreachable = await runCli(["redeliver", exportFile, "--to", "http://127.0.0.1:9/api/callback"]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stdout).toContain("→ no answer");
  });
});
