// npm run bench:relay — tools posting results through Toolscope's relay to a bare runtime stand-in, beside the same
// tools posting to Toolscope's /api/callback (bench:ingest's Toolscope figure) and straight to the stand-in, in one
// run on the same database:
//   1. store-and-forward throughput: wrk on /api/relay/sf vs wrk on /api/callback in alternating rounds; a relay
//      round counts until every result it acknowledged has reached the stand-in (end to end). Target ≥ 70 %.
//   2. pass-through added latency: one sender, requests alternating between the stand-in directly and
//      /api/relay/pt; the p50 difference. Target ≤ 2 ms.
//   3. soak: subscription calls stream results through /api/relay/sf while the stand-in goes away for --outage
//      seconds and comes back: every acknowledged result must arrive (0 lost), each call's in order (0 out of order).
// Options: --duration <s> (measured seconds per path, 8), --rounds <n> (4), --connections <n> (32), --latency <n>
//          (requests per path, 2000), --outage <s> (60), --only sqlite|postgres, --skip-soak.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openDatabase } from "../lib/db/client.ts";
import { resolveDatabaseTarget } from "../lib/db/database-url.ts";
import { applyMigrations } from "../lib/db/migrate.ts";
import { recordEvents } from "../lib/events/service.ts";
import { RuntimeStandIn } from "../lib/testing/runtime-stand-in.ts";
import { startCallbackServer } from "../lib/testing/spawn-server.ts";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? Number(args[index + 1]) : fallback;
};
const duration = option("duration", 8);
const rounds = Math.max(1, option("rounds", 4));
const connections = option("connections", 32);
const latencyRequests = option("latency", 2000);
const outage = option("outage", 60);
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : null;
const work = fs.mkdtempSync(path.join(os.tmpdir(), "toolscope-bench-relay-"));
const CALLS = 60_000;

if (spawnSync("sh", ["-c", "command -v wrk"]).status !== 0) {
  console.error("wrk is needed for the load (Debian package): apt-get install -y wrk");
  process.exit(1);
}
const lua = path.join(work, "results.lua");
fs.writeFileSync(
  lua,
  `counter = 0
init = function(args) group = args[1]; counter = tonumber(args[2]); route = args[3] end
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local filler = string.rep("x", 380)
request = function()
  local id = counter
  counter = counter + 1
  local body = '{"type":"tool_result","group_id":"' .. group .. '","id":"call_' .. id .. '","call_id":null,"text":"Deployed instance i-' .. id .. ' ' .. filler .. '"}'
  return wrk.format(nil, route, nil, body)
end
`,
);

type Round = { ok: number; sent: number; seconds: number; p99: string; note: string };
function wrk(port: number, seconds: number, group: string, offset: number, route: string): Round {
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
      String(offset),
      route,
    ],
    { encoding: "utf8" },
  );
  const total = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const time = /requests in ([\d.]+)(m?s)/.exec(out);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  return {
    ok: total - non2xx,
    sent: total,
    seconds: time ? Number(time[1]) / (time[2] === "ms" ? 1000 : 1) : seconds,
    p99: /\s99%\s+([\d.]+\w+)/.exec(out)?.[1] ?? "?",
    note: [non2xx > 0 ? `${non2xx} non-2xx` : "", /Socket errors: (.*)/.exec(out)?.[1] ?? ""]
      .filter(Boolean)
      .join("; "),
  };
}

