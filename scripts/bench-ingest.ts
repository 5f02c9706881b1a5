// npm run bench:ingest — durable callbacks/s of Toolscope's production server against the bare limit
// measured in the same run (scripts/bench/baseline-server.ts), under the same wrk load: every request a
// tool_result for a distinct pending call. Then the same load on PostgreSQL when one is reachable, beside
// its own baseline (scripts/bench/pg-baseline-server.ts: node:http + pg, one durable transaction each).
// Each server first gets --warmup seconds of the same load on calls of its own (JIT, caches, pools). Then the
// product and its baseline run side by side and the measured load goes in --rounds rounds that alternate
// between them (who goes first alternating too), so a machine whose load drifts during the run weighs on both
// alike; each rate is its stored requests over the sum of its own rounds' times, each p99 its worst round's.
// Options: --duration <s> (measured seconds per server, default 10), --rounds <n> (5; wrk takes whole seconds), --warmup <s> (2),
//          --connections <n> (32), --calls <n> (pending calls seeded for Toolscope's measured run, 60000),
//          --baseline-calls <n> (for the baselines, 400000), --no-postgres, --only sqlite|postgres, --skip-build.
//          BENCH_CPU_PROF=<dir>: a V8 CPU profile of each Toolscope server (node --cpu-prof) is written there.
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openDatabase } from "../lib/db/client.ts";
import { resolveDatabaseTarget, type DatabaseTarget } from "../lib/db/database-url.ts";
import { applyMigrations } from "../lib/db/migrate.ts";
import { recordEvents } from "../lib/events/service.ts";
import { nodeScriptArgs } from "../lib/testing/node-command.ts";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? Number(args[index + 1]) : fallback;
};
const duration = option("duration", 10);
const rounds = Math.max(1, Math.floor(option("rounds", 5)));
const warmup = option("warmup", 2);
/** Warm-up requests go to calls of their own group, seeded beside the measured run's. */
const WARMUP_GROUP = "warmup";
const warmupCalls = Math.ceil(warmup * 20_000);
const connections = option("connections", 32);
const calls = option("calls", 60_000);
// The baselines seed their pending calls with one SQL statement, and on a quiet machine answer 10,000/s or more:
// give them enough that they never run out (a 404 for a missing call is not a stored result).
const baselineCalls = option("baseline-calls", 400_000);
const group = "bench";
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : null;
const work = fs.mkdtempSync(path.join(os.tmpdir(), "toolscope-bench-"));

if (spawnSync("sh", ["-c", "command -v wrk"]).status !== 0) {
  console.error("wrk is needed for the load (Debian package): apt-get install -y wrk");
  process.exit(1);
}

// One distinct pending call per request; ~500-byte bodies like the figures in the shared notes.
const lua = path.join(work, "callbacks.lua");
fs.writeFileSync(
  lua,
  `counter = 0
group = "${group}"
init = function(args)
  if args[1] then group = args[1] end
  if args[2] then counter = tonumber(args[2]) end
end
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local filler = string.rep("x", 380)
request = function()
  local id = counter
  counter = counter + 1
  local body = '{"type":"tool_result","group_id":"' .. group .. '","id":"call_' .. id .. '","call_id":null,"text":"Deployed instance i-' .. id .. ' ' .. filler .. '"}'
  return wrk.format(nil, "/api/callback", nil, body)
end
`,
);

type Run = {
  label: string;
  requestsPerSecond: number;
  ok: number;
  non2xx: number;
  p50: string;
  p99: string;
  seconds: number;
};
/** One round of wrk: `sent` counts every request (the next round's call ids start after them). */
type Round = { ok: number; non2xx: number; sent: number; seconds: number; p50: string; p99: string };

