// npm start, after scripts/start.ts made sure the Prisma clients are current: check the access settings, migrate the
// database, build the app when the build is missing or older than the sources (the schema included), then serve it
// (PORT, default 3000) with Toolscope's server (lib/server/toolscope-server.ts).
// Without TOOLSCOPE_SECRET it listens on loopback only (127.0.0.1 and ::1) and refuses any other HOST.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { AccessConfigError, accessSettings, refuseToBind } from "../lib/access/settings.ts";
import { ConfigError, checkSettings, setting } from "../lib/config.ts";
import { setupIsOpen, setupToken } from "../lib/access/users.ts";
import { startToolscopeServer } from "../lib/server/toolscope-server.ts";
import { prepareDatabase } from "./prepare-db.ts";

const root = process.cwd();
process.env.NEXT_TELEMETRY_DISABLED = "1";

function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (
      entry.name === "node_modules" ||
      entry.name === "generated" ||
      entry.name.startsWith(".") ||
      entry.name.endsWith(".test.ts")
    )
      continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSourceMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

function buildIsCurrent(): boolean {
  const buildId = path.join(root, process.env.NEXT_DIST_DIR || ".next", "BUILD_ID");
  if (!fs.existsSync(buildId)) return false;
  const built = fs.statSync(buildId).mtimeMs;
  const sources = ["app", "components", "lib", "prisma", "public"].filter((d) => fs.existsSync(path.join(root, d)));
  const configs = ["next.config.ts", "proxy.ts", "package.json", "tsconfig.json"].filter((f) =>
    fs.existsSync(path.join(root, f)),
  );
  const newest = Math.max(
    ...sources.map((d) => newestSourceMtime(path.join(root, d))),
    ...configs.map((f) => fs.statSync(path.join(root, f)).mtimeMs),
  );
  return newest <= built;
}

try {
  checkSettings();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`[toolscope] ${error.message}`);
  process.exit(1);
}
const requestedHost = setting("HOST") ?? null;
const hosts = requestedHost === null ? ["127.0.0.1", "::1"] : [requestedHost];
try {
  const settings = accessSettings();
  const refusal = refuseToBind(hosts[0] ?? "", settings);
  if (refusal !== null) {
    console.error(`[toolscope] ${refusal}`);
    process.exit(1);
  }
  if (
    settings.mode === "exposed" &&
    settings.allowedHosts.length === 0 &&
    requestedHost !== null &&
    requestedHost !== "127.0.0.1"
  ) {
    console.warn(
      "[toolscope] no TOOLSCOPE_PUBLIC_URL or TOOLSCOPE_ALLOWED_HOSTS: only loopback names and IP addresses are accepted as Host",
    );
  }
} catch (error) {
  if (!(error instanceof AccessConfigError)) throw error;
  console.error(`[toolscope] ${error.message}`);
  process.exit(1);
}

await prepareDatabase();
if (setting("TOOLSCOPE_SKIP_BUILD") !== "1" && !buildIsCurrent()) {
  console.log("[toolscope] building the app (first start, or sources changed)…");
  const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
  execFileSync(process.execPath, [nextBin, "build"], { cwd: root, stdio: "inherit", env: process.env });
}
const port = setting("PORT");
const settings = accessSettings();
const setupOpen = await setupIsOpen();
await startToolscopeServer({
  port,
  hosts,
  dir: root,
  onReady(url) {
    if (settings.mode === "local") {
      console.log("[toolscope] local mode: loopback only, no sign-in (docs/security.md to expose it)");
    } else if (setupOpen) {
      const base = settings.publicUrl?.origin ?? url;
      console.log(
        `[toolscope] no user yet: create the first admin at ${base}/setup?token=${setupToken(settings)} or with \`npm run toolscope -- users create --email … --password …\``,
      );
    }
  },
});