async function seed(url: string, groups: [string, number, boolean][]) {
  await applyMigrations(resolveDatabaseTarget(url));
  const db = await openDatabase(resolveDatabaseTarget(url));
  for (const [group, count, subscription] of groups)
    for (let start = 0; start < count; start += 1000)
      await recordEvents(
        Array.from({ length: Math.min(1000, count - start) }, (_, i) => ({
          type: "tool_call",
          group_id: group,
          id: `call_${start + i}`,
          name: "deploy",
          ...(subscription ? { subscription: true } : {}),
        })),
        { database: db },
      );
  await db.close();
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function postOnce(port: number, route: string, body: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        path: route,
        method: "POST",
        agent,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

async function throughput(port: number, runtime: RuntimeStandIn) {
  const sums = { callback: { ok: 0, seconds: 0 }, relay: { ok: 0, seconds: 0, acked: 0 } };
  const offsets = { callback: 0, relay: 0 };
  const seconds = Math.max(1, Math.round(duration / rounds));
  wrk(port, 2, "warm", 0, "/api/callback");
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (["callback", "relay"] as const) : (["relay", "callback"] as const);
    for (const which of order) {
      const group = which === "callback" ? "bench-cb" : "bench-relay";
      const route = which === "callback" ? "/api/callback" : "/api/relay/sf";
      const before = runtime.received.length;
      const started = performance.now();
      const result = wrk(port, seconds, group, offsets[which], route);
      offsets[which] += result.sent + connections;
      if (which === "relay") {
        // End to end: the round lasts until the stand-in has every result the round acknowledged.
        await runtime.waitFor((received) => received.length - before >= result.ok, 300_000);
        sums.relay.seconds += (performance.now() - started) / 1000;
        sums.relay.acked += result.ok / result.seconds;
        sums.relay.ok += result.ok;
      } else {
        sums.callback.ok += result.ok;
        sums.callback.seconds += result.seconds;
      }
      console.log(
        `  round ${round + 1} ${which}: ${result.ok} stored in ${result.seconds.toFixed(1)} s, p99 ${result.p99}`,
      );
    }
  }
  return {
    callback: sums.callback.ok / sums.callback.seconds,
    relayEndToEnd: sums.relay.ok / sums.relay.seconds,
    relayAcked: sums.relay.acked / rounds,
  };
}

async function latency(port: number, runtime: RuntimeStandIn) {
  const direct: number[] = [];
  const through: number[] = [];
  for (let i = 0; i < latencyRequests; i++) {
    const body = (group: string) =>
      JSON.stringify({ type: "tool_result", group_id: group, id: `call_${i}`, text: `result ${i} ${"x".repeat(380)}` });
    const a = await postOnce(runtime.port, "/callback", body("bench-direct"));
    const b = await postOnce(port, "/api/relay/pt", body("bench-pt"));
    if (a.status === 200) direct.push(a.ms);
    if (b.status === 200) through.push(b.ms);
  }
  return {
    direct: percentile(direct, 50),
    through: percentile(through, 50),
    directP99: percentile(direct, 99),
    throughP99: percentile(through, 99),
    ok: through.length,
  };
}

async function soak(port: number, runtime: RuntimeStandIn) {
  const calls = 40;
  const acknowledged: string[] = [];
  let stop = false;
  const sender = async (call: number) => {
    for (let k = 0; !stop;) {
      const text = `call_${call} ${k}`;
      try {
        const reply = await postOnce(
          port,
          "/api/relay/sf",
          JSON.stringify({ type: "tool_result", group_id: "bench-soak", id: `call_${call}`, text, subscription: true }),
        );
        if (reply.status === 200) {
          acknowledged.push(text);
          k++;
        }
      } catch {
        // the next try posts it again
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const senders = Array.from({ length: calls }, (_, call) => sender(call));
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  await runtime.stop();
  console.log(`  soak: the runtime stand-in is away for ${outage} s`);
  await new Promise((resolve) => setTimeout(resolve, outage * 1000));
  await runtime.start();
  const back = Date.now();
  console.log("  soak: the runtime stand-in is back");
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  stop = true;
  await Promise.all(senders);
  const firsts = () => new Set(runtime.uniqueMessages().map((m) => String(m.message.text)));
  await runtime.waitFor(() => acknowledged.every((text) => firsts().has(text)), 300_000).catch(() => undefined);
  const received = firsts();
  const lost = acknowledged.filter((text) => !received.has(text)).length;
  let outOfOrder = 0;
  const last = new Map<string, number>();
  for (const { message } of runtime.uniqueMessages()) {
    if (message.group_id !== "bench-soak") continue;
    const [call, k] = String(message.text).split(" ");
    if ((last.get(String(call)) ?? -1) > Number(k)) outOfOrder++;
    last.set(String(call), Math.max(last.get(String(call)) ?? -1, Number(k)));
  }
  return { acknowledged: acknowledged.length, lost, outOfOrder, drainedIn: (Date.now() - back) / 1000 };
}

async function postgresUrl(): Promise<string | null> {
  const server = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  const client = new pg.Client({ connectionString: server });
  try {
    await client.connect();
    await client.query("DROP DATABASE IF EXISTS toolscope_bench_relay WITH (FORCE)");
    await client.query("CREATE DATABASE toolscope_bench_relay");
    const url = new URL(server);
    url.pathname = "/toolscope_bench_relay";
    return url.toString();
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function benchOne(label: string, url: string) {
  console.log(`\n== ${label}`);
  await seed(url, [
    ["warm", 40_000, false],
    ["bench-cb", CALLS, false],
    ["bench-relay", CALLS, false],
    ["bench-pt", latencyRequests, false],
    ["bench-soak", 40, true],
  ]);
  const runtime = await new RuntimeStandIn().start();
  const { child, port } = await startCallbackServer(url, {
    TOOLSCOPE_RELAYS: JSON.stringify([
      { name: "sf", url: runtime.url, mode: "store-and-forward", timeoutMs: 5000 },
      { name: "pt", url: runtime.url, mode: "pass-through", timeoutMs: 5000 },
    ]),
  });
  try {
    const t = await throughput(port, runtime);
    const l = await latency(port, runtime);
    const s = args.includes("--skip-soak") ? null : await soak(port, runtime);
    return { label, ...t, latency: l, soak: s };
  } finally {
    child.kill("SIGTERM");
    await runtime.stop();
  }
}

const results = [];
console.log(
  `load average before: ${os
    .loadavg()
    .map((v) => v.toFixed(1))
    .join(" ")}`,
);
if (only !== "postgres") results.push(await benchOne("SQLite", `file:${path.join(work, "relay.db")}`));
if (only !== "sqlite") {
  const url = await postgresUrl();
  if (url) results.push(await benchOne("PostgreSQL", url));
  else console.log("PostgreSQL: not reachable, skipped");
}
console.log(
  `\nload average after: ${os
    .loadavg()
    .map((v) => v.toFixed(1))
    .join(" ")}`,
);
console.log(
  "\n| database | /api/callback | relay store-and-forward, end to end (acknowledged) | ratio (target ≥ 70 %) | pass-through p50 direct / through (added; target ≤ 2 ms) | soak: acknowledged, lost, out of order |",
);
console.log("|---|---:|---:|---:|---|---|");
for (const r of results) {
  const added = r.latency.through - r.latency.direct;
  console.log(
    `| ${r.label} | ${r.callback.toFixed(0)}/s | ${r.relayEndToEnd.toFixed(0)}/s (${r.relayAcked.toFixed(0)}/s) | ${((100 * r.relayEndToEnd) / r.callback).toFixed(1)} % | ${r.latency.direct.toFixed(2)} / ${r.latency.through.toFixed(2)} ms (+${added.toFixed(2)} ms; p99 ${r.latency.directP99.toFixed(2)} / ${r.latency.throughP99.toFixed(2)}) | ${r.soak ? `${r.soak.acknowledged}, ${r.soak.lost}, ${r.soak.outOfOrder} (drained ${r.soak.drainedIn.toFixed(0)} s after the return)` : "skipped"} |`,
  );
}
fs.rmSync(work, { recursive: true, force: true });
process.exit(0);
