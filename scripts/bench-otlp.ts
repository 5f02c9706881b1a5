// npm run bench:otlp — OTLP ingest throughput: realistic protobuf export requests (hundreds of spans each,
// shaped like the AI SDK's GenAI spans: agent, steps, model calls with message lists, tool executions) sent by
// concurrent exporters to Toolscope's /v1/traces (lean server), beside a baseline measured in the same run
// that decodes the same payloads and inserts every span durably with no mapping. SQLite always; PostgreSQL
// when BENCH_PG_URL (default postgresql://postgres@127.0.0.1:5432/postgres) is reachable.
// Both servers run side by side and the payloads go in BENCH_ROUNDS rounds that alternate between them (who
// goes first alternating too), so on a shared machine both see the same load; each figure is its spans over
// the sum of its own rounds' times.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { payloads } from "./bench/otlp-payloads.ts";
import { nodeScriptArgs } from "../lib/testing/node-command.ts";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 120);
const TRACES_PER_REQUEST = Number(process.env.BENCH_TRACES ?? 57); // × 7 spans = 399 spans per request
const SENDERS = Number(process.env.BENCH_SENDERS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const PG_URL = process.env.BENCH_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
/** BENCH_ONLY=sqlite or postgresql: measure one backend. */
const ONLY = process.env.BENCH_ONLY ?? null;

function waitReady(child: ChildProcess, what: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /ready (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`${what} exited (${code}): ${output}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

async function send(
  port: number,
  path_: string,
  work: { body: Uint8Array; spans: number }[],
): Promise<{ seconds: number; spans: number; failures: number }> {
  let next = 0;
  let spans = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: SENDERS }, async () => {
      for (;;) {
        const item = work[next++];
        if (!item) return;
        const response = await fetch(`http://127.0.0.1:${port}${path_}`, {
          method: "POST",
          headers: { "content-type": "application/x-protobuf" },
          body: new Blob([new Uint8Array(item.body)]),
        });
        await response.arrayBuffer();
        if (response.status === 200) spans += item.spans;
        else failures += 1;
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, spans, failures };
}

type Result = { label: string; spansPerSecond: number; stored: number; failures: number };
type Server = {
  label: string;
  child: ChildProcess;
  port: number;
  count: () => Promise<number>;
  seconds: number;
  spans: number;
  failures: number;
};

