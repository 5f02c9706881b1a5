// The data lifecycle: retention by age and by size removes whole threads (with everything that hangs off
// them) and the refused deliveries, spans and scopes that belong to no thread, one small transaction at a
// time with a yield to other work in between, then gives the space back (SQLite incremental vacuum).
// Runs from `npm run toolscope -- prune`, POST /api/storage/prune and a periodic sweep in the server.
import "server-only";
import { getDatabase, type Database } from "../db/client.ts";
import {
  CHUNK,
  countOrphans,
  deleteOrphanStep,
  deleteThreadStep,
  estimateThreadBytes,
  expiredThreads,
  fencedThreads,
  fenceThread,
  incrementalVacuum,
  oldestThreads,
  usedBytes,
  type ThreadRow,
} from "./repository.ts";
import { readRetentionSettings } from "./settings.ts";

const DAY_MS = 86_400_000;
/** Most threads one prune removes; the next sweep continues. */
const MAX_THREADS_PER_RUN = 5_000;
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Why a thread goes: its age, the size limit, or a removal decided earlier and not finished (resumed). */
export type PruneReason = "age" | "size" | "resumed";

export type PrunePlan = {
  /** Threads (and everything of theirs) removed because of their age or the size limit, oldest first. */
  threads: { groupId: string; lastActivityAt: string; reason: PruneReason }[];
  /** Rows of no thread, older than the cutoff. */
  orphans: Record<string, number>;
  cutoff: string | null;
  usedBytes: number;
  maxBytes: number | null;
};

export type PruneReport = PrunePlan & {
  dryRun: boolean;
  deleted: Record<string, number>;
  vacuumedBytes: number;
  usedBytesAfter: number;
};

type PruneOptions = {
  database?: Database;
  days?: number | null;
  maxBytes?: number | null;
  dryRun?: boolean;
  now?: Date;
};

/** What retention would remove now (nothing is changed). */
export async function planPrune(
  options: PruneOptions = {},
): Promise<{ plan: PrunePlan; rows: (ThreadRow & { reason: PruneReason })[] }> {
  const database = options.database ?? (await getDatabase());
  const settings = readRetentionSettings();
  const days = options.days === undefined ? settings.days : options.days;
  const maxBytes = options.maxBytes === undefined ? settings.maxBytes : options.maxBytes;
  const now = options.now ?? new Date();
  const cutoff = days === null ? null : new Date(now.getTime() - days * DAY_MS);
  const used = await usedBytes(database);
  const rows: (ThreadRow & { reason: PruneReason })[] = (await fencedThreads(database.client, MAX_THREADS_PER_RUN)).map(
    (t) => ({ ...t, reason: "resumed" }),
  );
  if (cutoff)
    for (const t of await expiredThreads(database.client, cutoff, MAX_THREADS_PER_RUN - rows.length))
      rows.push({ ...t, reason: "age" });

  if (maxBytes !== null && used > maxBytes) {
    // Free the excess, oldest threads first, by each thread's estimated size (beyond those already expiring).
    let excess =
      used -
      maxBytes -
      (await Promise.all(rows.map((t) => estimateThreadBytes(database.client, t)))).reduce((a, b) => a + b, 0);
    const chosen = new Set(rows.map((t) => t.id));
    for (let offset = 0; excess > 0 && rows.length < MAX_THREADS_PER_RUN; offset += 50) {
      const page = await oldestThreads(database.client, now, 50, offset);
      if (page.length === 0) break;
      for (const thread of page) {
        if (excess <= 0) break;
        if (chosen.has(thread.id)) continue;
        excess -= await estimateThreadBytes(database.client, thread);
        rows.push({ ...thread, reason: "size" });
      }
    }
  }
  // Orphans age out with the age limit; under the size limit, those older than the newest thread removed.
  const lastRemoved = rows.at(-1)?.lastActivityAt ?? null;
  const orphanCutoff =
    cutoff && lastRemoved ? new Date(Math.max(cutoff.getTime(), lastRemoved.getTime())) : (cutoff ?? lastRemoved);
  const orphans = orphanCutoff ? await countOrphans(database.client, orphanCutoff) : {};
  return {
    rows,
    plan: {
      threads: rows.map((t) => ({
        groupId: t.groupId,
        lastActivityAt: t.lastActivityAt.toISOString(),
        reason: t.reason,
      })),
      orphans,
      cutoff: orphanCutoff?.toISOString() ?? null,
      usedBytes: used,
      maxBytes,
    },
  };
}

