// Deadlines: a call whose deadline passes without a result becomes timed_out (a late result is still
// recorded, see lib/ingest/decide-delivery.ts). The server sweeps periodically.
import "server-only";
import { isTransientDatabaseError } from "../db/errors.ts";
import { AppError } from "../http/app-error.ts";
import { getDatabase, type Database } from "../db/client.ts";
import { findOverdueCalls, markTimedOut } from "./timeout-repository.ts";

export async function sweepTimedOutCalls(
  options: { database?: Database; now?: Date; limit?: number } = {},
): Promise<number> {
  const db = options.database ?? (await getDatabase());
  const now = options.now ?? new Date();
  let total = 0;
  for (;;) {
    const changed = await db.transaction(async (tx) =>
      markTimedOut(tx, await findOverdueCalls(tx, now, options.limit ?? 500)),
    );
    total += changed.length;
    if (changed.length < (options.limit ?? 500)) return total;
  }
}

/** Runs the sweep every `intervalMs` until the returned function is called. */
export function startDeadlineSweeper(intervalMs: number): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweepTimedOutCalls()
      .catch((error: unknown) => {
        // A locked or unreachable database: one line, and the next tick tries again.
        if (error instanceof AppError && error.code === "unavailable")
          console.warn(`[toolscope] deadline sweep skipped: ${error.message}`);
        else if (isTransientDatabaseError(error))
          console.warn("[toolscope] deadline sweep skipped: the database is busy or unreachable");
        else console.error("[toolscope] deadline sweep failed", error);
      })
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