async function start(
  label: string,
  script: string,
  env: Record<string, string>,
  count: () => Promise<number>,
): Promise<Server> {
  // BENCH_CPU_PROF=<dir>: write a V8 CPU profile of each server (node --cpu-prof) there.
  const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, ...nodeScriptArgs(script)], {
    env: { ...process.env, PORT: "0", NODE_ENV: "production", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  try {
    return { label, child, port: await waitReady(child, label), count, seconds: 0, spans: 0, failures: 0 };
  } catch (error) {
    await stop(child);
    throw error;
  }
}

/** Starts a baseline and a Toolscope server (stopping the first if the second cannot start). */
async function startBoth(first: () => Promise<Server>, second: () => Promise<Server>): Promise<[Server, Server]> {
  const a = await first();
  try {
    return [a, await second()];
  } catch (error) {
    await stop(a.child);
    throw error;
  }
}

/** Sends the payloads to both servers in alternating rounds; returns each one's figure. */
async function compare(servers: [Server, Server], work: { body: Uint8Array; spans: number }[]): Promise<Result[]> {
  try {
    const size = Math.ceil(work.length / ROUNDS);
    for (let round = 0; round * size < work.length; round += 1) {
      const slice = work.slice(round * size, (round + 1) * size);
      for (const server of round % 2 === 0 ? servers : [servers[1], servers[0]]) {
        const sent = await send(server.port, "/v1/traces", slice);
        server.seconds += sent.seconds;
        server.spans += sent.spans;
        server.failures += sent.failures;
      }
    }
    const results: Result[] = [];
    for (const server of servers)
      results.push({
        label: server.label,
        spansPerSecond: server.spans / server.seconds,
        stored: await server.count(),
        failures: server.failures,
      });
    return results;
  } finally {
    for (const server of servers) await stop(server.child);
  }
}

async function withPostgres<T>(fn: (url: (name: string) => string, names: string[]) => Promise<T>): Promise<T | null> {
  const admin = new pg.Client({ connectionString: PG_URL });
  try {
    await admin.connect();
  } catch {
    console.log(`PostgreSQL not reachable at ${PG_URL}: skipped`);
    return null;
  }
  const names = [`toolscope_bench_otlp_base_${process.pid}`, `toolscope_bench_otlp_ts_${process.pid}`];
  for (const name of names) await admin.query(`CREATE DATABASE "${name}"`);
  const url = (name: string) => {
    const parsed = new URL(PG_URL);
    parsed.pathname = `/${name}`;
    return parsed.toString();
  };
  try {
    return await fn(url, names);
  } finally {
    for (const name of names) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

async function pgCount(url: string, sql: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query<{ n: string }>(sql)).rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

function report(backend: string, baseline: Result, toolscope: Result, expected: number): void {
  const ratio = (toolscope.spansPerSecond / baseline.spansPerSecond) * 100;
  console.log(
    `\n${backend}: ${REQUESTS} requests × ${expected / REQUESTS} spans, ${SENDERS} concurrent senders, ${ROUNDS} alternating rounds`,
  );
  console.log(`| server | spans/s stored | spans stored | failed requests |`);
  console.log(`|---|---:|---:|---:|`);
  console.log(
    `| ${baseline.label} | ${baseline.spansPerSecond.toFixed(0)} | ${baseline.stored} | ${baseline.failures} |`,
  );
  console.log(
    `| ${toolscope.label} | ${toolscope.spansPerSecond.toFixed(0)} (${ratio.toFixed(1)} % of baseline) | ${toolscope.stored} | ${toolscope.failures} |`,
  );
  if (baseline.stored !== expected || toolscope.stored !== expected)
    console.log(`!! expected ${expected} spans stored by each`);
  console.log(
    ratio >= 40
      ? `ratio ${ratio.toFixed(1)} % ≥ 40 %: target met`
      : `ratio ${ratio.toFixed(1)} % < 40 %: TARGET MISSED`,
  );
}

const work = payloads(REQUESTS, TRACES_PER_REQUEST);
const expected = work.reduce((sum, item) => sum + item.spans, 0);
console.log(
  `payloads: ${work.length} requests, ${expected} spans, ${(work.reduce((sum, item) => sum + item.body.byteLength, 0) / 1e6).toFixed(1)} MB protobuf`,
);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolscope-bench-otlp-"));
try {
  if (ONLY !== "postgresql") await benchSqlite();
  if (ONLY !== "sqlite") await benchPostgres();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

async function benchSqlite(): Promise<void> {
  const baseFile = path.join(dir, "baseline.db");
  const tsFile = path.join(dir, "toolscope.db");
  const sqliteServers = await startBoth(
    () =>
      start(
        "baseline: node:http + better-sqlite3, decode + insert spans",
        "scripts/bench/otlp-baseline-server.ts",
        { BENCH_DATABASE_URL: `file:${baseFile}` },
        async () => {
          const db = new Database(baseFile, { readonly: true });
          const n = Number(db.prepare("SELECT count(*) AS n FROM span").pluck().get());
          db.close();
          return n;
        },
      ),
    () =>
      start(
        "Toolscope on SQLite (lean server, spans + mapping)",
        "scripts/serve-callbacks.ts",
        { DATABASE_URL: `file:${tsFile}` },
        async () => {
          const db = new Database(tsFile, { readonly: true });
          const n = Number(db.prepare('SELECT count(*) AS n FROM "OtelSpan"').pluck().get());
          const calls = Number(db.prepare('SELECT count(*) AS n FROM "ToolCall"').pluck().get());
          console.log(`Toolscope on SQLite mapped ${calls} calls`);
          db.close();
          return n;
        },
      ),
  );
  const [baseline, toolscope] = await compare(sqliteServers, work);
  if (baseline && toolscope) report("SQLite", baseline, toolscope, expected);
}

async function benchPostgres(): Promise<void> {
  await withPostgres(async (url, [baseName, tsName]) => {
    const baseUrl = url(baseName ?? "");
    const tsUrl = url(tsName ?? "");
    const pgServers = await startBoth(
      () =>
        start(
          "baseline: node:http + pg, decode + insert spans",
          "scripts/bench/otlp-baseline-server.ts",
          { BENCH_DATABASE_URL: baseUrl },
          () => pgCount(baseUrl, "SELECT count(*) AS n FROM span"),
        ),
      () =>
        start(
          "Toolscope on PostgreSQL (lean server, spans + mapping)",
          "scripts/serve-callbacks.ts",
          { DATABASE_URL: tsUrl },
          async () => {
            console.log(
              `Toolscope on PostgreSQL mapped ${await pgCount(tsUrl, 'SELECT count(*) AS n FROM "ToolCall"')} calls`,
            );
            return pgCount(tsUrl, 'SELECT count(*) AS n FROM "OtelSpan"');
          },
        ),
    );
    const [pgBaseline, pgToolscope] = await compare(pgServers, work);
    if (pgBaseline && pgToolscope) report("PostgreSQL", pgBaseline, pgToolscope, expected);
  });
}
