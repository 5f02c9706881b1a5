// Untrusted senders cannot fill disk or memory (issue 9 point 5), over real HTTP against a server process:
// refused deliveries keep a bounded prefix with the full size and sha256; a per-process cap on request
// bytes in flight answers 503 + Retry-After; refusals are rate-limited per caller (429 + Retry-After).
import type { ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import Sqlite from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { resolveDatabaseTarget } from "../db/database-url.ts";
import { applyMigrations } from "../db/migrate.ts";
import { startCallbackServer } from "../testing/spawn-server.ts";

const secret = "whsec_" + Buffer.from("untrusted-sender-test-secret-0000").toString("base64");
const MB = 1024 * 1024;

async function server(env: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolscope-untrusted-"));
  const file = path.join(dir, "u.db");
  await applyMigrations(resolveDatabaseTarget(`file:${file}`));
  const { child, port } = await startCallbackServer(`file:${file}`, { TOOLSCOPE_CALLBACK_SECRET: secret, ...env });
  return { dir, file, child, base: `http://127.0.0.1:${port}` };
}

function databaseBytes(file: string): number {
  return [file, `${file}-wal`].reduce((sum, f) => sum + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0);
}

const post = (base: string, body: Buffer | string) =>
  fetch(`${base}/api/callback`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : new Uint8Array(body),
  });

/** One upload with Node's own client (what the OTLP exporters use): its status, or the error it got instead. */
function nodeUpload(base: string, body: Buffer): Promise<number | string> {
  return new Promise((resolve) => {
    const request = http.request(`${base}/api/callback`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": body.length },
    });
    request.on("response", (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    // Written in pieces, as a client streams a request it serialised: the 413 comes long before the last one.
    void (async () => {
      for (let offset = 0; offset < body.length && !request.destroyed; offset += 256 * 1024)
        if (!request.write(body.subarray(offset, offset + 256 * 1024)))
          await new Promise((next) => request.once("drain", next));
      request.end();
    })();
  });
}

describe("untrusted senders", () => {
  const started: { dir: string; child: ChildProcess }[] = [];
  afterAll(() => {
    for (const s of started) {
      s.child.kill("SIGKILL");
      fs.rmSync(s.dir, { recursive: true, force: true });
    }
  });

  it("11 unsigned 15 MB callbacks to a signed server are refused and do not grow the database by their size", async () => {
    const s = await server({});
    started.push(s);
    const body = Buffer.from(
      JSON.stringify({ type: "tool_result", group_id: "g", id: "c", text: "x".repeat(15 * MB) }),
    );
    const before = databaseBytes(s.file);
    for (let i = 0; i < 11; i++) {
      const response = await post(s.base, body);
      expect(response.status).toBe(401);
    }
    const grown = databaseBytes(s.file) - before;
    expect(grown, `grew by ${grown} bytes`).toBeLessThan(11 * 64 * 1024 * 2 + 1 * MB);
    const db = new Sqlite(s.file, { readonly: true });
    try {
      const rows = db
        .prepare(
          `SELECT outcome, httpStatus, bodyBytes, bodySha256, length(rawBody) AS kept, rawBodyTruncated FROM "Delivery"`,
        )
        .all();
      expect(rows).toHaveLength(11);
      const sha = createHash("sha256").update(body).digest("hex");
      for (const row of rows)
        expect(row).toEqual({
          outcome: "unauthorized",
          httpStatus: 401,
          bodyBytes: body.length,
          bodySha256: sha,
          kept: 64 * 1024,
          rawBodyTruncated: 1,
        });
    } finally {
      db.close();
    }
  }, 120_000);

  it("a 17 MiB upload gets its 413 through Node's client every time (the rest of the body is read, not reset)", async () => {
    const s = await server({ TOOLSCOPE_CALLBACK_SECRET: "" });
    started.push(s);
    const body = Buffer.from(
      JSON.stringify({ type: "tool_result", group_id: "g", id: "c", text: "x".repeat(17 * MB) }),
    );
    const outcomes: (number | string)[] = [];
    for (let i = 0; i < 10; i++) outcomes.push(await nodeUpload(s.base, body));
    expect(outcomes).toEqual(Array.from({ length: 10 }, () => 413));
  }, 120_000);

  it("answers 503 + Retry-After when request bytes in flight pass the cap", async () => {
    const s = await server({ TOOLSCOPE_MAX_INFLIGHT_BYTES: String(20 * MB) });
    started.push(s);
    const body = Buffer.alloc(12 * MB, "x");
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        post(s.base, body).then(async (r) => ({
          status: r.status,
          retryAfter: r.headers.get("retry-after"),
          body: await r.json(),
        })),
      ),
    );
    const refused = answers.filter((a) => a.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const a of refused) {
      expect(a.retryAfter).toMatch(/^\d+$/);
      expect(a.body).toMatchObject({ error: { code: "unavailable" } });
    }
    // Once they are answered the budget is free again: a small request goes through to its normal refusal.
    expect((await post(s.base, "{}")).status).toBe(401);
  }, 120_000);

  it("rate-limits a caller whose requests keep being refused (429 + Retry-After, nothing stored)", async () => {
    const s = await server({ TOOLSCOPE_REFUSAL_BURST: "5", TOOLSCOPE_REFUSALS_PER_MINUTE: "6" });
    started.push(s);
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 9; i++) {
      const response = await post(
        s.base,
        JSON.stringify({ type: "tool_result", group_id: "g", id: "c", text: `t${i}` }),
      );
      statuses.push(response.status);
      if (response.status === 429) retryAfter = response.headers.get("retry-after");
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual([429, 429, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    const db = new Sqlite(s.file, { readonly: true });
    try {
      expect(db.prepare(`SELECT count(*) AS n FROM "Delivery"`).get()).toEqual({ n: 5 });
    } finally {
      db.close();
    }
  }, 120_000);

  it("exposed mode: a caller without a valid key is rate-limited too (401 ×5, then 429 + Retry-After)", async () => {
    // The access check refused them before the budget was looked at, so 401s were charged but never limited.
    const s = await server({
      TOOLSCOPE_SECRET: "untrusted-senders-exposed-secret-0123456789",
      TOOLSCOPE_REFUSAL_BURST: "5",
      TOOLSCOPE_REFUSALS_PER_MINUTE: "6",
    });
    started.push(s);
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 8; i++) {
      const headers: Record<string, string> = {
        "content-type": "application/json",
        ...(i % 2 === 1 ? { authorization: `Bearer tsk_guess${i}` } : {}),
      };
      const response = await fetch(`${s.base}/api/events`, {
        method: "POST",
        headers,
        body: JSON.stringify({ type: "message", group_id: "g", role: "user", text: "x" }),
      });
      statuses.push(response.status);
      if (response.status === 429) retryAfter = response.headers.get("retry-after");
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    const otlp = await fetch(`${s.base}/v1/traces`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(otlp.status).toBe(429);
    expect(otlp.headers.get("retry-after")).toMatch(/^\d+$/);
  }, 120_000);
});
