// Retention settings from the environment: by age (TOOLSCOPE_RETENTION_DAYS), by size
// (TOOLSCOPE_RETENTION_MAX_BYTES), and how often the sweep runs (TOOLSCOPE_RETENTION_SWEEP_MS, default 10 min).
export type RetentionSettings = { days: number | null; maxBytes: number | null; sweepMs: number };

function positive(env: NodeJS.ProcessEnv, name: string): number | null {
  const text = env[name]?.trim();
  if (!text) return null;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${text}"`);
  return value;
}

export function readRetentionSettings(env: NodeJS.ProcessEnv = process.env): RetentionSettings {
  return {
    days: positive(env, "TOOLSCOPE_RETENTION_DAYS"),
    maxBytes: positive(env, "TOOLSCOPE_RETENTION_MAX_BYTES"),
    sweepMs: positive(env, "TOOLSCOPE_RETENTION_SWEEP_MS") ?? 10 * 60_000,
  };
}