function wrk(label: string, port: number, seconds: number, groupId: string, offset: number, latency: boolean): Round {
  const out = execFileSync(
    "wrk",
    [
      "-t1",
      `-c${connections}`,
      `-d${seconds}s`,
      ...(latency ? ["--latency"] : []),
      "-s",
      lua,
      `http://127.0.0.1:${port}`,
      groupId,
      String(offset),
    ],
    { encoding: "utf8" },
  );
  const total = Number(/(\d+) requests in ([\d.]+)(m?s)/.exec(out)?.[1] ?? 0);
  const secondsMatch = /requests in ([\d.]+)(m?s)/.exec(out);
  const elapsed = secondsMatch ? Number(secondsMatch[1]) / (secondsMatch[2] === "ms" ? 1000 : 1) : seconds;
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const errors = /Socket errors: (.*)/.exec(out)?.[1];
  if (errors) console.log(`  ${label}: socket errors: ${errors}`);
  const percentile = (p: string) => new RegExp(`\\s${p}%\\s+([\\d.]+\\w+)`).exec(out)?.[1] ?? "?";
  return { ok: total - non2xx, non2xx, sent: total, seconds: elapsed, p50: percentile("50"), p99: percentile("99") };
}

type Contender = { label: string; port: number };

/**
 * Warms each server up on its own calls, then measures them in alternating rounds (A B, B A, A B, …): each
 * rate is its stored requests over the sum of its rounds' times; p50 and p99 are the worst round's.
 */
function measure(contenders: Contender[]): Run[] {
  if (warmup > 0)
    for (const contender of contenders) wrk(contender.label, contender.port, warmup, WARMUP_GROUP, 0, false);
  const done = contenders.map(() => [] as Round[]);
  const sent = contenders.map(() => 0);
  const seconds = Math.max(1, Math.round(duration / rounds));
  for (let round = 0; round < rounds; round += 1) {
    const order = contenders.map((_, index) => index);
    if (round % 2 === 1) order.reverse();
    for (const index of order) {
      const contender = contenders[index];
      if (!contender) continue;
      const result = wrk(contender.label, contender.port, seconds, group, sent[index] ?? 0, true);
      // Requests still in flight when wrk stopped (at most one per connection) used their calls too.
      sent[index] = (sent[index] ?? 0) + result.sent + connections;
      done[index]?.push(result);
    }
  }
  return contenders.map((contender, index) => {
    const runs = done[index] ?? [];
    const ok = runs.reduce((sum, run) => sum + run.ok, 0);
    const total = runs.reduce((sum, run) => sum + run.seconds, 0);
    const worst = (pick: (run: Round) => string) =>
      runs.map(pick).reduce((a, b) => (millis(b) > millis(a) ? b : a), "0us");
    return {
      label: contender.label,
      requestsPerSecond: ok / total,
      ok,
      non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
      p50: worst((run) => run.p50),
      p99: worst((run) => run.p99),
      seconds: total,
    };
  });
}

