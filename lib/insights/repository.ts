// Prisma access for insights: the trigger-kept tallies (one small read) and a bounded sample of finished calls for
// durations. SQL stays portable across SQLite and PostgreSQL.
import "server-only";
import type { ModelClient } from "../db/client.ts";

/** The trigger-kept tallies Insights reads (RowTally; migrations 20261126055445_explorer_calls and 20261126090000_insights_tallies). */
export type InsightsTallies = {
  results: number;
  withoutEnvelope: number;
  /** Results per confidence tenth: index k counts k/10 ≤ confidence < (k+1)/10, with 1.0 in the last. */
  confidenceTenths: number[];
  confidenceOutOfRange: number;
  nextActions: Map<string, number>;
  errors: ErrorGroup[];
  timedOutByTool: Map<string, number>;
};

export type ErrorGroup = { toolName: string; errorType: string | null; errorSource: string | null; count: number };

const TENTH = "results.confidence.tenth:";
const NEXT_ACTION = "results.nextAction:";
const ERROR = "calls.error:";
const TIMED_OUT = "calls.timed_out.tool:";

function errorGroup(json: string, count: number): ErrorGroup | null {
  // The key's tail is a JSON array [tool, errorType, errorSource] written by the database (json_array / json_build_array).
  const parsed: unknown = JSON.parse(json);
  if (!Array.isArray(parsed) || typeof parsed[0] !== "string") return null;
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  return { toolName: parsed[0], errorType: text(parsed[1]), errorSource: text(parsed[2]), count };
}

/**
 * Every aggregate of the page in one read of a few dozen tally rows: counting them live walked a million index
 * entries (0.9–1.7 s at 1M results, issue 13). Errors are counted per call by its newest result (the explorer's
 * columns), so each bar drills into /calls with exactly these calls.
 */
export async function readInsightsTallies(db: ModelClient): Promise<InsightsTallies> {
  const rows = await db.rowTally.findMany({
    where: {
      OR: [{ key: { startsWith: "results" } }, { key: { startsWith: ERROR } }, { key: { startsWith: TIMED_OUT } }],
    },
    select: { key: true, count: true },
  });
  const tallies: InsightsTallies = {
    results: 0,
    withoutEnvelope: 0,
    confidenceTenths: Array.from({ length: 10 }, () => 0),
    confidenceOutOfRange: 0,
    nextActions: new Map(),
    errors: [],
    timedOutByTool: new Map(),
  };
  for (const { key, count } of rows) {
    if (count <= 0) continue;
    if (key === "results") tallies.results = count;
    else if (key === "results.envelope:none") tallies.withoutEnvelope = count;
    else if (key === "results.confidence:out") tallies.confidenceOutOfRange = count;
    else if (key.startsWith(TENTH)) {
      const tenth = Number(key.slice(TENTH.length));
      if (Number.isInteger(tenth) && tenth >= 0 && tenth < 10) tallies.confidenceTenths[tenth] = count;
    } else if (key.startsWith(NEXT_ACTION)) tallies.nextActions.set(key.slice(NEXT_ACTION.length), count);
    else if (key.startsWith(TIMED_OUT)) tallies.timedOutByTool.set(key.slice(TIMED_OUT.length), count);
    else if (key.startsWith(ERROR)) {
      const group = errorGroup(key.slice(ERROR.length), count);
      if (group) tallies.errors.push(group);
    }
  }
  return tallies;
}

export type FinishedCall = { toolName: string; requestedAt: Date; finishedAt: Date; metaDurationMs: number | null };

/**
 * The most recently registered calls that finished (by row id, so the primary key bounds the scan). A call is
 * finished at its first result's arrival: completedAt records the same moment plus the group commit's latency.
 * One join, not a relation load: Prisma loads a relation with one bound parameter per parent row, and past
 * SQLite's limit (~1,000 finished calls) the page answered 500 (issue 13).
 */
export async function findFinishedCalls(db: ModelClient, limit: number): Promise<FinishedCall[]> {
  const rows = await db.$queryRaw<
    { toolName: string; requestedAt: Date; completedAt: Date; receivedAt: Date | null; metaDurationMs: number | null }[]
  >`
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
