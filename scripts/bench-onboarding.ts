// npm run bench:onboarding: what a new user waits for, timed on this machine. A fresh clone of this checkout's HEAD
// in a temporary folder, then exactly the README's two commands: `npm install`, `npm start` (until /api/health
// answers), then `npm run demo`, and the first page showing a demo thread. Prints each step and the total.
// BENCH_PORT (default 3390) picks the port; --keep leaves the folder; the npm cache is whatever this machine has.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const port = Number(process.env.BENCH_PORT ?? 3390);
const base = `http://127.0.0.1:${port}`;
const keep = process.argv.includes("--keep");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolscope-onboarding-"));
const app = path.join(dir, "toolscope");
const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), NEXT_TELEMETRY_DISABLED: "1" };
for (const name of ["DATABASE_URL", "NEXT_DIST_DIR", "TOOLSCOPE_SKIP_BUILD", "TOOLSCOPE_SECRET", "HOST"])
  delete env[name];
const steps: { name: string; seconds: number }[] = [];
const started = Date.now();

function step<T>(name: string, work: () => T): T {
  const at = Date.now();
  console.log(`\n[onboarding] ── ${name} ──`);
  const value = work();
  steps.push({ name, seconds: (Date.now() - at) / 1000 });
  return value;
}

async function stepAsync<T>(name: string, work: () => Promise<T>): Promise<T> {
  const at = Date.now();
  console.log(`\n[onboarding] ── ${name} ──`);
  const value = await work();
  steps.push({ name, seconds: (Date.now() - at) / 1000 });
  return value;
}

function sh(command: string, args: string[], cwd: string): void {
  const run = spawnSync(command, args, { cwd, env, stdio: "inherit" });
  if (run.status !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${run.status}`);
}

async function waitForHealth(server: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`npm start exited with ${server.exitCode}`);
    try {
      const reply = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (reply.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no answer from ${base}/api/health in ${timeoutMs / 1000} s`);
}

let server: ChildProcess | null = null;
try {
  step("git clone", () => sh("git", ["clone", "-q", process.cwd(), app], dir));
  step("npm install", () => sh("npm", ["install", "--no-audit", "--no-fund"], app));
  server = spawn("npm", ["start"], { cwd: app, env, stdio: "inherit", detached: true });
  const running = server;
  await stepAsync("npm start (until /api/health answers)", () => waitForHealth(running, 600_000));
  step("npm run demo", () => sh("npm", ["run", "demo"], app));
  await stepAsync("first page shows a demo thread", async () => {
    const page = await (await fetch(`${base}/`)).text();
    if (!/demo-/.test(page)) throw new Error("the first page shows no demo thread");
  });
} finally {
  if (server?.pid) process.kill(-server.pid, "SIGTERM");
  if (!keep) fs.rmSync(dir, { recursive: true, force: true });
}
console.log("\n[onboarding] times (s):");
for (const s of steps) console.log(`  ${s.name.padEnd(40)} ${s.seconds.toFixed(1).padStart(7)}`);
console.log(`  ${"total".padEnd(40)} ${((Date.now() - started) / 1000).toFixed(1).padStart(7)}`);
console.log(`  (${os.availableParallelism()} cores, load average ${(os.loadavg()[0] ?? 0).toFixed(1)} at the end)`);
