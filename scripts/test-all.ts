// npm test: type check, lint, unit + integration tests (SQLite and PostgreSQL), end-to-end tests in Chromium.
// PostgreSQL: TEST_DATABASE_URL, else the local server on 127.0.0.1:5432 when one answers.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { detectPostgres, redactUrl, SKIP_BANNER } from "../lib/testing/postgres-detect.ts";

// Entry points by path: some packages (eslint) do not export their bin through package.json.
const bin = (relative: string) => path.resolve("node_modules", relative);
const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

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

fs.mkdirSync("test-results", { recursive: true });
const steps: { name: string; args: string[] }[] = [
  { name: "typecheck", args: [bin("typescript/bin/tsc"), "--noEmit", "-p", "."] },
  { name: "lint", args: [bin("eslint/bin/eslint.js"), "--max-warnings=0", "."] },
  { name: "format", args: [bin("prettier/bin/prettier.cjs"), "--check", "."] },
  {
    name: "unit + integration",
    args: [
      bin("vitest/vitest.mjs"),
      "run",
      "--reporter=default",
      "--reporter=json",
      "--outputFile.json=test-results/vitest.json",
    ],
  },
  { name: "end-to-end", args: ["--import", "./scripts/register.mjs", "scripts/e2e.ts"] },
];

const failedSteps: string[] = [];
for (const step of steps) {
  console.log(`\n[test] ── ${step.name} ──`);
  const started = Date.now();
  const run = spawnSync(process.execPath, step.args, { stdio: "inherit", env });
  const ok = run.status === 0;
  console.log(
    `[test] ${step.name}: ${ok ? "ok" : `FAILED (exit ${run.status})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  if (!ok) failedSteps.push(step.name);
}

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
const passed = vitest[0] + playwright[0];
const failed =
  vitest[1] + playwright[1] + (failedSteps.length > 0 && vitest[1] + playwright[1] === 0 ? failedSteps.length : 0);
console.log(`\n[test] steps failed: ${failedSteps.length ? failedSteps.join(", ") : "none"}`);
if (!pgUrl) console.warn(SKIP_BANNER);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failedSteps.length === 0 ? 0 : 1);
