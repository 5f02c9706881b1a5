// Server-side settings read from the environment, validated once.
import "server-only";
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
  const rawPrefix = env.TOOLSCOPE_REFUSED_BODY_BYTES?.trim();
  const refusedBodyBytes = rawPrefix ? Number(rawPrefix) : DEFAULT_REFUSED_BODY_BYTES;
  if (!Number.isInteger(refusedBodyBytes) || refusedBodyBytes < 0) {
    throw new Error(`TOOLSCOPE_REFUSED_BODY_BYTES must be an integer ≥ 0, got "${rawPrefix}"`);
  }
  return { maxBodyBytes, callbackSecrets, refusedBodyBytes };
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