function waitReady(child: ChildProcess, pattern: RegExp, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`${what} did not start:\n${output}`)), 300_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] ?? "");
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("exit", (code) => reject(new Error(`${what} exited (${code}):\n${output}`)));
  });
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.on("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

async function seedToolscope(target: DatabaseTarget): Promise<number> {
  await applyMigrations(target);
  const db = await openDatabase(target);
  const started = Date.now();
  for (const [groupId, count] of [
    [group, calls],
    [WARMUP_GROUP, warmup > 0 ? warmupCalls : 0],
  ] as const) {
    for (let start = 0; start < count; start += 1000) {
      const batch = Array.from({ length: Math.min(1000, count - start) }, (_, i) => ({
        type: "tool_call",
        group_id: groupId,
        id: `call_${start + i}`,
        name: "deploy",
      }));
      await recordEvents(batch, { database: db });
    }
  }
  await db.close();
  return (calls / (Date.now() - started)) * 1000;
}

async function countDurable(target: DatabaseTarget): Promise<number> {
  const db = await openDatabase(target);
  try {
    return await db.client.toolResult.count({ where: { toolCall: { groupId: group } } });
  } finally {
    await db.close();
  }
}

/** Seeds Toolscope's calls and starts its production server; `stop` also counts the durable results. */
async function startToolscope(
  label: string,
  target: DatabaseTarget,
  port: number,
): Promise<{ contender: Contender; stop: () => Promise<number> }> {
  const rate = await seedToolscope(target);
  console.log(`  ${label}: seeded ${calls} pending calls via the events service (${rate.toFixed(0)} registrations/s)`);
  const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const server = spawn(process.execPath, [...profile, ...nodeScriptArgs("scripts/start.ts")], {
    env: {
      ...process.env,
      DATABASE_URL: target.url,
      PORT: String(port),
      HOST: "127.0.0.1",
      TOOLSCOPE_SKIP_BUILD: "1",
      NODE_ENV: "production",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  try {
    await waitReady(server, /ready on (\S+)/, label);
  } catch (error) {
    await stop(server);
    throw error;
  }
  return {
    contender: { label, port },
    stop: async () => {
      await stop(server);
      return countDurable(target);
    },
  };
}

/** Starts a baseline server (it seeds its own calls) and waits for its port. */
async function startBaseline(
  label: string,
  script: string,
  env: Record<string, string>,
): Promise<{ contender: Contender; stop: () => Promise<void> }> {
  const server = spawn(process.execPath, nodeScriptArgs(script), {
    env: {
      ...process.env,
      ...env,
      BENCH_CALLS: String(baselineCalls),
      BENCH_GROUP: group,
      BENCH_WARMUP_GROUP: WARMUP_GROUP,
      BENCH_WARMUP_CALLS: String(warmupCalls),
      PORT: "0",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  try {
    const port = Number(await waitReady(server, /ready (\d+)/, label));
    return { contender: { label, port }, stop: () => stop(server) };
  } catch (error) {
    await stop(server);
    throw error;
  }
}

/** The baseline and Toolscope side by side, measured in alternating rounds. */
async function sideBySide(
  baseline: () => Promise<{ contender: Contender; stop: () => Promise<void> }>,
  toolscope: () => Promise<{ contender: Contender; stop: () => Promise<number> }>,
): Promise<[Run, Run & { durable: number }]> {
  const base = await baseline();
  try {
    const product = await toolscope();
    let stopped = false;
    try {
      const [baseRun, productRun] = measure([base.contender, product.contender]);
      if (!baseRun || !productRun) throw new Error("no measurement");
      stopped = true;
      return [baseRun, { ...productRun, durable: await product.stop() }];
    } finally {
      if (!stopped) await product.stop();
    }
  } finally {
    await base.stop();
  }
}

console.log(
  `bench:ingest — wrk -t1 -c${connections} -d${duration}s, ~500-byte tool_result bodies, each for a distinct pending call`,
);
console.log(`machine: ${os.cpus().length} cores, node ${process.version}\n`);

if (!args.includes("--skip-build")) {
  console.log("building the production app…");
  execFileSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
}

const rows: (Run & { durable?: number })[] = [];
let sqlite: (Run & { durable: number }) | null = null;
let baselineRun: Run | null = null;
console.log(
  `measured: ${rounds} alternating rounds of ${Math.max(1, Math.round(duration / rounds))} s per server, after ${warmup} s of warm-up each\n`,
);
if (only !== "postgres") {
  [baselineRun, sqlite] = await sideBySide(
    () =>
      startBaseline("baseline (node:http + better-sqlite3)", "scripts/bench/baseline-server.ts", {
        BENCH_DB: path.join(work, "baseline.db"),
      }),
    () =>
      startToolscope(
        "toolscope on SQLite",
        resolveDatabaseTarget(`file:${path.join(work, "toolscope.db")}`),
        3400 + Math.floor(Math.random() * 500),
      ),
  );
  rows.push(baselineRun, sqlite);
}
let postgres: (Run & { durable: number }) | null = null;
let pgBaselineRun: Run | null = null;
const pgServer = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

async function withDatabase<R>(name: string, run: (url: string) => Promise<R>): Promise<R> {
  const admin = new pg.Client({ connectionString: pgServer, connectionTimeoutMillis: 2000 });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(pgServer);
    url.pathname = `/${name}`;
    return await run(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
    await admin.end().catch(() => {});
  }
}

if (!args.includes("--no-postgres") && only !== "sqlite") {
  try {
    [pgBaselineRun, postgres] = await withDatabase(`toolscope_bench_baseline_${process.pid}`, (baseUrl) =>
      withDatabase(`toolscope_bench_${process.pid}`, (url) =>
        sideBySide(
          () =>
            startBaseline("baseline (node:http + pg)", "scripts/bench/pg-baseline-server.ts", {
              BENCH_DATABASE_URL: baseUrl,
            }),
          () =>
            startToolscope(
              "toolscope on PostgreSQL",
              resolveDatabaseTarget(url),
              3900 + Math.floor(Math.random() * 500),
            ),
        ),
      ),
    );
    rows.push(pgBaselineRun, postgres);
  } catch (error) {
    console.log(`  PostgreSQL run skipped: ${error instanceof Error ? error.message.split("\n")[0] : error}`);
  }
}

/** wrk prints latencies as 12.34ms / 1.20s / 850.00us. */
function millis(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  if (!match) return NaN;
  const value = Number(match[1]);
  return match[2] === "us"
    ? value / 1000
    : match[2] === "ms"
      ? value
      : match[2] === "s"
        ? value * 1000
        : value * 60_000;
}

console.log("");
console.log("| server | accepted callbacks/s | 2xx | non-2xx | p50 | p99 | durable results |");
console.log("|---|---:|---:|---:|---:|---:|---:|");
for (const row of rows) {
  console.log(
    `| ${row.label} | ${row.requestsPerSecond.toFixed(0)} | ${row.ok} | ${row.non2xx} | ${row.p50} | ${row.p99} | ${row.durable ?? "n/a"} |`,
  );
}
console.log("");
const compare = (product: Run, base: Run, target: number) => {
  const ratio = product.requestsPerSecond / base.requestsPerSecond;
  const p99Ratio = millis(product.p99) / millis(base.p99);
  console.log(
    `${product.label}: ${product.requestsPerSecond.toFixed(0)}/s = ${(ratio * 100).toFixed(1)} % of its baseline's ${base.requestsPerSecond.toFixed(0)}/s (target ≥ ${target} %: ${ratio * 100 >= target ? "met" : "NOT met"}); ` +
      `p99 ${product.p99} beside the baseline's ${base.p99} = ${p99Ratio.toFixed(1)}× (target ≤ 3×: ${p99Ratio <= 3 ? "met" : "NOT met"})`,
  );
};
if (sqlite && baselineRun) compare(sqlite, baselineRun, 80);
if (postgres && pgBaselineRun) compare(postgres, pgBaselineRun, 60);
for (const row of rows) {
  if (row.non2xx > 0)
    console.log(
      `WARNING ${row.label}: ${row.non2xx} requests were not stored (ran out of pending calls? raise --calls / --baseline-calls)`,
    );
}
for (const row of [sqlite, postgres]) {
  // Stored may exceed acknowledged: requests still in flight when wrk stops are committed, unanswered.
  if (row && row.durable < row.ok)
    console.log(`WARNING ${row.label}: ${row.ok} acknowledged but only ${row.durable} stored`);
  else if (row)
    console.log(`${row.label}: every 2xx is a stored result (${row.durable} stored ≥ ${row.ok} acknowledged)`);
}
console.log(`load while measuring (1-min load average): ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} cores`);
fs.rmSync(work, { recursive: true, force: true });
