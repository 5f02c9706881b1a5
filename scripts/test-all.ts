// npm test: type check, lint, format check, the duplicates report, unit + integration tests (SQLite and PostgreSQL),
// end-to-end tests in Chromium. Independent stages share the two cores: the production build runs beside the static
// checks (each mostly single-threaded); the vitest suite then has the machine; the end-to-end specs reuse that build.
// Each stage's time is printed, and a summary table at the end.
// PostgreSQL: TEST_DATABASE_URL, else the local server on 127.0.0.1:5432 when one answers.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { detectPostgres, redactUrl, SKIP_BANNER } from "../lib/testing/postgres-detect.ts";

// Entry points by path: some packages (eslint) do not export their bin through package.json.
const bin = (relative: string) => path.resolve("node_modules", relative);
const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
// One build for the whole run, in the directory the end-to-end servers serve from.
env.NEXT_DIST_DIR ||= process.env.E2E_PORT ? `.next-e2e-${process.env.E2E_PORT}` : ".next";
const runStarted = Date.now();

const pgUrl = await detectPostgres(env);
if (pgUrl) {
  env.TEST_DATABASE_URL = pgUrl;
  console.log(`[test] PostgreSQL integration tests on ${redactUrl(pgUrl)}`);
} else if (env.CI) {
  console.error(
    "[test] CI: no PostgreSQL reachable (start it or set TEST_DATABASE_URL); the PostgreSQL tests must run in CI.",
  );
  process.exit(1);
} else {
  console.warn(SKIP_BANNER);
}

type Step = { name: string; command: string; args: string[]; extraEnv?: Record<string, string> };
type Outcome = { name: string; ok: boolean; seconds: number; endedAt: number };
const node = (name: string, args: string[], extraEnv?: Record<string, string>): Step => ({
  name,
  command: process.execPath,
  args,
  extraEnv,
});
const outcomes: Outcome[] = [];
const seconds = (since: number) => (Date.now() - since) / 1000;

/** Runs a step; `buffered` keeps its output until it ends (steps running side by side would interleave). */
function run(step: Step, buffered: boolean): Promise<boolean> {
  const started = Date.now();
  if (!buffered) console.log(`\n[test] ── ${step.name} ──`);
  return new Promise((resolve) => {
    const child = spawn(step.command, step.args, {
      env: { ...env, ...step.extraEnv },
      stdio: buffered ? ["ignore", "pipe", "pipe"] : "inherit",
    });
    const chunks: Buffer[] = [];
    child.stdout?.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => chunks.push(chunk));
    const finish = (ok: boolean, note = "") => {
      if (buffered) process.stdout.write(`\n[test] ── ${step.name} ──\n${Buffer.concat(chunks).toString()}${note}`);
      const outcome = { name: step.name, ok, seconds: seconds(started), endedAt: seconds(runStarted) };
      outcomes.push(outcome);
      console.log(`[test] ${step.name}: ${ok ? "ok" : "FAILED"} in ${outcome.seconds.toFixed(1)} s`);
      resolve(ok);
    };
    child.on("error", (error) => finish(false, `${error.message}\n`));
    child.on("close", (code) => finish(code === 0, code === 0 ? "" : `(exit ${code})\n`));
  });
}

/** Runs steps one after another (every one, even after a failure); true when all passed. */
async function lane(steps: Step[], buffered: boolean): Promise<boolean> {
  let ok = true;
  for (const step of steps) ok = (await run(step, buffered)) && ok;
  return ok;
}

/** `duplicates --change` against where this branch left main, when this machine has the command (CI machines may not). */
function duplicatesStep(): Step | null {
  const found = spawnSync("sh", ["-c", "command -v duplicates"], { encoding: "utf8" });
  if (found.status !== 0 || !found.stdout.trim()) {
    console.log("[test] duplicates: the `duplicates` command is not on this machine; step skipped");
    return null;
  }
  const base = ["origin/main", "main"]
    .map((ref) => spawnSync("git", ["merge-base", "HEAD", ref], { encoding: "utf8" }))
    .find((r) => r.status === 0 && r.stdout.trim())
    ?.stdout.trim();
  return {
    name: "duplicates",
    command: found.stdout.trim(),
    args: [...(base ? ["--change", "--base", base] : ["--change"]), "--seconds", "90"],
  };
}

fs.mkdirSync("test-results", { recursive: true });
const checks: Step[] = [
  node("typecheck", [bin("typescript/bin/tsc"), "--noEmit", "-p", "."]),
  node("lint", [bin("eslint/bin/eslint.js"), "--max-warnings=0", "."]),
  node("format", [bin("prettier/bin/prettier.cjs"), "--check", "."]),
];
const duplicates = duplicatesStep();
if (duplicates) checks.push(duplicates);
const build = node("build", [bin("next/dist/bin/next"), "build"]);

const [checksOk, buildOk] = await Promise.all([lane(checks, true), lane([build], true)]);
const testsOk = await run(
  node("unit + integration", [
    bin("vitest/vitest.mjs"),
    "run",
    "--reporter=default",
    "--reporter=json",
    "--outputFile.json=test-results/vitest.json",
  ]),
  false,
);
const e2eOk = buildOk
  ? await run(
      node("end-to-end", ["--import", "./scripts/register.mjs", "scripts/e2e.ts"], {
        E2E_SKIP_BUILD: "1",
        TOOLSCOPE_SKIP_BUILD: "1",
      }),
      false,
    )
  : (console.log("[test] end-to-end: not run (the build failed)"), false);
const allOk = checksOk && buildOk && testsOk && e2eOk;

function readCounts(file: string, pick: (json: Record<string, unknown>) => [number, number]): [number, number] {
  try {
    return pick(JSON.parse(fs.readFileSync(file, "utf8")));
  } catch {
    return [0, 0];
  }
}
const vitest = readCounts("test-results/vitest.json", (j) => [
  Number(j.numPassedTests ?? 0),
  Number(j.numFailedTests ?? 0),
]);
const playwright = readCounts("test-results/playwright.json", (j) => {
  const stats = (j.stats ?? {}) as Record<string, number>;
  return [Number(stats.expected ?? 0), Number(stats.unexpected ?? 0) + Number(stats.flaky ?? 0)];
});
const failedSteps = outcomes.filter((o) => !o.ok).map((o) => o.name);
const passed = vitest[0] + playwright[0];
const failed =
  vitest[1] + playwright[1] + (failedSteps.length > 0 && vitest[1] + playwright[1] === 0 ? failedSteps.length : 0);
console.log("\n[test] stage times (s):");
for (const o of outcomes)
  console.log(`  ${o.name.padEnd(20)} ${o.seconds.toFixed(1).padStart(7)}  (ended at ${o.endedAt.toFixed(0)} s)`);
console.log(`  ${"total".padEnd(20)} ${seconds(runStarted).toFixed(1).padStart(7)}`);
console.log(`\n[test] steps failed: ${failedSteps.length ? failedSteps.join(", ") : "none"}`);
if (!pgUrl) console.warn(SKIP_BANNER);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(allOk ? 0 : 1);
