// End-to-end tests: a production build served by Toolscope's own server, driven in the system Chromium.
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { findChromium } from "./e2e/support/chromium.ts";
import { EXPOSED_SECRET } from "./e2e/support/exposed.ts";
import { E2E_ALERTS_SECRET, E2E_NOTIFY } from "./e2e/support/alerts.ts";
import { E2E_RELAY_SECRET, E2E_RELAYS } from "./e2e/support/relay.ts";
import {
  FAKE_MODEL_TARGETS,
  FAKE_PROVIDER_KEY,
  FAKE_PROVIDER_PORT,
  FAKE_PROVIDER_URL,
} from "./e2e/support/fake-provider.ts";

const port = Number(process.env.E2E_PORT ?? 3210);
const dataDir = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), `toolscope-e2e-${process.pid}`);
const chromium = findChromium();
/** A second Toolscope in exposed mode (TOOLSCOPE_SECRET set) for the sign-in and key specs (e2e/support/exposed.ts). */
const exposedPort = port + 1;

export default defineConfig({
  testDir: "e2e",
  // Per-port output, so parallel runs (different E2E_PORTs) never delete each other's artifacts.
  outputDir: process.env.E2E_PORT ? `test-results/e2e-${process.env.E2E_PORT}` : "test-results/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI
    ? [["list"], ["json", { outputFile: "test-results/playwright.json" }]]
    : [["list"], ["json", { outputFile: "test-results/playwright.json" }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    ...devices["Desktop Chrome"],
    launchOptions: {
      executablePath: chromium ?? undefined,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  webServer: [
    {
      command: "node --import ./scripts/register.mjs scripts/fake-provider.ts",
      url: `${FAKE_PROVIDER_URL}/__fake/requests`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "pipe",
      stderr: "pipe",
      env: { FAKE_PROVIDER_PORT: String(FAKE_PROVIDER_PORT), FAKE_PROVIDER_KEY },
    },
    {
      command: "node --import ./scripts/register.mjs scripts/start.ts",
      url: `http://127.0.0.1:${port}/api/health`,
      reuseExistingServer: false,
      timeout: 240_000,
      stdout: "pipe",
      stderr: "pipe",
      env: {
        PORT: String(port),
        HOST: "127.0.0.1",
        DATABASE_URL: `file:${path.join(dataDir, "e2e.db")}`,
        NEXT_TELEMETRY_DISABLED: "1",
        TOOLSCOPE_DEADLINE_SWEEP_MS: "250",
        // The specs seed hundreds of deliberate refusals (unknown calls, bad bodies) from one address; the refusal
        // rate limit itself is tested in lib/server/untrusted-senders.test.ts, so here it only must not interfere.
        TOOLSCOPE_REFUSAL_BURST: "100000",
        NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? "",
        // Forks go to the fake provider; the key reaches the server only through the variable its targets name.
        TOOLSCOPE_MODELS: JSON.stringify(FAKE_MODEL_TARGETS),
        E2E_FAKE_PROVIDER_KEY: FAKE_PROVIDER_KEY,
        // The in-path specs' runtime stand-in (e2e/relay.spec.ts) listens beside the app (E2E_PORT + 3, between specs).
        TOOLSCOPE_RELAYS: JSON.stringify(E2E_RELAYS),
        E2E_RELAY_SECRET,
        // The alerts spec's webhook receiver (e2e/alerts.spec.ts) listens beside the app (E2E_PORT + 4).
        TOOLSCOPE_NOTIFY: JSON.stringify(E2E_NOTIFY),
        E2E_ALERTS_SECRET,
        TOOLSCOPE_ALERTS_SWEEP_MS: "250",
      },
    },
    {
      command: "node --import ./scripts/register.mjs scripts/start.ts",
      url: `http://127.0.0.1:${exposedPort}/api/health`,
      reuseExistingServer: false,
      timeout: 240_000,
      stdout: "pipe",
      stderr: "pipe",
      env: {
        PORT: String(exposedPort),
        HOST: "127.0.0.1",
        DATABASE_URL: `file:${path.join(dataDir, "e2e-exposed.db")}`,
        NEXT_TELEMETRY_DISABLED: "1",
        NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? "",
        TOOLSCOPE_SKIP_BUILD: "1",
        TOOLSCOPE_SECRET: EXPOSED_SECRET,
      },
    },
  ],
});
