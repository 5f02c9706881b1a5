// npm run bench:alerts — what evaluating alert rules costs ingestion: two Toolscope production servers side by side
// under the same wrk load as bench:ingest (every request a tool_result for a distinct pending call), one with 50
// enabled alert rules, one with none, measured in alternating rounds (who goes first alternating too), on SQLite
// and then on PostgreSQL when one is reachable. Target: the rules cost at most 5 % of accepted callbacks/s.
// The 50 rules: 35 scoped to other tools (read, never matched), 8 on every tool whose conditions the load's results
// do not meet (errored, success false, confidence, nextAction, latency), 2 error-rate rules whose window every group
// commit updates, 5 swept rules (timed out, pending, waiting, new tool) the sweeper checks every second.
// Options: --duration <s> (measured seconds per server, default 10), --rounds <n> (5), --warmup <s> (2),
//          --connections <n> (32), --calls <n> (pending calls per server, 60000), --rules <n> (50),
//          --only sqlite|postgres, --skip-build (use the existing build; NEXT_DIST_DIR is honoured).
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
const connections = option("connections", 32);
const calls = option("calls", 60_000);
const ruleCount = option("rules", 50);
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : null;
const work = fs.mkdtempSync(path.join(os.tmpdir(), "toolscope-bench-alerts-"));
const GROUP = "bench";
const WARMUP_GROUP = "warmup";
const warmupCalls = Math.ceil(warmup * 20_000);

if (spawnSync("sh", ["-c", "command -v wrk"]).status !== 0) {
  console.error("wrk is needed for the load (Debian package): apt-get install -y wrk");
  process.exit(1);
}

const lua = path.join(work, "callbacks.lua");
fs.writeFileSync(
  lua,
  `counter = 0
group = "${GROUP}"
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

type Round = { ok: number; sent: number; seconds: number; p99: number };
type Contender = { label: string; port: number; rounds: Round[]; sent: number };

function wrk(port: number, seconds: number, group: string, offset: number): Round {
  const out = execFileSync(
    "wrk",
    [
      "-t1",
      `-c${connections}`,
      `-d${seconds}s`,
      "--latency",
      "-s",
      lua,
      `http://127.0.0.1:${port}`,
      group,
      `${offset}`,
    ],
    { encoding: "utf8" },
  );
  const total = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const elapsed = /requests in ([\d.]+)(m?s)/.exec(out);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)/.exec(out);
  const scale = { us: 0.001, ms: 1, s: 1000 } as const;
  return {
    ok: total - non2xx,
    sent: total,
    seconds: elapsed ? Number(elapsed[1]) / (elapsed[2] === "ms" ? 1000 : 1) : seconds,
    p99: p99 ? Number(p99[1]) * scale[p99[2] as keyof typeof scale] : NaN,
  };
}

/** The rules: most scoped away from the load, some evaluated on every result without firing, some swept. */
function benchRules(count: number) {
  const base = { notifyJson: '["bench"]', cooldownMs: 300_000, createdBy: "bench", updatedBy: "bench" };
  const onEveryTool = [
    { event: "result_errored", paramsJson: "{}" },
    { event: "envelope_failed", paramsJson: "{}" },
    { event: "low_confidence", paramsJson: '{"below":0.5}' },
    { event: "next_action", paramsJson: '{"equals":"human_review"}' },
    { event: "next_action", paramsJson: '{"equals":"stop"}' },
    { event: "slow_call", paramsJson: '{"above_ms":3600000}' },
    { event: "result_errored", paramsJson: "{}", groupPattern: "bench*" },
    { event: "low_confidence", paramsJson: '{"below":0.8}', groupPattern: "*" },
    { event: "error_rate", paramsJson: '{"above_percent":20,"window_ms":60000,"min_count":10}', toolName: "deploy" },
    { event: "error_rate", paramsJson: '{"above_percent":50,"window_ms":300000,"min_count":100}' },
  ];
  const swept = [
    { event: "call_timed_out", paramsJson: "{}", sweptUntil: new Date() },
    { event: "pending_too_long", paramsJson: '{"above_ms":3600000}' },
    { event: "waiting_for_person", paramsJson: '{"above_ms":600000}' },
    { event: "new_tool", paramsJson: "{}" },
    { event: "pending_too_long", paramsJson: '{"above_ms":86400000}', toolName: "deploy" },
  ];
  const scoped = ["result_errored", "envelope_failed", "low_confidence", "slow_call", "next_action"];
  const rows = [...onEveryTool, ...swept];
  for (let i = 0; rows.length < count; i += 1) {
    const event = scoped[i % scoped.length] ?? "result_errored";
    const params =
      event === "low_confidence"
        ? '{"below":0.5}'
        : event === "slow_call"
          ? '{"above_ms":1000}'
          : event === "next_action"
            ? '{"equals":"ask_user"}'
            : "{}";
    rows.push({ event, paramsJson: params, toolName: `other_tool_${i}` });
  }
  return rows.slice(0, count).map((row, index) => ({ ...base, name: `bench rule ${index}`, ...row }));
}

async function seed(target: DatabaseTarget, withRules: boolean): Promise<void> {
  await applyMigrations(target);
  const db = await openDatabase(target);
  try {
    for (const [group, count] of [
      [GROUP, calls],
      [WARMUP_GROUP, warmup > 0 ? warmupCalls : 0],
    ] as const)
      for (let start = 0; start < count; start += 1000) {
        const batch = Array.from({ length: Math.min(1000, count - start) }, (_, i) => ({
          type: "tool_call",
          group_id: group,
          id: `call_${start + i}`,
          name: "deploy",
        }));
        await recordEvents(batch, { database: db });
      }
    if (withRules) {
      await db.client.alertRule.createMany({ data: benchRules(ruleCount) });
      const [last] = await db.client.toolCall.findMany({ select: { id: true }, orderBy: { id: "desc" }, take: 1 });
      await db.client.alertRule.updateMany({ where: { event: "new_tool" }, data: { sweptId: last?.id ?? 0 } });
    }
  } finally {
    await db.close();
  }
}

