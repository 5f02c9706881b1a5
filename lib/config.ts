// Server-side settings read from the environment, validated once.
import "server-only";
export type ToolscopeConfig = {
  /** Largest callback or events body accepted, checked while the body streams in. */
  maxBodyBytes: number;
  /** Standard Webhooks secrets; several allow key rotation. Empty: signatures are not required. */
  callbackSecrets: string[];
};

export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

export function readConfig(env: NodeJS.ProcessEnv = process.env): ToolscopeConfig {
  const rawLimit = env.TOOLSCOPE_MAX_BODY_BYTES?.trim();
  const maxBodyBytes = rawLimit ? Number(rawLimit) : DEFAULT_MAX_BODY_BYTES;
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1024) {
    throw new Error(`TOOLSCOPE_MAX_BODY_BYTES must be an integer ≥ 1024, got "${rawLimit}"`);
  }
  const callbackSecrets = (env.TOOLSCOPE_CALLBACK_SECRET ?? "")
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return { maxBodyBytes, callbackSecrets };
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
