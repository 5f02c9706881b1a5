// bench:replay-step — server time of the replay step view (getReplayStep, what the replay page and
// GET /api/threads/{id}/replay/view run) on a big thread, cold: each figure is the first request of a fresh
// process (no cached trace), after one warm-up query on another thread so the connection is open.
//
//   npm run bench:replay-step -- [--db <url>] [--calls <n>] [--steps 5,middle,last] [--runs <n>]
//
// --db: the database (default file:data/bench-replay.db; a postgresql:// URL works too). --thread: "big"
// (bench:ui's thread, scripts/bench/ui-seed.ts: <calls> parallel calls in one turn, every fourth answered at the
// end) or "turns" (agent turns of 50 parallel calls answered before the next message); seeded once when absent
// (--calls, default 100000). --runs: cold samples per step (3); the median is printed.
import { execFileSync } from "node:child_process";
import { openDatabase, setDatabase } from "../lib/db/client.ts";
import { resolveDatabaseTarget } from "../lib/db/database-url.ts";
import { applyMigrations } from "../lib/db/migrate.ts";
import { recordEvents } from "../lib/events/service.ts";
import { getReplayStep } from "../lib/traces/replay-step.ts";
import { seedThread, seedTurnThread } from "./bench/ui-seed.ts";

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? undefined : args[index + 1];
};
const url = option("db") ?? "file:data/bench-replay.db";
const target = resolveDatabaseTarget(url);
const SHAPE = option("thread") ?? "big";
if (SHAPE !== "big" && SHAPE !== "turns") throw new Error("--thread big|turns");
const GROUP = `bench-${SHAPE}`;

async function open() {
  const db = await openDatabase(target);
  setDatabase(db);
  return db;
}

if (option("measure") !== undefined) {
  // Child: one cold request.
  const db = await open();
  await getReplayStep({ groupId: "bench-warm", step: 1, database: db });
  const wanted = option("measure");
  const started = performance.now();
  const view = await getReplayStep({
    groupId: GROUP,
    ...(wanted === "last" ? {} : { step: Number(wanted) }),
    database: db,
  });
  const elapsed = performance.now() - started;
  console.log(JSON.stringify({ ms: elapsed, step: view.step, total: view.total, bytes: JSON.stringify(view).length }));
  await db.close();
  process.exit(0);
}

await applyMigrations(target);
const db = await open();
if ((await db.client.thread.findUnique({ where: { groupId: GROUP }, select: { id: true } })) === null) {
  const calls = Number(option("calls") ?? 100_000);
  const started = Date.now();
  await (SHAPE === "big" ? seedThread(db, GROUP, calls) : seedTurnThread(db, GROUP, calls));
  console.log(`seeded ${calls.toLocaleString("en-US")} calls in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
if ((await db.client.thread.findUnique({ where: { groupId: "bench-warm" }, select: { id: true } })) === null) {
  await recordEvents([{ type: "message", group_id: "bench-warm", role: "user", text: "warm-up" }], { database: db });
}
const total = (await getReplayStep({ groupId: GROUP, step: 0, database: db })).total;
await db.close();

const runs = Number(option("runs") ?? 3);
const steps = (option("steps") ?? "5,middle,last")
  .split(",")
  .map((step) => (step === "middle" ? String(Math.floor(total / 2)) : step));
console.log(
  `replay step view of bench-${SHAPE}, cold (fresh process per sample), ${target.provider}, ${total.toLocaleString("en-US")} events; median of ${runs}`,
);
console.log("| step | server time | view JSON |");
console.log("|---|---:|---:|");
for (const step of steps) {
  const samples: { ms: number; step: number; bytes: number }[] = [];
  for (let i = 0; i < runs; i += 1) {
    const output = execFileSync(
      process.execPath,
      [
        "--import",
        "./scripts/register.mjs",
        "scripts/bench-replay-step.ts",
        "--db",
        url,
        "--thread",
        SHAPE,
        "--measure",
        step,
      ],
      { encoding: "utf8" },
    );
    samples.push(JSON.parse(output.trim().split("\n").at(-1) ?? "{}"));
  }
  samples.sort((a, b) => a.ms - b.ms);
  const middle = samples[Math.floor(samples.length / 2)];
  console.log(
    `| ${middle?.step} | ${middle?.ms.toFixed(0)} ms (${samples.map((s) => s.ms.toFixed(0)).join(", ")}) | ${((middle?.bytes ?? 0) / 1024).toFixed(0)} KB |`,
  );
}
