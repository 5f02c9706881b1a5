import { defineConfig } from "vitest/config";
import path from "node:path";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // Outside Next's react-server build, server code is where it belongs: `server-only` is a no-op here
      // (as in scripts/register.mjs); Next's build still refuses it in client components.
      "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    include: ["lib/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts", "app/**/*.test.ts"],
    environment: "node",
    globalSetup: ["lib/testing/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
