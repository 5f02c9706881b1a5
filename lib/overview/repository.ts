// Prisma access for the overview: row counts, calls per status, recent results and threads. Every query is
// an indexed count or a bounded read, because the page polls it every two seconds.
import "server-only";
import type { ModelClient } from "../db/client.ts";
import type { LowConfidenceResult, RecentThread } from "./schemas.ts";

export async function countRows(
  db: ModelClient,
): Promise<{ threads: number; calls: number; results: number; deliveries: number }> {
  const [threads, calls, results, deliveries] = await Promise.all([
    db.thread.count(),
    db.toolCall.count(),
    db.toolResult.count(),
    db.delivery.count(),
  ]);
  return { threads, calls, results, deliveries };
}

export async function countCallsByStatus(db: ModelClient): Promise<Map<string, number>> {
  const groups = await db.toolCall.groupBy({ by: ["status"], _count: { _all: true } });
  return new Map(groups.map((g) => [g.status, g._count._all]));
}

export async function countSubscriptionsByState(db: ModelClient): Promise<Map<string, number>> {
  const groups = await db.toolCall.groupBy({
    by: ["subscription"],
    where: { subscription: { not: null } },
    _count: { _all: true },
  });
  return new Map(groups.flatMap((g) => (g.subscription === null ? [] : [[g.subscription, g._count._all] as const])));
}

export async function countResultsSince(db: ModelClient, since: Date): Promise<number> {
  return db.toolResult.count({ where: { receivedAt: { gte: since } } });
}

export async function countDeliveriesByOutcome(db: ModelClient): Promise<Map<string, number>> {
  const groups = await db.delivery.groupBy({ by: ["outcome"], _count: { _all: true } });
  return new Map(groups.map((g) => [g.outcome, g._count._all]));
}

export async function countLowConfidence(db: ModelClient, below: number): Promise<number> {
  return db.toolResult.count({ where: { confidence: { lt: below } } });
}

export async function findLowConfidenceResults(
  db: ModelClient,
  options: { below: number; limit: number },
): Promise<LowConfidenceResult[]> {
  const rows = await db.toolResult.findMany({
    where: { confidence: { lt: options.below } },
    orderBy: [{ receivedAt: "desc" }, { id: "desc" }],
    take: options.limit,
    select: {
      id: true,
      confidence: true,
      nextAction: true,
      envelopeKind: true,
      receivedAt: true,
      toolCall: { select: { id: true, groupId: true, callKey: true, toolName: true } },
    },
  });
  return rows.flatMap((row) =>
    row.confidence === null
      ? []
      : [
          {
            resultId: row.id,
            callRowId: row.toolCall.id,
            groupId: row.toolCall.groupId,
            callKey: row.toolCall.callKey,
            toolName: row.toolCall.toolName,
            confidence: row.confidence,
            nextAction: row.nextAction,
            envelopeKind: row.envelopeKind,
            receivedAt: row.receivedAt.toISOString(),
          },
        ],
  );
}

/** The threads with the latest activity, with their calls counted per status (one grouped query for all). */
export async function findRecentThreads(
  db: ModelClient,
  limit: number,
): Promise<(Omit<RecentThread, "errors"> & { id: number })[]> {
  const threads = await db.thread.findMany({
    orderBy: [{ lastActivityAt: "desc" }, { id: "desc" }],
    take: limit,
    select: { id: true, groupId: true, title: true, vendor: true, lastActivityAt: true },
  });
  if (threads.length === 0) return [];
  const groups = await db.toolCall.groupBy({
    by: ["threadId", "status", "vendor"],
    where: { threadId: { in: threads.map((t) => t.id) } },
    _count: { _all: true },
  });
  const countsOf = (threadId: number, status?: string) =>
    groups
      .filter((g) => g.threadId === threadId && (status === undefined || g.status === status))
      .reduce((sum, g) => sum + g._count._all, 0);
  // A thread opened by a message has no vendor of its own; its calls say which encoding they came in.
  const vendorOf = (threadId: number) => {
    const byVendor = new Map<string, number>();
    for (const g of groups)
      if (g.threadId === threadId && g.vendor !== null)
        byVendor.set(g.vendor, (byVendor.get(g.vendor) ?? 0) + g._count._all);
    return [...byVendor].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null;
  };
  return threads.map((thread) => ({
    id: thread.id,
    groupId: thread.groupId,
    title: thread.title,
    vendor: thread.vendor ?? vendorOf(thread.id),
    lastActivityAt: thread.lastActivityAt.toISOString(),
    calls: countsOf(thread.id),
    pending: countsOf(thread.id, "pending"),
    errored: countsOf(thread.id, "errored"),
    timedOut: countsOf(thread.id, "timed_out"),
  }));
}

/**
 * The trigger-kept row counts (RowTally, explorer_calls migration): threads, calls, calls per status, results,
 * results with confidence < 0.5, deliveries, deliveries per outcome. A few rows instead of counting a million.
 */
export async function readTallies(db: ModelClient): Promise<Map<string, number>> {
  const rows = await db.rowTally.findMany({ select: { key: true, count: true } });
  return new Map(rows.map((row) => [row.key, row.count]));
}
