// npm run bench:otlp-stages — where bench:otlp's time goes, and what that allows. In one process and one thread,
// on bench:otlp's own payloads (scripts/bench/otlp-payloads.ts): decoding, preparing the span rows, and storing them
// as SpanWriter does (groups of 4 requests, storeSpans in one driver transaction), each statement timed by what it
// does and table, BEGIN/COMMIT timed apart; beside the same process doing the baseline's work
// (scripts/bench/otlp-baseline-store.ts: decode, one row per span, one transaction per request).
//
// It then prints two bounds on the bench:otlp ratio that no rearrangement of this work can beat on this machine:
// - the writer bound: the statements and COMMIT run one transaction at a time (SQLite has one writer; on
//   PostgreSQL timeline writers take the timeline lock so that "after id N" never skips a row), so spans/s can
//   never exceed what they alone allow;
// - the cores bound: all of the work spread over every core with no cost for spreading it.
// Both divide by the baseline's single-thread cost. bench:otlp's baseline server is single-threaded on SQLite;
// on PostgreSQL it runs 4 transactions at once (8 connections), so it is faster there than measured here, and
// the true PostgreSQL bounds are lower than printed.
//
// Options: --requests N (120), --traces N per request (57 × 7 spans), --sqlite-only, --variants (SQLite, also
// with the derived tables' triggers and/or secondary indexes dropped: an experiment showing what the schema's
// features cost, not a configuration of the product).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { openDatabase } from "../lib/db/client.ts";
import { resolveDatabaseTarget } from "../lib/db/database-url.ts";
import type { DriverConnection } from "../lib/db/driver.ts";
import type { Sql } from "../lib/db/sql.ts";
import { applyMigrations } from "../lib/db/migrate.ts";
import { decodeProtobufExport } from "../lib/otel/otlp-proto.ts";
import { mergePrepared, prepareSpans, storeSpans } from "../lib/otel/store-spans.ts";
import { detectPostgres } from "../lib/testing/postgres-detect.ts";
import { openBaselineStore } from "./bench/otlp-baseline-store.ts";
import { payloads } from "./bench/otlp-payloads.ts";

const { values: options } = parseArgs({
  options: {
    requests: { type: "string", default: "120" },
    traces: { type: "string", default: "57" },
    "sqlite-only": { type: "boolean", default: false },
    variants: { type: "boolean", default: false },
  },
});
const REQUESTS = Number(options.requests);
const TRACES = Number(options.traces);
const GROUP = 4;
const CORES = os.availableParallelism();
const TARGET = 40;

type Timings = Map<string, number>;

/** What a statement does, and to which table: "INSERT ToolCall", "SELECT OtelTrace"… */
function statementKind(text: string): string {
  const verb = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? "?";
  const table = /(?:INTO|FROM|UPDATE)\s+"(\w+)"/i.exec(text)?.[1] ?? "?";
  return `${verb} ${table}`;
}

/** The transaction's connection with every statement's time added to `timings` under its kind. */
function timed(connection: DriverConnection, timings: Timings): DriverConnection {
  const time = <T>(text: string, run: () => T): T => {
    const started = performance.now();
    const settle = () => {
      const kind = statementKind(text);
      timings.set(kind, (timings.get(kind) ?? 0) + performance.now() - started);
    };
    const result = run();
    if (result instanceof Promise) return result.finally(settle) as T;
    settle();
    return result;
  };
  const statements = {
    query: <Rows extends object[]>(statement: Sql) => time(statement.sql, () => connection.query<Rows>(statement)),
    execute: (statement: Sql) => time(statement.sql, () => connection.execute(statement)),
  };
  if (connection.provider === "sqlite")
    return { ...connection, ...statements, runEach: (text, rows) => time(text, () => connection.runEach(text, rows)) };
  return {
    ...connection,
    ...statements,
    queryText: <Rows extends object[]>(text: string, values: readonly unknown[]) =>
      time(text, () => connection.queryText<Rows>(text, values)),
  };
}

type Measured = {
  label: string;
  spans: number;
  decodeMs: number;
  prepareMs: number;
  statements: Timings;
  transactionMs: number;
  insideMs: number;
  baselineMs: number;
};

async function measure(
  label: string,
  url: string,
  work: { body: Uint8Array; spans: number }[],
  baselineUrl: string,
  alter?: (file: string) => void,
): Promise<Measured> {
  const target = resolveDatabaseTarget(url);
  await applyMigrations(target);
  if (alter && target.provider === "sqlite") alter(target.file);
  const database = await openDatabase(target);
  const baseline = await openBaselineStore(baselineUrl);
  try {
    // The baseline's work first (its decode is timed with its store: the baseline server does both per request).
    let started = performance.now();
    for (const item of work) await baseline.store(decodeProtobufExport(item.body).spans);
    const baselineMs = performance.now() - started;

    started = performance.now();
    const decoded = work.map((item) => decodeProtobufExport(item.body));
    const decodeMs = performance.now() - started;
    started = performance.now();
    const prepared = decoded.map((one) => prepareSpans(one.spans, new Date()));
    const prepareMs = performance.now() - started;

    const statements: Timings = new Map();
    let insideMs = 0;
    started = performance.now();
    for (let index = 0; index < prepared.length; index += GROUP) {
      const group = mergePrepared(prepared.slice(index, index + GROUP));
      await database.driverTransaction(
        async (tx) => {
          const inside = performance.now();
          try {
            return await storeSpans(timed(tx, statements), database.provider, group);
          } finally {
            insideMs += performance.now() - inside;
          }
        },
        { timeout: 120_000 },
      );
    }
    const transactionMs = performance.now() - started;
    const spans = work.reduce((sum, item) => sum + item.spans, 0);
    const [stored] = await database.client.$queryRawUnsafe<{ n: number | bigint }[]>(
      'SELECT count(*) AS n FROM "OtelSpan"',
    );
    if (Number(stored?.n ?? 0) !== spans || (await baseline.count()) !== spans)
      throw new Error(`${label}: expected ${spans} spans stored by each`);
    return { label, spans, decodeMs, prepareMs, statements, transactionMs, insideMs, baselineMs };
  } finally {
    await baseline.close();
    await database.close();
  }
}

