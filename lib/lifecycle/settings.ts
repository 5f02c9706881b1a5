// Retention settings from the environment: by age (TOOLSCOPE_RETENTION_DAYS), by size
// (TOOLSCOPE_RETENTION_MAX_BYTES), and how often the sweep runs (TOOLSCOPE_RETENTION_SWEEP_MS, default 10 min).
import { setting, type Environment } from "../config.ts";

export type RetentionSettings = { days: number | null; maxBytes: number | null; sweepMs: number };

export function readRetentionSettings(env: Environment = process.env): RetentionSettings {
  return {
    days: setting("TOOLSCOPE_RETENTION_DAYS", env) ?? null,
    maxBytes: setting("TOOLSCOPE_RETENTION_MAX_BYTES", env) ?? null,
    sweepMs: setting("TOOLSCOPE_RETENTION_SWEEP_MS", env),
  };
}
