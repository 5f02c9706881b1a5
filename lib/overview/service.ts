// The overview (home page and GET /api/overview): what this instance holds and what needs attention now.
import "server-only";
import { getDatabase, type Database } from "../db/client.ts";
import { listPendingCalls } from "../pending/service.ts";
import { countsFor } from "../threads/service.ts";
import {
  countResultsSince,
  countSubscriptionsByState,
  findLowConfidenceResults,
  findRecentThreads,
  readTallies,
} from "./repository.ts";
import { CALL_STATUSES, type OverviewData } from "./schemas.ts";

/**
 * The seed's "ask for more information or a human" band (confidence < 0.5). A number because the database
 * filters on it; overview.test.ts checks it against confidenceBand, the one definition of the bands.
 */
export const LOW_CONFIDENCE_BELOW = 0.5;
export const OVERVIEW_LIST_SIZE = 10;
export const OVERVIEW_RECENT_THREADS = 8;
const HOUR_MS = 60 * 60 * 1000;

export async function getOverview(options: { database?: Database; now?: Date } = {}): Promise<OverviewData> {
  const database = options.database ?? (await getDatabase());
  const db = database.client;
  const now = options.now ?? new Date();
  // The totals come from trigger-kept tallies (RowTally): counting a million rows each poll took seconds (issue 13).
  const [tallies, resultsLastHour, lowNewest, pending, subscriptions, recent] = await Promise.all([
    readTallies(db),
    countResultsSince(db, new Date(now.getTime() - HOUR_MS)),
    findLowConfidenceResults(db, { below: LOW_CONFIDENCE_BELOW, limit: OVERVIEW_LIST_SIZE }),
    listPendingCalls({ sort: "oldest", limit: OVERVIEW_LIST_SIZE, database }),
    countSubscriptionsByState(db),
    findRecentThreads(db, OVERVIEW_RECENT_THREADS),
  ]);
  const threadCounts = await countsFor(
    database,
    recent.map((thread) => thread.id),
  );
  const recentThreads = recent.map(({ id, ...thread }) => ({ ...thread, errors: threadCounts.get(id)?.errors ?? 0 }));
  const tally = (key: string) => tallies.get(key) ?? 0;
  const counts = {
    threads: tally("threads"),
    calls: tally("calls"),
    results: tally("results"),
    deliveries: tally("deliveries"),
  };
  const lowTotal = tally(`results.confidence<${LOW_CONFIDENCE_BELOW}`);
  const byStatus = new Map(CALL_STATUSES.map((status) => [status, tally(`calls.status:${status}`)]));
  const byOutcome = new Map(
    [...tallies].flatMap(([key, count]) =>
      key.startsWith("deliveries.outcome:") && count > 0
        ? [[key.slice("deliveries.outcome:".length), count] as const]
        : [],
    ),
  );
  const callsByStatus: Record<string, number> = Object.fromEntries(CALL_STATUSES.map((status) => [status, 0]));
  for (const [status, count] of byStatus) callsByStatus[status] = count;
  return {
    generatedAt: now.toISOString(),
    counts,
    callsByStatus,
    resultsLastHour,
    lowConfidence: { total: lowTotal, below: LOW_CONFIDENCE_BELOW, newest: lowNewest },
    pending,
    subscriptions: { active: subscriptions.get("active") ?? 0, cancelled: subscriptions.get("cancelled") ?? 0 },
    deliveriesByOutcome: [...byOutcome]
      .map(([outcome, count]) => ({ outcome, count }))
      .sort((a, b) => b.count - a.count || a.outcome.localeCompare(b.outcome)),
    recentThreads,
  };
}
