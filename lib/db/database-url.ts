// Which database Toolscope talks to, decided from DATABASE_URL (unset → the embedded SQLite file).
import "server-only";
import path from "node:path";
import { setting } from "../config.ts";

export const PROVIDERS = ["sqlite", "postgresql"] as const;
export type Provider = (typeof PROVIDERS)[number];

export type DatabaseTarget =
  { provider: "sqlite"; file: string; url: string } | { provider: "postgresql"; url: string };

export const DEFAULT_SQLITE_FILE = "data/toolscope.db";

export function resolveDatabaseTarget(
  url: string | undefined = setting("DATABASE_URL"),
  cwd: string = process.cwd(),
): DatabaseTarget {
  const value = url?.trim();
  if (!value) {
    const file = path.resolve(cwd, DEFAULT_SQLITE_FILE);
    return { provider: "sqlite", file, url: `file:${file}` };
  }
  if (value.startsWith("file:")) {
    const rest = value.slice("file:".length).replace(/^\/\/(?=\/)/, "");
    if (!rest) throw new Error("DATABASE_URL=file: needs a path, e.g. file:./data/toolscope.db");
    const file = path.resolve(cwd, rest);
    return { provider: "sqlite", file, url: `file:${file}` };
  }
  if (value.startsWith("postgresql://") || value.startsWith("postgres://")) {
    return { provider: "postgresql", url: value };
  }
  throw new Error(
    `DATABASE_URL must be unset (embedded SQLite), file:<path> (SQLite) or postgresql://… (PostgreSQL); got "${value.split(":")[0]}:…"`,
  );
}

/** The URL without its password, for logs, health output and pages. */
export function redactDatabaseUrl(target: DatabaseTarget): string {
  if (target.provider === "sqlite") return target.url;
  try {
    const parsed = new URL(target.url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "postgresql://(unparseable)";
  }
}
