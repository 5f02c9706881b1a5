// npm run test:e2e: builds the app and runs the Playwright specs in the system Chromium.
// Fails (never skips) when no Chromium is installed, and says how to install one.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { findChromium } from "../e2e/support/chromium.ts";

const chromium = findChromium();
if (!chromium) {
  console.error(
    "No Chromium found for the end-to-end tests. Install Debian's: `sudo apt-get install -y chromium` (or set CHROMIUM_PATH).\n" +
      "Playwright cannot download its own browser here.",
  );
  process.exit(1);
}
console.log(`[e2e] using ${chromium}`);
const require = createRequire(import.meta.url);
const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", CHROMIUM_PATH: chromium };
// A run on a non-default port builds into its own directory, so parallel runs never share one build.
if (process.env.E2E_PORT && !process.env.NEXT_DIST_DIR) env.NEXT_DIST_DIR = `.next-e2e-${process.env.E2E_PORT}`;
// E2E_SKIP_BUILD=1: npm test built the app already (into NEXT_DIST_DIR), beside the static checks.
if (process.env.E2E_SKIP_BUILD !== "1") {
  const build = spawnSync(process.execPath, [require.resolve("next/dist/bin/next"), "build"], {
    stdio: "inherit",
    env,
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const run = spawnSync(process.execPath, [require.resolve("@playwright/test/cli"), "test", ...process.argv.slice(2)], {
  stdio: "inherit",
  env,
});
process.exit(run.status ?? 1);
