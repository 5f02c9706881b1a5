// Prisma access for insights: indexed counts, grouped counts, one portable join (error types by tool) and a
// bounded sample of finished calls for durations. SQL stays portable across SQLite and PostgreSQL.
import "server-only";
import type { ModelClient } from "../db/client.ts";

/**
 * Results, and those with an envelope. Counted as total − those without (a range of the envelopeKind index over
 * its NULLs), so the index entries of every enveloped result are not walked (issue 13: insights at 1M results).
 */
export async function countResults(db: ModelClient): Promise<{ total: number; withEnvelope: number }> {
  // The total from the trigger-kept tally (RowTally): a count(*) walks a million index entries.
  const [tally, withoutEnvelope] = await Promise.all([db.rowTally.findUnique({ where: { key: "results" } }), db.toolResult.count({ where: { envelopeKind: null } })]);
  const total = tally?.count ?? 0;
  return { total, withEnvelope: total - withoutEnvelope };
}

/** Results with from ≤ confidence < to (≤ to when `includeTo`): one range scan of the confidence index each. */
export async function countConfidenceBetween(db: ModelClient, range: { from: number; to: number; includeTo: boolean }): Promise<number> {
  return db.toolResult.count({ where: { confidence: { gte: range.from, ...(range.includeTo ? { lte: range.to } : { lt: range.to }) } } });
}

export async function countConfidenceOutOfRange(db: ModelClient): Promise<number> {
  return db.toolResult.count({ where: { OR: [{ confidence: { lt: 0 } }, { confidence: { gt: 1 } }] } });
}

/** Results per nextAction, from the trigger-kept tallies (RowTally 'results.nextAction:<action>'). */
export async function countNextActions(db: ModelClient): Promise<Map<string, number>> {
  const prefix = "results.nextAction:";
  const rows = await db.rowTally.findMany({ where: { key: { startsWith: prefix } }, select: { key: true, count: true } });
  return new Map(rows.map((row) => [row.key.slice(prefix.length), row.count]));
}

export type ErrorGroup = { toolName: string; errorType: string | null; errorSource: string | null; count: number };

/**
 * Errored calls per (tool, error type, error signal), by each call's newest result: the explorer's columns
 * (explorer_calls migration), so the count is one range of a covering index and every bar drills into /calls
 * with exactly these calls.
 */
export async function countErrorsByTool(db: ModelClient): Promise<ErrorGroup[]> {
  const rows = await db.$queryRaw<{ toolName: string; errorType: string | null; errorSource: string | null; count: number | bigint | string }[]>`
    SELECT "toolName" AS "toolName", "resultErrorType" AS "errorType", "resultErrorSource" AS "errorSource", COUNT(*) AS "count"
    FROM "ToolCall" WHERE "resultIsError" = TRUE
    GROUP BY "toolName", "resultErrorType", "resultErrorSource"`;
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
 * One join, not a relation load: Prisma loads a relation with one bound parameter per parent row, and past
 * SQLite's limit (~1,000 finished calls) the page answered 500 (issue 13).
 */
export async function findFinishedCalls(db: ModelClient, limit: number): Promise<FinishedCall[]> {
  const rows = await db.$queryRaw<{ toolName: string; requestedAt: Date; completedAt: Date; receivedAt: Date | null; metaDurationMs: number | null }[]>`
    SELECT c."toolName" AS "toolName", c."requestedAt" AS "requestedAt", c."completedAt" AS "completedAt",
      r."receivedAt" AS "receivedAt", r."metaDurationMs" AS "metaDurationMs"
    FROM (SELECT "id", "toolName", "requestedAt", "completedAt" FROM "ToolCall" WHERE "completedAt" IS NOT NULL ORDER BY "id" DESC LIMIT ${limit}) c
    LEFT JOIN "ToolResult" r ON r."toolCallId" = c."id" AND r."ordinal" = 0
    ORDER BY c."id" DESC`;
  return rows.map((row) => ({
    toolName: row.toolName,
    requestedAt: new Date(row.requestedAt),
    finishedAt: new Date(row.receivedAt ?? row.completedAt),
    metaDurationMs: row.metaDurationMs === null ? null : Number(row.metaDurationMs),
  }));
}
