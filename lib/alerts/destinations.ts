// Where alerts may go: TOOLSCOPE_NOTIFY (a JSON array of {name, url, format, secretEnv?}) read and checked, like
// relay targets (lib/relay/targets.ts); each destination's signing secret read from the variable it names, at send
// time. No URL ever comes from a request: a rule names destinations, and the outbox resolves "notify:<name>" here.
import "server-only";
import { z } from "zod";
import { setting } from "../config.ts";
import { formatIssuePath } from "../http/issue-path.ts";
import type { Destination } from "../outbox/sender.ts";
import { notifyDestinationSchema, type NotifyDestination, type NotifyDestinationsReply } from "./schemas.ts";

export type Environment = Readonly<Record<string, string | undefined>>;
export type NotifyDestinations = { destinations: NotifyDestination[]; problem: string | null };

const destinationsSchema = z.array(notifyDestinationSchema).max(100);
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_ATTEMPTS = 20;
const DEFAULT_MAX_AGE_MS = 24 * 3_600_000;

let cache: { raw: string | undefined; value: NotifyDestinations } | null = null;

/** Reads TOOLSCOPE_NOTIFY; a bad value is reported as `problem` (pages show it, rules cannot name it), never thrown. */
export function readNotifyDestinations(env: Environment = process.env): NotifyDestinations {
  const raw = setting("TOOLSCOPE_NOTIFY", env)?.trim();
  if (env === process.env && cache && cache.raw === raw) return cache.value;
  const value = parseDestinations(raw);
  if (env === process.env) cache = { raw, value };
  return value;
}

function parseDestinations(raw: string | undefined): NotifyDestinations {
  if (!raw) return { destinations: [], problem: null };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return {
      destinations: [],
      problem: `TOOLSCOPE_NOTIFY is not JSON: ${error instanceof SyntaxError ? error.message : "unparseable"}`,
    };
  }
  const parsed = destinationsSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      destinations: [],
      problem: `TOOLSCOPE_NOTIFY${issue ? `${formatIssuePath(issue.path)}: ${issue.message}` : " is not valid"}`,
    };
  }
  const seen = new Set<string>();
  for (const destination of parsed.data) {
    if (seen.has(destination.name))
      return { destinations: [], problem: `TOOLSCOPE_NOTIFY names the destination "${destination.name}" twice` };
    seen.add(destination.name);
  }
  return { destinations: parsed.data, problem: null };
}

export function findNotifyDestination(name: string, env: Environment = process.env): NotifyDestination | null {
  return readNotifyDestinations(env).destinations.find((destination) => destination.name === name) ?? null;
}

/** The outbox's resolver for "notify:<name>" destinations (a changed configuration applies to the next attempt). */
export function resolveNotifyDestination(
  id: string,
  env: Environment = process.env,
): Destination | { problem: string } {
  const name = id.slice("notify:".length);
  const { problem } = readNotifyDestinations(env);
  if (problem !== null) return { problem: `notify destinations are misconfigured: ${problem}` };
  const destination = findNotifyDestination(name, env);
  if (!destination) return { problem: `notify destination "${name}" is no longer configured (TOOLSCOPE_NOTIFY)` };
  const secret = destination.secretEnv === undefined ? null : (env[destination.secretEnv] ?? null);
  if (destination.secretEnv !== undefined && !secret)
    return { problem: `the secret of notify destination "${name}" is missing: set ${destination.secretEnv}` };
  return {
    id,
    url: destination.url,
    secret,
    timeoutMs: destination.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxAttempts: destination.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    maxAgeMs: DEFAULT_MAX_AGE_MS,
  };
}

export function listNotifyDestinations(env: Environment = process.env): NotifyDestinationsReply {
  const { destinations, problem } = readNotifyDestinations(env);
  return {
    problem,
    destinations: destinations.map((destination) => ({
      name: destination.name,
      url: destination.url,
      format: destination.format,
      secretEnv: destination.secretEnv ?? null,
      secretState: destination.secretEnv === undefined ? "not_needed" : env[destination.secretEnv] ? "set" : "missing",
    })),
  };
}

/** TOOLSCOPE_PUBLIC_URL: the dashboard's address as people open it, for absolute links in messages (else paths). */
export function publicBaseUrl(env: Environment = process.env): string | null {
  const raw = setting("TOOLSCOPE_PUBLIC_URL", env)?.trim();
  if (!raw) return null;
  try {
    const url = new URL(raw);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href.replace(/\/+$/, "") : null;
  } catch {
    return null;
  }
}
