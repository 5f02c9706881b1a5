// Pending calls across threads, for the /pending page, its API route and the overview's "oldest pending".
import "server-only";
import { getDatabase, type Database } from "../db/client.ts";
import { listSubscriptions } from "../subscriptions/service.ts";
import { countPendingCalls, findPendingCalls, findTimedOutCalls } from "./repository.ts";
import type { PendingCallList, PendingSnapshot, PendingSort } from "./schemas.ts";

/** The page lists this many; beyond that it says how many more there are (a live list of thousands helps nobody). */
export const PENDING_LIMIT = 500;
/** Active subscriptions shown beside the pending calls; /subscriptions has the full list. */
export const PENDING_PAGE_SUBSCRIPTIONS = 50;
/** Timed-out calls stay on the page this long after their deadline, at most this many. */
export const TIMED_OUT_HOURS = 24;
export const TIMED_OUT_LIMIT = 100;

export async function listPendingCalls(options: {
  sort: PendingSort;
  limit: number;
  database?: Database;
}): Promise<PendingCallList> {
  const db = options.database ?? (await getDatabase());
  const [total, calls] = await Promise.all([
    countPendingCalls(db.client),
    findPendingCalls(db.client, { sort: options.sort, limit: options.limit }),
  ]);
  return { total, calls };
}

export async function getPendingSnapshot(options: {
  sort: PendingSort;
  database?: Database;
  now?: Date;
}): Promise<PendingSnapshot> {
  const database = options.database ?? (await getDatabase());
  const now = options.now ?? new Date();
  const [pending, timedOut, subscriptions] = await Promise.all([
    listPendingCalls({ sort: options.sort, limit: PENDING_LIMIT, database }),
    findTimedOutCalls(database.client, {
      since: new Date(now.getTime() - TIMED_OUT_HOURS * 3_600_000),
      limit: TIMED_OUT_LIMIT,
    }),
    listSubscriptions({ state: "active", limit: PENDING_PAGE_SUBSCRIPTIONS, database }),
  ]);
  return {
    generatedAt: now.toISOString(),
    sort: options.sort,
    limit: PENDING_LIMIT,
    pending,
    timedOut: { ...timedOut, sinceHours: TIMED_OUT_HOURS },
    subscriptions,
  };
}
