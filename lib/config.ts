// The one door to the environment: every setting Toolscope reads goes through `setting(name)`, checked against its
// declaration in lib/config-settings.ts (a bad value is an error naming the variable and the rule, never a silent
// default). `checkSettings()` lists every problem at once; servers call it before they listen.
import "server-only";
import { SETTINGS, type SettingName, type SettingValue } from "./config-settings.ts";

export type Environment = Readonly<Record<string, string | undefined>>;

export class ConfigError extends Error {}

function problemOf(name: SettingName, raw: string, message: string): string {
  const shown = "secret" in SETTINGS[name] ? "" : `, got "${raw.length > 80 ? `${raw.slice(0, 80)}…` : raw}"`;
  return `${name} ${message}${shown}`;
}

/** The checked value of one setting (its default when unset or blank); throws ConfigError on a bad value. */
export function setting<N extends SettingName>(name: N, env: Environment = process.env): SettingValue<N> {
  const raw = env[name]?.trim() || undefined;
  const parsed = SETTINGS[name].schema.safeParse(raw);
  if (!parsed.success)
    throw new ConfigError(problemOf(name, raw ?? "", parsed.error.issues[0]?.message ?? "is invalid"));
  return parsed.data as SettingValue<N>;
}

/**
 * A secret held in a variable another setting names (a model target's `apiKeyEnv`, a relay target's `secretEnv`):
 * read at the moment it is needed, never cached, never logged.
 */
export function namedSecret(variable: string, env: Environment = process.env): string | null {
  return env[variable] || null;
}

/** Every bad setting, one line each (empty when all are good). */
export function settingProblems(env: Environment = process.env): string[] {
  const problems: string[] = [];
  for (const name of Object.keys(SETTINGS) as SettingName[]) {
    try {
      setting(name, env);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(error.message);
    }
  }
  return problems;
}

/** Throws one ConfigError listing every bad setting. */
export function checkSettings(env: Environment = process.env): void {
  const problems = settingProblems(env);
  if (problems.length > 0) throw new ConfigError(`Bad settings:\n  ${problems.join("\n  ")}`);
}

export type ToolscopeConfig = {
  /** Largest callback or events body accepted, checked while the body streams in. */
  maxBodyBytes: number;
  /** Standard Webhooks secrets; several allow key rotation. Empty: signatures are not required. */
  callbackSecrets: string[];
  /** How much of a refused delivery's body the audit log keeps (TOOLSCOPE_REFUSED_BODY_BYTES, default 64 KiB). */
  refusedBodyBytes?: number;
};

export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;
export const DEFAULT_REFUSED_BODY_BYTES = 64 * 1024;

/** The settings the request path reads on every request, read together. */
export function readConfig(env: Environment = process.env): ToolscopeConfig {
  return {
    maxBodyBytes: setting("TOOLSCOPE_MAX_BODY_BYTES", env),
    callbackSecrets: setting("TOOLSCOPE_CALLBACK_SECRET", env),
    refusedBodyBytes: setting("TOOLSCOPE_REFUSED_BODY_BYTES", env),
  };
}

let cached: ToolscopeConfig | undefined;
export function config(): ToolscopeConfig {
  cached ??= readConfig();
  return cached;
}

/** Tests and servers that change the environment at run time call this. */
export function resetConfig(next?: ToolscopeConfig): void {
  cached = next;
}
