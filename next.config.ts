import type { NextConfig } from "next";

// Pages render untrusted tool output as text only; the CSP is the second fence behind that rule.
const contentSecurityPolicy = [
  "default-src 'self'",
  // Next's runtime injects inline bootstrap scripts; no third-party origins are allowed.
  `script-src 'self' 'unsafe-inline'${process.env.NODE_ENV === "development" ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join("; ");

const nextConfig: NextConfig = {
  // Separate build directories let several e2e runs (different E2E_PORTs) build side by side.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  // API clients must never be redirected (a 308 turns a POST into a second request some clients drop);
  // a trailing slash reaches the same route.
  skipTrailingSlashRedirect: true,
  reactStrictMode: true,
  // Native and WASM modules load from node_modules at run time instead of being bundled.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "pg", "protobufjs", "@elastic/mockotlpserver"],
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "Content-Security-Policy", value: contentSecurityPolicy },
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "no-referrer" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
    ];
  },
};

export default nextConfig;
