// When to try an outbox message again, and whether to try at all: exponential backoff with jitter, Retry-After
// honoured, and the answers no retry can change. Pure.

export const BACKOFF_BASE_MS = 500;
export const BACKOFF_CAP_MS = 60_000;
/** A Retry-After longer than this is not waited for in full (the budget's age limit still applies). */
export const RETRY_AFTER_CAP_MS = 60 * 60_000;

/**
 * The wait before attempt `attempt + 1` (after `attempt` failures): base·2^(attempt−1) capped, with "equal
 * jitter" (half fixed, half random) so a destination coming back is not hit by every sender in the same
 * millisecond, and never less than the destination's Retry-After.
 */
export function nextDelayMs(attempt: number, retryAfterMs: number | null, random: () => number = Math.random): number {
  const exponential = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1));
  const jittered = exponential / 2 + random() * (exponential / 2);
  return Math.max(jittered, Math.min(retryAfterMs ?? 0, RETRY_AFTER_CAP_MS));
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * An answer that retrying cannot change: the destination refused this message itself (a 4xx other than 408
 * Request Timeout, 425 Too Early and 429 Too Many Requests). Everything else — 5xx, 408/425/429, no answer —
 * is retried.
 */
export function isPermanentRefusal(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 425 && status !== 429;
}

export type Budget = { maxAttempts: number; maxAgeMs: number };

/** Why a message that just failed is out of budget, or null while it may be tried again. */
export function budgetExhausted(options: {
  budget: Budget;
  attempts: number;
  retryBase: number;
  since: Date;
  now: Date;
}): string | null {
  const used = options.attempts - options.retryBase;
  if (used >= options.budget.maxAttempts) return `gave up after ${used} attempts`;
  const age = options.now.getTime() - options.since.getTime();
  if (age >= options.budget.maxAgeMs) return `gave up after ${Math.round(age / 1000)} s (the age limit)`;
  return null;
}
