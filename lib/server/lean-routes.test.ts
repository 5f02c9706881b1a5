// The lean server path over real HTTP: the typed client registers and posts signed results, an oversized
// body is refused before it is read, and events answer like the Next routes.
import http from "node:http";
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolscopeClient, ToolscopeError } from "../client/toolscope-client.ts";
import { resolveDatabaseTarget } from "../db/database-url.ts";
import { applyMigrations } from "../db/migrate.ts";
import { startCallbackServer } from "../testing/spawn-server.ts";

const secret = "whsec_" + Buffer.from("lean-route-test-secret-000000000").toString("base64");
const LIMIT = 64 * 1024;

describe("lean server routes over HTTP", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolscope-lean-"));
  const url = `file:${path.join(dir, "lean.db")}`;
  let server: ChildProcess;
  let base = "";

  beforeAll(async () => {
    await applyMigrations(resolveDatabaseTarget(url));
    const started = await startCallbackServer(url, {
      TOOLSCOPE_CALLBACK_SECRET: secret,
      TOOLSCOPE_MAX_BODY_BYTES: String(LIMIT),
    });
    server = started.child;
    base = `http://127.0.0.1:${started.port}`;
  });
  afterAll(() => {
    server?.kill("SIGKILL");
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("registers a call and stores its signed result through the typed client", async () => {
    const client = createToolscopeClient({ baseUrl: base, secret });
    const registered = await client.registerCall({
      group_id: "lean",
      id: "call_1",
      name: "deploy",
      arguments: { env: "prod" },
      call_id: "toolu_1",
    });
    expect(registered).toMatchObject({ status: "recorded", id: "call_1" });
    const stored = await client.postResult({ group_id: "lean", id: "call_1", call_id: "toolu_1", text: "Deployed" });
    expect(stored).toMatchObject({ status: "accepted", ordinal: 0, late: false });
    const unsigned = createToolscopeClient({ baseUrl: base });
    await expect(
      unsigned.postResult({ group_id: "lean", id: "call_1", call_id: "toolu_1", text: "Deployed" }),
    ).rejects.toMatchObject({ status: 401 });
    const error = await client.postResult({ group_id: "lean", id: "nope", text: "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolscopeError);
    expect((error as ToolscopeError).code).toBe("unknown_call");
  });

  it("refuses an oversized body with 413 without reading it all", async () => {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(
        `${base}/api/callback`,
        { method: "POST", headers: { "content-type": "application/json", "content-length": String(50 * 1024 * 1024) } },
        (response) => {
          let text = "";
          response.on("data", (chunk: Buffer) => (text += chunk.toString()));
          response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
        },
      );
      request.on("error", reject);
      // Send only the first 128 KiB of the announced 50 MiB: the answer must come anyway.
      request.write(Buffer.alloc(128 * 1024, "x"));
    });
    expect(status).toBe(413);
    expect(JSON.parse(body)).toMatchObject({ error: { code: "too_large" } });
  });

  it("answers events on the lean path with the same shapes as the Next route", async () => {
    const post = (body: string, type = "application/json") =>
      fetch(`${base}/api/events`, { method: "POST", headers: { "content-type": type }, body });
    expect((await post("{}", "text/plain")).status).toBe(415);
    expect((await post("{")).status).toBe(400);
    const batch = await post(JSON.stringify([{ type: "teleport", group_id: "lean" }]));
    expect(batch.status).toBe(207);
    expect(await batch.json()).toMatchObject({
      results: [{ index: 0, status: 422, body: { error: { code: "invalid", path: "type" } } }],
    });
  });
});