/** Removes what planPrune names (or only reports it, with dryRun), in small transactions. */
export async function prune(options: PruneOptions = {}): Promise<PruneReport> {
  const database = options.database ?? (await getDatabase());
  const { plan, rows } = await planPrune({ ...options, database });
  const deleted: Record<string, number> = {};
  const count = (step: { table: string; deleted: number }) =>
    (deleted[step.table] = (deleted[step.table] ?? 0) + step.deleted);
  if (options.dryRun) return { ...plan, dryRun: true, deleted, vacuumedBytes: 0, usedBytesAfter: plan.usedBytes };

  for (const thread of rows) {
    // Fenced first, in its own transaction: a thread that came back to life (a result, a new call) stays whole.
    if (!(await database.transaction((tx) => fenceThread(tx, thread, new Date())))) continue;
    for (;;) {
      const step = await database.transaction((tx) => deleteThreadStep(tx, thread));
      if (!step) break;
      count(step);
      await yieldToOthers();
    }
  }
  if (plan.cutoff) {
    const cutoff = new Date(plan.cutoff);
    for (;;) {
      const step = await database.transaction((tx) => deleteOrphanStep(tx, cutoff));
      if (!step) break;
      count(step);
      await yieldToOthers();
    }
  }
  // Give space back a few thousand pages at a time, so no single step holds the write lock for long.
  let vacuumedBytes = 0;
  for (let i = 0; i < 1_000; i++) {
    const freed = await incrementalVacuum(database, CHUNK * 4);
    if (freed <= 0) break;
    vacuumedBytes += freed;
    await yieldToOthers();
  }
  return { ...plan, dryRun: false, deleted, vacuumedBytes, usedBytesAfter: await usedBytes(database) };
}

const sweeper = globalThis as typeof globalThis & {
  toolscopeRetention?: { last: PruneReport | null; lastAt: string | null; error: string | null };
};

export function lastSweep(): { report: PruneReport | null; at: string | null; error: string | null } {
  const state = sweeper.toolscopeRetention;
  return { report: state?.last ?? null, at: state?.lastAt ?? null, error: state?.error ?? null };
}

/** Runs prune every TOOLSCOPE_RETENTION_SWEEP_MS when a retention limit is set; returns a stop function. */
export function startRetentionSweeper(): () => void {
  const settings = readRetentionSettings();
  if (settings.days === null && settings.maxBytes === null) return () => {};
  sweeper.toolscopeRetention ??= { last: null, lastAt: null, error: null };
  const state = sweeper.toolscopeRetention;
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      state.last = await prune();
      state.error = null;
      const removed = Object.values(state.last.deleted).reduce((a, b) => a + b, 0);
      if (removed > 0)
        console.log(
          `[toolscope] retention: removed ${state.last.threads.length} threads, ${removed} rows; ${state.last.vacuumedBytes} bytes given back`,
        );
    } catch (error) {
      // A busy or unreachable database: the next sweep tries again.
      state.error = error instanceof Error ? (error.message.split("\n")[0] ?? "failed") : "failed";
    } finally {
      state.lastAt = new Date().toISOString();
      running = false;
    }
  };
  const first = setTimeout(() => void run(), 5_000);
  const timer = setInterval(() => void run(), settings.sweepMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
