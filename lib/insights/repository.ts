// Prisma access for insights: indexed counts, grouped counts, one portable join (error types by tool) and a
// bounded sample of finished calls for durations. SQL stays portable across SQLite and PostgreSQL.
import "server-only";
import type { ModelClient } from "../db/client.ts";

export async function countResults(db: ModelClient): Promise<{ total: number; withEnvelope: number; withConfidence: number }> {
  const [total, withEnvelope, withConfidence] = await Promise.all([
    db.toolResult.count(),
    db.toolResult.count({ where: { envelopeKind: { not: null } } }),
    db.toolResult.count({ where: { confidence: { not: null } } }),
  ]);
  return { total, withEnvelope, withConfidence };
}

/** Results with from ≤ confidence < to (≤ to when `includeTo`): one range scan of the confidence index each. */
export async function countConfidenceBetween(db: ModelClient, range: { from: number; to: number; includeTo: boolean }): Promise<number> {
  return db.toolResult.count({ where: { confidence: { gte: range.from, ...(range.includeTo ? { lte: range.to } : { lt: range.to }) } } });
}

export async function countConfidenceOutOfRange(db: ModelClient): Promise<number> {
  return db.toolResult.count({ where: { OR: [{ confidence: { lt: 0 } }, { confidence: { gt: 1 } }] } });
}

export async function countNextActions(db: ModelClient): Promise<Map<string, number>> {
  const groups = await db.toolResult.groupBy({ by: ["nextAction"], where: { nextAction: { not: null } }, _count: { _all: true } });
  return new Map(groups.flatMap((g) => (g.nextAction === null ? [] : [[g.nextAction, g._count._all] as const])));
}

export type ErrorGroup = { toolName: string; errorType: string | null; errorSource: string | null; count: number };

/** Error results per (tool, envelope error type, error signal). The tool name lives on the call, hence the join. */
export async function countErrorsByTool(db: ModelClient): Promise<ErrorGroup[]> {
  const rows = await db.$queryRaw<{ toolName: string; errorType: string | null; errorSource: string | null; count: number | bigint | string }[]>`
    SELECT c."toolName" AS "toolName", r."errorType" AS "errorType", r."errorSource" AS "errorSource", COUNT(*) AS "count"
    FROM "ToolResult" r JOIN "ToolCall" c ON c."id" = r."toolCallId"
    WHERE r."isError" = TRUE
    GROUP BY c."toolName", r."errorType", r."errorSource"`;
  // COUNT(*) is a bigint on PostgreSQL and a number on SQLite.
  return rows.map((row) => ({ toolName: row.toolName, errorType: row.errorType, errorSource: row.errorSource, count: Number(row.count) }));
}

export async function countTimedOutByTool(db: ModelClient): Promise<Map<string, number>> {
  const groups = await db.toolCall.groupBy({ by: ["toolName"], where: { status: "timed_out" }, _count: { _all: true } });
  return new Map(groups.map((g) => [g.toolName, g._count._all]));
}

export type FinishedCall = { toolName: string; requestedAt: Date; finishedAt: Date; metaDurationMs: number | null };

/**
 * The most recently registered calls that finished (by row id, so the primary key bounds the scan). A call is
 * finished at its first result's arrival: completedAt records the same moment plus the group commit's latency.
 */
export async function findFinishedCalls(db: ModelClient, limit: number): Promise<FinishedCall[]> {
  const calls = await db.toolCall.findMany({
    where: { completedAt: { not: null } },
    orderBy: { id: "desc" },
    take: limit,
    select: {
      toolName: true,
      requestedAt: true,
      completedAt: true,
      results: { where: { ordinal: 0 }, select: { metaDurationMs: true, receivedAt: true }, take: 1 },
    },
  });
  return calls.flatMap((call) =>
    call.completedAt === null
      ? []
      : [
          {
            toolName: call.toolName,
            requestedAt: call.requestedAt,
            finishedAt: call.results[0]?.receivedAt ?? call.completedAt,
            metaDurationMs: call.results[0]?.metaDurationMs ?? null,
          },
        ],
  );
}
