// Refusals are rate-limited per caller (API key, else peer address): a sender whose requests keep being
// refused (bad signature, unknown call, too large…) gets 429 + Retry-After before its next body is read or
// stored. A token bucket per caller: TOOLSCOPE_REFUSAL_BURST refusals at once (default 50), refilled at
// TOOLSCOPE_REFUSALS_PER_MINUTE (default 60). 0 for either turns the limit off.
import "server-only";
import type { Principal } from "../access/principal.ts";
import { setting } from "../config.ts";
import { AppError } from "../http/app-error.ts";

/** Statuses that count as a refusal of the caller's input or credentials. */
const REFUSALS = new Set([400, 401, 403, 404, 409, 413, 415, 422]);
const MAX_CALLERS = 10_000;

type Bucket = { tokens: number; at: number };
type Limits = { burst: number; perMinute: number };

const state = globalThis as typeof globalThis & {
  toolscopeRefusals?: { buckets: Map<string, Bucket>; limits: Limits; limited: number };
};

function limiter() {
  state.toolscopeRefusals ??= {
    buckets: new Map(),
    limits: {
      burst: setting("TOOLSCOPE_REFUSAL_BURST"),
      perMinute: setting("TOOLSCOPE_REFUSALS_PER_MINUTE"),
    },
    limited: 0,
  };
  return state.toolscopeRefusals;
}

/** Tests set their own limits (and start from empty buckets). */
export function setRefusalLimits(limits: Limits): void {
  limiter().limits = limits;
  limiter().buckets.clear();
}

/** How many requests were answered 429 by this limiter since the process started. */
export function refusalsLimited(): number {
  return limiter().limited;
}

export function callerKey(principal: Principal, remoteAddress: string | null): string {
  return principal.kind === "key" || principal.kind === "user"
    ? `${principal.kind}:${principal.id}`
    : `addr:${remoteAddress ?? "unknown"}`;
}

function refill(bucket: Bucket, limits: Limits, now: number): void {
  bucket.tokens = Math.min(limits.burst, bucket.tokens + ((now - bucket.at) / 60_000) * limits.perMinute);
  bucket.at = now;
}

/** Throws 429 when `caller` has no refusals left. */
export function checkRefusalBudget(caller: string, now = Date.now()): void {
  const { buckets, limits } = limiter();
  if (limits.burst === 0 || limits.perMinute === 0) return;
  const bucket = buckets.get(caller);
  if (!bucket) return;
  refill(bucket, limits, now);
  if (bucket.tokens >= 1) return;
  limiter().limited += 1;
  const wait = Math.ceil(((1 - bucket.tokens) / limits.perMinute) * 60);
  throw new AppError("rate_limited", `Too many refused requests from this caller; retry in ${wait} s`, {
    retryAfterSeconds: wait,
  });
}

/** Charges `caller` one refusal when `status` is one. */
export function chargeRefusal(caller: string, status: number, now = Date.now()): void {
  const { buckets, limits } = limiter();
  if (!REFUSALS.has(status) || limits.burst === 0 || limits.perMinute === 0) return;
  let bucket = buckets.get(caller);
  if (!bucket) {
    if (buckets.size >= MAX_CALLERS) {
      const oldest = buckets.keys().next().value;
      if (oldest !== undefined) buckets.delete(oldest);
    }
    bucket = { tokens: limits.burst, at: now };
    buckets.set(caller, bucket);
  }
  refill(bucket, limits, now);
  bucket.tokens = Math.max(0, bucket.tokens - 1);
}
