import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

// Tests that start Toolscope (or another program) as a process of its own, kill it, or hold a SQLite file from
// several processes: their own project, so `vitest run --project unit` is the quick loop, and so their timing is
// never shared with more than one other test file.
const PROCESS_LEVEL = [
  "lib/access/exposed-mode.test.ts",
  "lib/access/local-mode.test.ts",
  "lib/ingest/durability.test.ts",
  "lib/ingest/multi-process.test.ts",
  "lib/otel/exporters.test.ts",
  "lib/otel/openllmetry.test.ts",
  "lib/relay/durability.test.ts",
  "lib/relay/in-path.test.ts",
  "lib/relay/relay.test.ts",
  "lib/server/lean-routes.test.ts",
  "lib/server/postgres-faults.test.ts",
  "lib/server/sqlite-lock.test.ts",
  "lib/server/sqlite-multi-process.test.ts",
  "lib/server/untrusted-senders.test.ts",
  "lib/traces/dot-group.test.ts",
  "scripts/toolscope.test.ts",
];

const resolve = {
  alias: {
    "@": path.resolve(import.meta.dirname),
    // Outside Next's react-server build, server code is where it belongs: `server-only` is a no-op here
    // (as in scripts/register.mjs); Next's build still refuses it in client components.
    "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
  },
};
// What both projects share. Not `extends: true`: that would run the global set-up once per project as well.
const shared = { environment: "node", testTimeout: 60_000, hookTimeout: 60_000 } as const;

export default defineConfig({
  resolve,
  test: {
    // Once per run, before any project: migrates the template databases (lib/testing/test-templates.ts).
    globalSetup: ["lib/testing/global-setup.ts"],
    // Vitest's default on 2 cores is one worker; the integration tests spend much of their time waiting on the
    // databases, so two files at a time keep both cores busy.
    maxWorkers: Math.max(2, os.availableParallelism()),
    projects: [
      {
        resolve,
        test: {
          ...shared,
          name: "unit",
          include: ["lib/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts", "app/**/*.test.ts"],
          exclude: PROCESS_LEVEL,
        },
      },
      { resolve, test: { ...shared, name: "process", include: PROCESS_LEVEL } },
    ],
  },
});