function startServer(label: string, target: DatabaseTarget, port: number): Promise<ChildProcess> {
  const server = spawn(process.execPath, nodeScriptArgs("scripts/start.ts"), {
    env: {
      ...process.env,
      DATABASE_URL: target.url,
      PORT: String(port),
      HOST: "127.0.0.1",
      TOOLSCOPE_SKIP_BUILD: "1",
      NODE_ENV: "production",
      TOOLSCOPE_NOTIFY: JSON.stringify([{ name: "bench", url: "http://127.0.0.1:9/alerts", format: "webhook" }]),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`${label} did not start:\n${output}`)), 300_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/ready on \S+/.test(output)) {
        clearTimeout(timer);
        resolve(server);
      }
    };
    server.stdout?.on("data", onData);
    server.stderr?.on("data", onData);
    server.on("exit", (code) => reject(new Error(`${label} exited (${code}):\n${output}`)));
  });
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.on("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** Both servers warmed up, then measured in alternating rounds; rate = stored requests over its rounds' time. */
async function sideBySide(provider: string, targets: { none: DatabaseTarget; rules: DatabaseTarget }, port: number) {
  await Promise.all([seed(targets.none, false), seed(targets.rules, true)]);
  const contenders: Contender[] = [
    { label: `${provider}, no alert rules`, port, rounds: [], sent: 0 },
    { label: `${provider}, ${ruleCount} alert rules`, port: port + 1, rounds: [], sent: 0 },
  ];
  const servers = [
    await startServer(contenders[0]?.label ?? "", targets.none, port),
    await startServer(contenders[1]?.label ?? "", targets.rules, port + 1),
  ];
  try {
    if (warmup > 0) for (const contender of contenders) wrk(contender.port, warmup, WARMUP_GROUP, 0);
    const seconds = Math.max(1, Math.round(duration / rounds));
    for (let round = 0; round < rounds; round += 1) {
      const order = round % 2 === 0 ? contenders : [...contenders].reverse();
      for (const contender of order) {
        const result = wrk(contender.port, seconds, GROUP, contender.sent);
        contender.sent += result.sent + connections;
        contender.rounds.push(result);
      }
    }
  } finally {
    for (const server of servers) await stop(server);
  }
  const rates = contenders.map((contender) => {
    const ok = contender.rounds.reduce((sum, round) => sum + round.ok, 0);
    const time = contender.rounds.reduce((sum, round) => sum + round.seconds, 0);
    return { label: contender.label, rate: ok / time, p99: Math.max(...contender.rounds.map((round) => round.p99)) };
  });
  return rates;
}

async function withDatabase<R>(server: string, name: string, run: (url: string) => Promise<R>): Promise<R> {
  const admin = new pg.Client({ connectionString: server, connectionTimeoutMillis: 2000 });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(server);
    url.pathname = `/${name}`;
    return await run(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
    await admin.end().catch(() => {});
  }
}

console.log(`bench:alerts — wrk -t1 -c${connections}, ${rounds} alternating rounds, ${duration} s per server`);
console.log(`machine: ${os.cpus().length} cores, node ${process.version}\n`);
if (!args.includes("--skip-build")) {
  console.log("building the production app…");
  execFileSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
}

const results: { label: string; rate: number; p99: number }[][] = [];
const port = 4400 + Math.floor(Math.random() * 400);
if (only !== "postgres")
  results.push(
    await sideBySide(
      "SQLite",
      {
        none: resolveDatabaseTarget(`file:${path.join(work, "none.db")}`),
        rules: resolveDatabaseTarget(`file:${path.join(work, "rules.db")}`),
      },
      port,
    ),
  );
if (only !== "sqlite") {
  const server = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  try {
    results.push(
      await withDatabase(server, `toolscope_bench_alerts_none_${process.pid}`, (none) =>
        withDatabase(server, `toolscope_bench_alerts_rules_${process.pid}`, (rules) =>
          sideBySide(
            "PostgreSQL",
            { none: resolveDatabaseTarget(none), rules: resolveDatabaseTarget(rules) },
            port + 2,
          ),
        ),
      ),
    );
  } catch (error) {
    console.log(`PostgreSQL run skipped: ${error instanceof Error ? error.message.split("\n")[0] : error}`);
  }
}

console.log("\n| server | accepted callbacks/s | worst round p99 |");
console.log("|---|---:|---:|");
for (const pair of results)
  for (const row of pair) console.log(`| ${row.label} | ${row.rate.toFixed(0)} | ${row.p99.toFixed(1)} ms |`);
console.log("");
for (const [none, rules] of results) {
  if (!none || !rules) continue;
  const cost = (1 - rules.rate / none.rate) * 100;
  console.log(
    `${rules.label}: ${rules.rate.toFixed(0)}/s beside ${none.rate.toFixed(0)}/s without rules = ${cost.toFixed(1)} % cost (target ≤ 5 %: ${cost <= 5 ? "met" : "NOT met"})`,
  );
}
console.log(`load while measuring (1-min load average): ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} cores`);
fs.rmSync(work, { recursive: true, force: true });
