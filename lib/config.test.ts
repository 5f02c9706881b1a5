// The environment module: defaults, precise refusals, and the rule that no other module reads a setting itself.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SETTINGS } from "./config-settings.ts";
import {
  checkSettings,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_REFUSED_BODY_BYTES,
  setting,
  settingProblems,
} from "./config.ts";
import { DEFAULT_MAX_INFLIGHT_BYTES } from "./http/inflight.ts";
import { DEFAULT_MODEL_TIMEOUT_MS } from "./models/schemas.ts";
import { DEFAULT_MAX_AGE_MS, DEFAULT_MAX_ATTEMPTS } from "./relay/schemas.ts";

const ROOT = path.resolve(import.meta.dirname, "..");

describe("setting()", () => {
  it("gives each setting's default when it is unset or blank", () => {
    expect(settingProblems({})).toEqual([]);
    expect(setting("PORT", {})).toBe(3000);
    expect(setting("PORT", { PORT: "  " })).toBe(3000);
    expect(setting("TOOLSCOPE_RETENTION_DAYS", {})).toBeUndefined();
    expect(setting("TOOLSCOPE_CALLBACK_SECRET", {})).toEqual([]);
    expect(setting("TOOLSCOPE_CALLBACK_SECRET", { TOOLSCOPE_CALLBACK_SECRET: "whsec_a, whsec_b" })).toEqual([
      "whsec_a",
      "whsec_b",
    ]);
  });

  it("keeps the defaults a domain also names equal to its constants", () => {
    expect(setting("TOOLSCOPE_MAX_BODY_BYTES", {})).toBe(DEFAULT_MAX_BODY_BYTES);
    expect(setting("TOOLSCOPE_REFUSED_BODY_BYTES", {})).toBe(DEFAULT_REFUSED_BODY_BYTES);
    expect(setting("TOOLSCOPE_MAX_INFLIGHT_BYTES", {})).toBe(DEFAULT_MAX_INFLIGHT_BYTES);
    expect(setting("TOOLSCOPE_MODEL_TIMEOUT_MS", {})).toBe(DEFAULT_MODEL_TIMEOUT_MS);
    expect(setting("TOOLSCOPE_OUTBOX_MAX_ATTEMPTS", {})).toBe(DEFAULT_MAX_ATTEMPTS);
    expect(setting("TOOLSCOPE_OUTBOX_MAX_AGE_MS", {})).toBe(DEFAULT_MAX_AGE_MS);
  });

  it.each([
    ["TOOLSCOPE_DB_LOCK_WAIT_MS", "5s", /^TOOLSCOPE_DB_LOCK_WAIT_MS must be a whole number from 0 to .*, got "5s"$/],
    ["TOOLSCOPE_MAX_BODY_BYTES", "100", /^TOOLSCOPE_MAX_BODY_BYTES must be a whole number from 1024 to/],
    ["PORT", "70000", /^PORT must be a whole number from 0 to 65535, got "70000"$/],
    ["TOOLSCOPE_OUTBOX_LEASE_MS", "-1", /^TOOLSCOPE_OUTBOX_LEASE_MS must be a whole number from 1000/],
    ["TOOLSCOPE_RETENTION_DAYS", "0", /^TOOLSCOPE_RETENTION_DAYS must be a positive number, got "0"$/],
    ["TOOLSCOPE_SKIP_BUILD", "yes", /^TOOLSCOPE_SKIP_BUILD must be 0 or 1, got "yes"$/],
  ] as const)("refuses %s=%s naming the variable, the rule and the value", (name, value, message) => {
    expect(() => setting(name, { [name]: value })).toThrow(message);
  });

  it("never repeats a secret's value in an error", () => {
    const spec = SETTINGS.TOOLSCOPE_SECRET;
    expect("secret" in spec && spec.secret).toBe(true);
    const secretSettings = Object.entries(SETTINGS).filter(([, value]) => "secret" in value && value.secret);
    expect(secretSettings.map(([name]) => name)).toEqual(["TOOLSCOPE_SECRET", "TOOLSCOPE_CALLBACK_SECRET"]);
  });

  it("lists every bad setting at once", () => {
    expect(() => checkSettings({ PORT: "x", TOOLSCOPE_DEADLINE_SWEEP_MS: "1" })).toThrow(
      /^Bad settings:\n {2}PORT must be .*\n {2}TOOLSCOPE_DEADLINE_SWEEP_MS must be a whole number from 10 /,
    );
  });
});

// Product code (not tests, benchmarks or test support) reads the environment only through lib/config.ts.
// Allowed outside it: passing `process.env` along whole, Next's own variables, CI.
const READ =
  /process\.env\s*(?:\.\s*([A-Za-z_][A-Za-z0-9_]*)|\[)|\benv\s*\.\s*(TOOLSCOPE_[A-Z0-9_]*|DATABASE_URL|PORT|HOST)\b/g;
const ALLOWED = new Set(["NODE_ENV", "NEXT_DIST_DIR", "NEXT_TELEMETRY_DISABLED", "CI"]);
const PRODUCT = ["lib", "app", "components", "proxy.ts", "scripts/start.ts", "scripts/start-server.ts"];
const PRODUCT_SCRIPTS = [
  "scripts/serve-callbacks.ts",
  "scripts/demo.ts",
  "scripts/toolscope.ts",
  "scripts/toolscope-prune.ts",
];

function sourceFiles(entry: string): string[] {
  const full = path.join(ROOT, entry);
  if (!fs.existsSync(full)) return [];
  if (fs.statSync(full).isFile()) return [entry];
  return fs.readdirSync(full, { withFileTypes: true }).flatMap((child) => {
    const rel = path.join(entry, child.name);
    if (child.isDirectory()) return child.name === "generated" || child.name === "testing" ? [] : sourceFiles(rel);
    return /\.(ts|tsx|mjs)$/.test(child.name) && !/\.test\.tsx?$/.test(child.name) ? [rel] : [];
  });
}

describe("one door to the environment", () => {
  it("no product module reads a setting from the environment itself", () => {
    const readers: string[] = [];
    for (const file of [...PRODUCT, ...PRODUCT_SCRIPTS].flatMap(sourceFiles)) {
      if (file === path.join("lib", "config.ts")) continue;
      const text = fs.readFileSync(path.join(ROOT, file), "utf8");
      for (const match of text.matchAll(READ)) {
        const name = match[1] ?? match[2] ?? "[…]";
        if (!ALLOWED.has(name)) readers.push(`${file}: ${match[0]}`);
      }
    }
    expect(readers, "read it with setting() from lib/config.ts and declare it in lib/config-settings.ts").toEqual([]);
  });
});
