// The model targets this server may send forks to: TOOLSCOPE_MODELS (a JSON array) read and checked, and the
// keys, read from the environment variables the targets name, only at the moment a request is sent.
import "server-only";
import { z } from "zod";
import { ConfigError, namedSecret, setting } from "../config.ts";
import { AppError } from "../http/app-error.ts";
import { formatIssuePath } from "../http/issue-path.ts";
import { knownKeySpans, replaceSpans } from "../results/secret-forms.ts";
import {
  DEFAULT_MODEL_TIMEOUT_MS,
  modelTargetSchema,
  type ModelTarget,
  type ModelTargetsReply,
  type ModelTargetView,
} from "./schemas.ts";

/** The environment the targets and keys are read from (process.env, or a test's own). */
export type Environment = Readonly<Record<string, string | undefined>>;

export type ModelTargets = { targets: ModelTarget[]; problem: string | null };

const targetsSchema = z.array(modelTargetSchema).max(100);

/** Reads TOOLSCOPE_MODELS; a bad value is reported as `problem` (the settings page shows it), never thrown. */
export function readModelTargets(env: Environment = process.env): ModelTargets {
  const raw = setting("TOOLSCOPE_MODELS", env);
  if (!raw) return { targets: [], problem: null };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return {
      targets: [],
      problem: `TOOLSCOPE_MODELS is not JSON: ${error instanceof SyntaxError ? error.message : "unparseable"}`,
    };
  }
  const parsed = targetsSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      targets: [],
      problem: `TOOLSCOPE_MODELS${issue ? `${formatIssuePath(issue.path)}: ${issue.message}` : " is not valid"}`,
    };
  }
  const seen = new Set<string>();
  for (const target of parsed.data) {
    if (seen.has(target.name))
      return { targets: [], problem: `TOOLSCOPE_MODELS names the target "${target.name}" twice` };
    seen.add(target.name);
  }
  let timeoutMs: number;
  try {
    timeoutMs = setting("TOOLSCOPE_MODEL_TIMEOUT_MS", env);
  } catch (error) {
    if (error instanceof ConfigError) return { targets: [], problem: error.message };
    throw error;
  }
  return {
    targets: parsed.data.map((target) => ({ ...target, timeoutMs: target.timeoutMs ?? timeoutMs })),
    problem: null,
  };
}

function keyState(target: ModelTarget, env: Environment): ModelTargetView["keyState"] {
  if (target.apiKeyEnv === undefined) return "not_needed";
  return namedSecret(target.apiKeyEnv, env) ? "set" : "missing";
}

/** The targets as the settings page and GET /api/models show them: names of key variables, never their values. */
export function listModelTargets(env: Environment = process.env): ModelTargetsReply {
  const { targets, problem } = readModelTargets(env);
  return {
    problem,
    targets: targets.map((target) => ({
      name: target.name,
      api: target.api,
      baseUrl: target.baseUrl,
      model: target.model,
      apiKeyEnv: target.apiKeyEnv ?? null,
      keyState: keyState(target, env),
      timeoutMs: target.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS,
      maxTokens: target.maxTokens ?? null,
    })),
  };
}

/** The target named `name`: 422 naming `model` when there is none, 503 when the configuration cannot be read. */
export function findModelTarget(name: string, env: Environment = process.env): ModelTarget {
  const { targets, problem } = readModelTargets(env);
  if (problem !== null)
    throw new AppError("unavailable", `Model targets are misconfigured on the server: ${problem}`, {
      retryAfterSeconds: 60,
    });
  const target = targets.find((candidate) => candidate.name === name);
  if (target === undefined) {
    const known = targets.map((candidate) => `"${candidate.name}"`).join(", ");
    throw new AppError(
      "invalid",
      `model: no target "${name}" is configured${known ? ` (configured: ${known})` : " (TOOLSCOPE_MODELS is empty)"}`,
      { path: "model" },
    );
  }
  return target;
}

/** The key for `target`, read now; null when the target needs none. 503 when its variable is unset. */
export function readApiKey(target: ModelTarget, env: Environment = process.env): string | null {
  if (target.apiKeyEnv === undefined) return null;
  const key = namedSecret(target.apiKeyEnv, env);
  if (!key)
    throw new AppError(
      "unavailable",
      `The key for model target "${target.name}" is missing: set ${target.apiKeyEnv} on the server`,
      { retryAfterSeconds: 60 },
    );
  return key;
}

const KEY_REDACTED = "[API key redacted]";

/**
 * Replaces `key` in provider-originated text (some providers quote the key they refused): verbatim, JSON-escaped
 * ("\u0073\u006b…"), and any run of MIN_KEY_RUN or more of its characters (an id or name cut from it).
 */
export function maskKey(text: string, key: string | null): string {
  if (key === null || key.length < 4) return text;
  const verbatim = text.split(key).join(KEY_REDACTED);
  return replaceSpans(verbatim, knownKeySpans(verbatim, [key]), () => KEY_REDACTED);
}

/**
 * Text still streaming, masked: the key, and a tail that may be the key's beginning with the rest not streamed yet,
 * held back (a provider echoing the key across two stream events would otherwise show its first part in between).
 */
export function maskKeyStreaming(text: string, key: string | null): string {
  const masked = maskKey(text, key);
  if (key === null || key.length < 4) return masked;
  for (let n = Math.min(key.length - 1, masked.length); n > 0; n -= 1)
    if (masked.endsWith(key.slice(0, n))) return masked.slice(0, -n);
  return masked;
}

/**
 * A copy of a JSON-shaped value (a provider's parsed answer) with `key` masked in every string and every object
 * key: a provider or a proxy in front of it may echo the key into the text, a call's id or arguments, the usage
 * object or the stop reason, all of which are stored and shown.
 */
export function maskKeyDeep<T>(value: T, key: string | null): T {
  if (key === null || key.length < 4) return value;
  const json = JSON.stringify(value);
  if (json === undefined) return value;
  return JSON.parse(json, (_name, item: unknown) => {
    if (typeof item === "string") return maskKey(item, key);
    if (typeof item !== "object" || item === null || Array.isArray(item)) return item;
    const entries = Object.entries(item);
    if (entries.every(([name]) => !name.includes(key))) return item;
    return Object.fromEntries(entries.map(([name, inner]) => [maskKey(name, key), inner]));
  }) as T;
}