const perSpan = (ms: number, spans: number) => (ms * 1000) / spans;
const us = (value: number) => value.toFixed(1);

function report(result: Measured): void {
  const n = result.spans;
  const statementsMs = [...result.statements.values()].reduce((sum, ms) => sum + ms, 0);
  const beginCommitMs = result.transactionMs - result.insideMs;
  const javascriptMs = result.insideMs - statementsMs;
  const totalMs = result.decodeMs + result.prepareMs + result.transactionMs;
  const writerMs = statementsMs + beginCommitMs;
  const baseline = perSpan(result.baselineMs, n);
  console.log(`\n${result.label}: ${n} spans (${REQUESTS} requests, groups of ${GROUP}), µs per span, one thread`);
  console.log("| stage | µs/span |");
  console.log("|---|---:|");
  console.log(`| decode (protobuf → spans) | ${us(perSpan(result.decodeMs, n))} |`);
  console.log(`| prepare span rows (JSON, scopes) | ${us(perSpan(result.prepareMs, n))} |`);
  for (const [kind, ms] of [...result.statements].sort((a, b) => b[1] - a[1])) {
    if (perSpan(ms, n) >= 0.05) console.log(`| statements: ${kind} | ${us(perSpan(ms, n))} |`);
  }
  console.log(`| BEGIN / COMMIT | ${us(perSpan(beginCommitMs, n))} |`);
  console.log(`| JavaScript inside the transaction (planning, mapping, rows, GC) | ${us(perSpan(javascriptMs, n))} |`);
  console.log(`| **Toolscope, all** | **${us(perSpan(totalMs, n))}** |`);
  console.log(`| baseline's work (decode, one row per span, COMMIT per request) | ${us(baseline)} |`);
  const oneThread = (baseline / perSpan(totalMs, n)) * 100;
  const writerBound = (baseline / perSpan(writerMs, n)) * 100;
  const coresBound = (baseline / (perSpan(totalMs, n) / CORES)) * 100;
  const bound = Math.min(writerBound, coresBound);
  console.log(`one thread, as today: ${oneThread.toFixed(1)} % of the baseline`);
  console.log(
    `writer bound (statements + BEGIN/COMMIT, ${us(perSpan(writerMs, n))} µs/span, one transaction at a time): ≤ ${writerBound.toFixed(1)} %`,
  );
  console.log(`cores bound (all work over ${CORES} cores, no cost for spreading it): ≤ ${coresBound.toFixed(1)} %`);
  console.log(
    `upper bound for any arrangement of this work on this machine: ${bound.toFixed(1)} % (target ${TARGET} %)`,
  );
}

function dropping(what: "triggers" | "indexes" | "both"): (file: string) => void {
  return (file) => {
    const db = new Database(file);
    const kinds =
      what === "triggers" ? "type = 'trigger'" : what === "indexes" ? "type = 'index'" : "type IN ('trigger', 'index')";
    // Secondary indexes only: the unique ones are what ON CONFLICT and the look-ups stand on.
    const rows = db
      .prepare(
        `SELECT type, name FROM sqlite_master WHERE tbl_name IN ('ToolCall', 'ToolResult', 'Event') AND ${kinds} AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE%'`,
      )
      .all() as { type: string; name: string }[];
    for (const row of rows) db.exec(`DROP ${row.type === "trigger" ? "TRIGGER" : "INDEX"} "${row.name}"`);
    db.close();
  };
}

const work = payloads(REQUESTS, TRACES);
console.log(
  `payloads: ${work.length} requests, ${work.reduce((sum, item) => sum + item.spans, 0)} spans; ${CORES} cores`,
);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolscope-otlp-stages-"));
try {
  const sqlite = (name: string) => `file:${path.join(dir, `${name}.db`)}`;
  report(await measure("SQLite, as shipped", sqlite("toolscope"), work, sqlite("baseline")));
  if (options.variants) {
    for (const what of ["triggers", "indexes", "both"] as const) {
      const label = `SQLite without the ${what === "both" ? "triggers and secondary indexes" : `${what === "triggers" ? "triggers" : "secondary indexes"}`} of ToolCall, ToolResult, Event (experiment)`;
      report(await measure(label, sqlite(`toolscope-${what}`), work, sqlite(`baseline-${what}`), dropping(what)));
    }
  }
  const server = options["sqlite-only"] ? null : await detectPostgres();
  if (server) {
    const pg = (await import("pg")).default;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    const names = [`toolscope_stages_${process.pid}`, `toolscope_stages_base_${process.pid}`];
    for (const name of names) await admin.query(`CREATE DATABASE "${name}"`);
    const url = (name: string) => Object.assign(new URL(server), { pathname: `/${name}` }).toString();
    try {
      report(
        await measure(
          "PostgreSQL (baseline run sequentially here; bench:otlp runs it 4 at a time)",
          url(names[0] ?? ""),
          work,
          url(names[1] ?? ""),
        ),
      );
    } finally {
      for (const name of names) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    }
  } else if (!options["sqlite-only"]) {
    console.log("\nPostgreSQL not reachable (TEST_DATABASE_URL or 127.0.0.1:5432): skipped");
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
