// Waiting for a database lock without blocking the event loop. better-sqlite3 is synchronous: its busy
// timeout would stall every request of the process while another process holds the write lock. So the
// connection's busy timeout is 0, and a transaction that finds the lock taken is retried here, after
// asynchronous sleeps, until a bounded wait has passed; then it fails as a 503 with Retry-After.
import "server-only";
import { setting, type Environment } from "../config.ts";
import { databaseUnavailable, isTransientDatabaseError } from "./errors.ts";

/** How long a write waits for a lock before answering 503 (TOOLSCOPE_DB_LOCK_WAIT_MS, default 5 s). */
export function lockWaitMs(env: Environment = process.env): number {
  return setting("TOOLSCOPE_DB_LOCK_WAIT_MS", env);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What the process last saw of the write lock: health reports "degraded" while writes are being refused. */
export const writeLockState = { lastRefusedAt: 0, lastSucceededAt: 0 };

/**
 * Runs `attempt` until it succeeds, fails for a reason other than a busy/unreachable database, or `waitMs`
 * has passed (then a 503 AppError). Backoff 2 ms doubling to 100 ms, with jitter so processes interleave.
 */
export async function withLockWait<R>(attempt: () => Promise<R>, waitMs: number): Promise<R> {
  const deadline = Date.now() + waitMs;
  for (let delay = 2; ; delay = Math.min(100, delay * 2)) {
    try {
      const result = await attempt();
      writeLockState.lastSucceededAt = Date.now();
      return result;
    } catch (error) {
      if (!isTransientDatabaseError(error)) throw error;
      const left = deadline - Date.now();
      if (left <= 0) {
        writeLockState.lastRefusedAt = Date.now();
        throw databaseUnavailable(
          Math.max(1, Math.ceil(waitMs / 1000)),
          "The database is locked by another writer or unreachable",
        );
      }
      await sleep(Math.min(left, delay * (0.5 + Math.random())));
    }
  }
}
