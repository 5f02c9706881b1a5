// npm test: type check, lint, unit + integration tests (SQLite and PostgreSQL), end-to-end tests in Chromium.
// PostgreSQL: TEST_DATABASE_URL, else the local server on 127.0.0.1:5432 when one answers.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";

// Entry points by path: some packages (eslint) do not export their bin through package.json.
const bin = (relative: string) => path.resolve("node_modules", relative);
const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

async function detectPostgres(): Promise<string | null> {
  if (env.TEST_DATABASE_URL) return env.TEST_DATABASE_URL;
  const local = "postgresql://postgres@127.0.0.1:5432/postgres";
  const client = new pg.Client({ connectionString: local, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return local;
  } catch {
    return null;
  }
}

const pgUrl = await detectPostgres();
if (pgUrl) {
  env.TEST_DATABASE_URL = pgUrl;
  console.log(`[test] PostgreSQL integration tests on ${pgUrl.replace(/:[^:@/]*@/, ":***@")}`);
} else {
  console.log("[test] No PostgreSQL reachable (set TEST_DATABASE_URL): integration tests run on SQLite only.");
}

fs.mkdirSync("test-results", { recursive: true });
const steps: { name: string; args: string[] }[] = [
  { name: "typecheck", args: [bin("typescript/bin/tsc"), "--noEmit", "-p", "."] },
  { name: "lint", args: [bin("eslint/bin/eslint.js"), "--max-warnings=0", "."] },
  {
    name: "unit + integration",
    args: [bin("vitest/vitest.mjs"), "run", "--reporter=default", "--reporter=json", "--outputFile.json=test-results/vitest.json"],
  },
  { name: "end-to-end", args: ["--import", "./scripts/register.mjs", "scripts/e2e.ts"] },
];

const failedSteps: string[] = [];
for (const step of steps) {
  console.log(`\n[test] ── ${step.name} ──`);
  const started = Date.now();
  const run = spawnSync(process.execPath, step.args, { stdio: "inherit", env });
  const ok = run.status === 0;
  console.log(`[test] ${step.name}: ${ok ? "ok" : `FAILED (exit ${run.status})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (!ok) failedSteps.push(step.name);
}

function readCounts(file: string, pick: (json: Record<string, unknown>) => [number, number]): [number, number] {
  try {
    return pick(JSON.parse(fs.readFileSync(file, "utf8")));
  } catch {
    return [0, 0];
  }
}
const vitest = readCounts("test-results/vitest.json", (j) => [Number(j.numPassedTests ?? 0), Number(j.numFailedTests ?? 0)]);
const playwright = readCounts("test-results/playwright.json", (j) => {
  const stats = (j.stats ?? {}) as Record<string, number>;
  return [Number(stats.expected ?? 0), Number(stats.unexpected ?? 0) + Number(stats.flaky ?? 0)];
});
const passed = vitest[0] + playwright[0];
const failed = vitest[1] + playwright[1] + (failedSteps.length > 0 && vitest[1] + playwright[1] === 0 ? failedSteps.length : 0);
console.log(`\n[test] steps failed: ${failedSteps.length ? failedSteps.join(", ") : "none"}`);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failedSteps.length === 0 ? 0 : 1);
