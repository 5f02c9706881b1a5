// The relay targets this server may forward to: TOOLSCOPE_RELAYS (a JSON array) read and checked, like model
// targets (lib/models/targets.ts); each target's signing secret read from the variable it names, at send time.
// No URL ever comes from a request: a relay route names a target, and the outbox resolves "relay:<name>" here.
import "server-only";
import { z } from "zod";
import { AppError } from "../http/app-error.ts";
import { formatIssuePath } from "../http/issue-path.ts";
import type { Destination } from "../outbox/sender.ts";
import { namedSecret, setting } from "../config.ts";
import { DEFAULT_RELAY_TIMEOUT_MS, relayTargetSchema, type RelayTarget, type RelayTargetsReply } from "./schemas.ts";

export type Environment = Readonly<Record<string, string | undefined>>;
export type RelayTargets = { targets: RelayTarget[]; problem: string | null };

const targetsSchema = z.array(relayTargetSchema).max(100);

let cache: { raw: string | undefined; value: RelayTargets } | null = null;

/** Reads TOOLSCOPE_RELAYS; a bad value is reported as `problem` (pages show it, relay routes answer 503), never thrown. */
export function readRelayTargets(env: Environment = process.env): RelayTargets {
  const raw = setting("TOOLSCOPE_RELAYS", env);
  // Parsed once per distinct value: the relay route reads it on every request.
  if (env === process.env && cache && cache.raw === raw) return cache.value;
  const value = parseTargets(raw);
  if (env === process.env) cache = { raw, value };
  return value;
}

function parseTargets(raw: string | undefined): RelayTargets {
  if (!raw) return { targets: [], problem: null };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return {
      targets: [],
      problem: `TOOLSCOPE_RELAYS is not JSON: ${error instanceof SyntaxError ? error.message : "unparseable"}`,
    };
  }
  const parsed = targetsSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      targets: [],
      problem: `TOOLSCOPE_RELAYS${issue ? `${formatIssuePath(issue.path)}: ${issue.message}` : " is not valid"}`,
    };
  }
  const seen = new Set<string>();
  for (const target of parsed.data) {
    if (seen.has(target.name))
      return { targets: [], problem: `TOOLSCOPE_RELAYS names the target "${target.name}" twice` };
    seen.add(target.name);
  }
  return { targets: parsed.data, problem: null };
}

/** The target named `name`: 404 unknown_relay when there is none, 503 when the configuration cannot be read. */
export function findRelayTarget(name: string, env: Environment = process.env): RelayTarget {
  const { targets, problem } = readRelayTargets(env);
  if (problem !== null)
    throw new AppError("unavailable", `Relay targets are misconfigured on the server: ${problem}`, {
      retryAfterSeconds: 60,
    });
  const target = targets.find((candidate) => candidate.name === name);
  if (!target) {
    const known = targets.map((candidate) => `"${candidate.name}"`).join(", ");
    throw new AppError(
      "unknown_relay",
      `No relay target "${name}" is configured${known ? ` (configured: ${known})` : " (TOOLSCOPE_RELAYS is empty)"}`,
    );
  }
  return target;
}

function secretOf(target: RelayTarget, env: Environment): string | null {
  return target.secretEnv === undefined ? null : namedSecret(target.secretEnv, env);
}

/** What the outbox sends "relay:<name>" to, read now (a changed configuration applies to the next attempt). */
export function relayDestination(target: RelayTarget, env: Environment = process.env): Destination {
  return {
    id: `relay:${target.name}`,
    url: target.url,
    secret: secretOf(target, env),
    timeoutMs: target.timeoutMs ?? DEFAULT_RELAY_TIMEOUT_MS,
    maxAttempts: target.maxAttempts ?? setting("TOOLSCOPE_OUTBOX_MAX_ATTEMPTS", env),
    maxAgeMs: target.maxAgeMs ?? setting("TOOLSCOPE_OUTBOX_MAX_AGE_MS", env),
  };
}

/** The outbox's resolver for "relay:<name>" destinations. */
export function resolveRelayDestination(destination: string): Destination | { problem: string } {
  const name = destination.slice("relay:".length);
  const { targets, problem } = readRelayTargets();
  if (problem !== null) return { problem: `relay targets are misconfigured: ${problem}` };
  const target = targets.find((candidate) => candidate.name === name);
  if (!target) return { problem: `relay target "${name}" is no longer configured (TOOLSCOPE_RELAYS)` };
  if (target.secretEnv !== undefined && !namedSecret(target.secretEnv))
    return { problem: `the secret of relay target "${name}" is missing: set ${target.secretEnv} on the server` };
  return relayDestination(target);
}

export function listRelayTargets(env: Environment = process.env): RelayTargetsReply {
  const { targets, problem } = readRelayTargets(env);
  return {
    problem,
    targets: targets.map((target) => {
      const destination = relayDestination(target, env);
      return {
        name: target.name,
        url: target.url,
        mode: target.mode,
        secretEnv: target.secretEnv ?? null,
        secretState:
          target.secretEnv === undefined ? "not_needed" : namedSecret(target.secretEnv, env) ? "set" : "missing",
        timeoutMs: destination.timeoutMs,
        maxAttempts: destination.maxAttempts,
        maxAgeMs: destination.maxAgeMs,
      };
    }),
  };
}
