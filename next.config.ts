import type { NextConfig } from "next";

// The pages' Content-Security-Policy (script nonces, no 'unsafe-inline' scripts) is set per response by
// proxy.ts (lib/access/csp.ts): a nonce cannot live in static headers.

const nextConfig: NextConfig = {
  // Separate build directories let several e2e runs (different E2E_PORTs) build side by side.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  // API clients must never be redirected (a 308 turns a POST into a second request some clients drop);
  // a trailing slash reaches the same route.
  skipTrailingSlashRedirect: true,
  reactStrictMode: true,
  // Native and WASM modules load from node_modules at run time instead of being bundled.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "pg", "protobufjs"],
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "no-referrer" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
    ];
  },
};

export default nextConfig;
