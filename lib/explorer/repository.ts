// The explorer's one query: calls across threads, filtered on ToolCall's own (trigger-kept) columns, searched
// through the database's full-text index, in keyset order. Raw SQL because of the full-text part; every
// filter is a bound parameter. Indexes: (toolName|vendor|status|resultErrorType|resultNextAction, requestedAt),
// requestedAt, latencyMs, resultConfidence (the explorer_calls migration).
import "server-only";
import type { ModelClient } from "../db/client.ts";
import type { Provider } from "../db/database-url.ts";
import { empty, join, raw, sql, type Sql } from "../db/sql.ts";

export type CallFilters = {
  tool?: string;
  status?: string;
  /** An envelope error.type; or a signal (errorSource with no type); or the deadline having passed. */
  errorType?:
    { kind: "type"; value: string } | { kind: "signal"; source: string } | { kind: "deadline" } | { kind: "untyped" };
  vendor?: string;
  latencyMin?: number;
  latencyMax?: number;
  confidenceMin?: number;
  confidenceBelow?: number;
  confidenceMax?: number;
  isError?: boolean;
  nextAction?: string;
  envelope?: "trusted" | "valid" | "partial" | "invalid" | "none";
  late?: boolean;
  timedOut?: boolean;
  from?: Date;
  to?: Date;
  groupId?: string;
  /** Words that must all occur somewhere in the call's arguments or results (each a phrase of its tokens), each with its query shape. */
  words?: { word: string; shape: "drive" | "probe" }[];
};

export type CallOrder = {
  column: "requestedAt" | "latencyMs" | "resultConfidence";
  direction: "asc" | "desc";
};
export type CallRow = {
  id: number;
  groupId: string;
  callKey: string;
  toolName: string;
  vendor: string | null;
  step: number | null;
  status: string;
  requestedAt: Date;
  completedAt: Date | null;
  deadlineAt: Date | null;
  timedOutAt: Date | null;
  resultCount: number;
  latencyMs: number | null;
  resultLate: boolean;
  resultEnvelopeKind: string | null;
  resultSuccess: boolean | null;
  resultIsError: boolean | null;
  resultErrorType: string | null;
  resultConfidence: number | null;
  resultNextAction: string | null;
};

const COLUMNS = [
  "id",
  "groupId",
  "callKey",
  "toolName",
  "vendor",
  "step",
  "status",
  "requestedAt",
  "completedAt",
  "deadlineAt",
  "timedOutAt",
  "resultCount",
  "latencyMs",
  "resultLate",
  "resultEnvelopeKind",
  "resultSuccess",
  "resultIsError",
  "resultErrorType",
  "resultConfidence",
  "resultNextAction",
] as const;

function errorTypeCondition(filter: NonNullable<CallFilters["errorType"]>): Sql {
  switch (filter.kind) {
    case "deadline":
      return sql`c."status" = 'timed_out'`;
    case "type":
      return sql`c."resultErrorType" = ${filter.value} AND c."resultIsError" = TRUE`;
    case "signal":
      return sql`c."resultIsError" = TRUE AND c."resultErrorType" IS NULL AND c."resultErrorSource" = ${filter.source}`;
    case "untyped":
      return sql`c."resultIsError" = TRUE AND c."resultErrorType" IS NULL AND (c."resultErrorSource" IS NULL OR c."resultErrorSource" NOT IN ('mcp', 'error_prefix', 'envelope'))`;
  }
}

const ftsPhrase = (word: string) => `"${word.replaceAll('"', '""')}"`;

/**
 * The calls whose arguments or a result text hold `word`, through the provider's full-text index. Two shapes on
 * SQLite, chosen per word by how common it is (`countWordMatches`): "drive" lists the matches and looks each call
 * up (fast for rare words: 1 match in 1M calls, 60 ms), "probe" walks the chosen order and asks the index about
 * each call (fast for common words: 970k matches, 40 ms instead of 5.7 s; slow for rare ones).
 */
function searchCondition(provider: Provider, word: string, shape: "drive" | "probe"): Sql {
  if (provider === "sqlite") {
    // FTS5: the word as one quoted phrase ("" escapes a quote), so no FTS5 syntax reaches the engine.
    const match = ftsPhrase(word);
    if (shape === "probe") {
      return sql`(EXISTS (SELECT 1 FROM "ToolCallSearch" WHERE "ToolCallSearch" MATCH ${match} AND rowid = c."id")
        OR EXISTS (SELECT 1 FROM "ToolResult" r JOIN "ToolResultSearch" s ON s.rowid = r."id" WHERE r."toolCallId" = c."id" AND "ToolResultSearch" MATCH ${match}))`;
    }
    return sql`c."id" IN (SELECT rowid FROM "ToolCallSearch" WHERE "ToolCallSearch" MATCH ${match}
      UNION SELECT r."toolCallId" FROM "ToolResultSearch" s JOIN "ToolResult" r ON r."id" = s.rowid WHERE "ToolResultSearch" MATCH ${match})`;
  }
  // The same expressions as the GIN indexes of the explorer_calls migration, or the indexes are not used.
  const query = sql`phraseto_tsquery('simple'::regconfig, ${word})`;
  if (shape === "probe") {
    // A scalar subquery with LIMIT 1, not EXISTS: PostgreSQL turns an uncorrelated-looking EXISTS into one hashed
    // scan of every result (3 s at 100k), while this stays a per-call index lookup (4 ms).
    return sql`(to_tsvector('simple'::regconfig, left(COALESCE(c."argumentsText", ''), 100000)) @@ ${query}
      OR (SELECT 1 FROM "ToolResult" r WHERE r."toolCallId" = c."id" AND to_tsvector('simple'::regconfig, left(r."text", 100000)) @@ ${query} LIMIT 1) IS NOT NULL)`;
  }
  return sql`c."id" IN (SELECT "id" FROM "ToolCall" WHERE to_tsvector('simple'::regconfig, left(COALESCE("argumentsText", ''), 100000)) @@ ${query}
    UNION SELECT "toolCallId" FROM "ToolResult" WHERE to_tsvector('simple'::regconfig, left("text", 100000)) @@ ${query})`;
}

/**
 * How many texts hold `word`, counted up to `cap`. SQLite walks the word's doclist (no row lookups); PostgreSQL
 * rechecks each indexed match against its text, so callers keep its cap small.
 */
export async function countWordMatches(
  db: ModelClient,
  provider: Provider,
  word: string,
  cap: number,
): Promise<number> {
  if (provider === "postgresql") {
    const query = sql`phraseto_tsquery('simple'::regconfig, ${word})`;
    const rows = await db.$queryRaw<{ n: number | bigint }[]>(sql`SELECT
      (SELECT COUNT(*) FROM (SELECT 1 FROM "ToolResult" WHERE to_tsvector('simple'::regconfig, left("text", 100000)) @@ ${query} LIMIT ${cap}) m)
      + (SELECT COUNT(*) FROM (SELECT 1 FROM "ToolCall" WHERE to_tsvector('simple'::regconfig, left(COALESCE("argumentsText", ''), 100000)) @@ ${query} LIMIT ${cap}) a) AS n`);
    return Number(rows[0]?.n ?? 0);
  }
  const match = ftsPhrase(word);
  const rows = await db.$queryRaw<{ n: number | bigint }[]>(sql`SELECT
    (SELECT COUNT(*) FROM (SELECT rowid FROM "ToolResultSearch" WHERE "ToolResultSearch" MATCH ${match} LIMIT ${cap}))
    + (SELECT COUNT(*) FROM (SELECT rowid FROM "ToolCallSearch" WHERE "ToolCallSearch" MATCH ${match} LIMIT ${cap})) AS n`);
  return Number(rows[0]?.n ?? 0);
}

/** Calls stored, from the trigger-kept tally (RowTally 'calls'): a count(*) walks every index entry. */
export async function countCalls(db: ModelClient): Promise<number> {
  const tally = await db.rowTally.findUnique({
    where: { key: "calls" },
    select: { count: true },
  });
  return tally?.count ?? 0;
}

function conditions(provider: Provider, f: CallFilters): Sql[] {
  const where: Sql[] = [];
  if (f.tool !== undefined) where.push(sql`c."toolName" = ${f.tool}`);
  if (f.status !== undefined) where.push(sql`c."status" = ${f.status}`);
  if (f.errorType !== undefined) where.push(errorTypeCondition(f.errorType));
  if (f.vendor !== undefined) where.push(sql`c."vendor" = ${f.vendor}`);
  if (f.latencyMin !== undefined) where.push(sql`c."latencyMs" >= ${f.latencyMin}`);
  if (f.latencyMax !== undefined) where.push(sql`c."latencyMs" <= ${f.latencyMax}`);
  if (f.confidenceMin !== undefined) where.push(sql`c."resultConfidence" >= ${f.confidenceMin}`);
  if (f.confidenceBelow !== undefined) where.push(sql`c."resultConfidence" < ${f.confidenceBelow}`);
  if (f.confidenceMax !== undefined) where.push(sql`c."resultConfidence" <= ${f.confidenceMax}`);
  if (f.isError) where.push(sql`c."resultIsError" = TRUE`);
  if (f.nextAction !== undefined) where.push(sql`c."resultNextAction" = ${f.nextAction}`);
  if (f.envelope === "trusted") where.push(sql`c."resultEnvelopeKind" IN ('valid', 'partial')`);
  else if (f.envelope === "none") where.push(sql`c."resultCount" > 0 AND c."resultEnvelopeKind" IS NULL`);
  else if (f.envelope !== undefined) where.push(sql`c."resultEnvelopeKind" = ${f.envelope}`);
  if (f.late) where.push(sql`c."resultLate" = TRUE`);
  if (f.timedOut) where.push(sql`c."timedOutAt" IS NOT NULL`);
  if (f.from !== undefined) where.push(sql`c."requestedAt" >= ${f.from}`);
  if (f.to !== undefined) where.push(sql`c."requestedAt" < ${f.to}`);
  if (f.groupId !== undefined) where.push(sql`c."groupId" = ${f.groupId}`);
  // Each word may be in the arguments or in any result of the call.
  for (const { word, shape } of f.words ?? []) where.push(searchCondition(provider, word, shape));
  return where;
}

export type KeysetPosition = { key: Date | number; id: number };
type PageOptions = {
  filters: CallFilters;
  order: CallOrder;
  after: KeysetPosition | null;
  limit: number;
};

/** The conditions of a walk in `order` after `after`, without the full-text words. */
function walkConditions(provider: Provider, options: Omit<PageOptions, "limit">): Sql[] {
  const { order, after } = options;
  const column = raw(`c."${order.column}"`);
  const where = conditions(provider, { ...options.filters, words: undefined });
  // Latency and confidence orders list only calls that have the value (a null has no place in the order).
  if (order.column !== "requestedAt") where.push(sql`${column} IS NOT NULL`);
  // Row-value comparison: both databases turn it into one index range.
  if (after !== null)
    where.push(
      order.direction === "desc"
        ? sql`(${column}, c."id") < (${after.key}, ${after.id})`
        : sql`(${column}, c."id") > (${after.key}, ${after.id})`,
    );
  return where;
}

const whereClause = (where: Sql[]): Sql => (where.length > 0 ? sql`WHERE ${join(where, " AND ")}` : empty);

/**
 * One keyset page: `limit` rows after `after` in `order` (ties broken by id in the same direction). With `scan`,
 * only the next `scan` calls of the walk are searched for the words (a bounded piece of a long search).
 */
export async function findCallsPage(
  db: ModelClient,
  provider: Provider,
  options: PageOptions & { scan?: number },
): Promise<CallRow[]> {
  const column = raw(`c."${options.order.column}"`);
  const dir = raw(options.order.direction === "desc" ? "DESC" : "ASC");
  const walk = walkConditions(provider, options);
  const words = (options.filters.words ?? []).map(({ word, shape }) => searchCondition(provider, word, shape));
  const select = raw(COLUMNS.map((name) => `c."${name}"`).join(", "));
  if (options.scan === undefined) {
    const rows = await db.$queryRaw<Record<(typeof COLUMNS)[number], unknown>[]>(sql`
      SELECT ${select} FROM "ToolCall" c ${whereClause([...walk, ...words])}
      ORDER BY ${column} ${dir}, c."id" ${dir} LIMIT ${options.limit}`);
    return rows.map(toRow);
  }
  // The walk's next `scan` calls first (a LIMIT in a subquery is never flattened away), then the words on those.
  const rows = await db.$queryRaw<Record<(typeof COLUMNS)[number], unknown>[]>(sql`
    SELECT ${select} FROM "ToolCall" c WHERE c."id" IN (
      SELECT c."id" FROM "ToolCall" c ${whereClause(walk)} ORDER BY ${column} ${dir}, c."id" ${dir} LIMIT ${options.scan})
    ${words.length > 0 ? sql`AND ${join(words, " AND ")}` : empty}
    ORDER BY ${column} ${dir}, c."id" ${dir} LIMIT ${options.limit}`);
  return rows.map(toRow);
}

/**
 * Where a walk of `scan` calls after `after` ends: the position of its last call, or null when fewer than `scan`
 * calls are left (the walk reached the end). Index-only on both databases: no text is read.
 */
export async function findWalkEnd(
  db: ModelClient,
  provider: Provider,
  options: Omit<PageOptions, "limit"> & { scan: number },
): Promise<KeysetPosition | null> {
  const column = raw(`c."${options.order.column}"`);
  const dir = raw(options.order.direction === "desc" ? "DESC" : "ASC");
  const rows = await db.$queryRaw<{ key: unknown; id: unknown }[]>(sql`
    SELECT ${column} AS "key", c."id" AS "id" FROM "ToolCall" c ${whereClause(walkConditions(provider, options))}
    ORDER BY ${column} ${dir}, c."id" ${dir} LIMIT 1 OFFSET ${options.scan - 1}`);
  const row = rows[0];
  if (row === undefined) return null;
  const key = options.order.column === "requestedAt" ? date(row.key) : num(row.key);
  return key === null ? null : { key, id: Number(row.id) };
}

/**
 * Each call's first result: when it arrived and its tool-reported duration (`meta.durationMs`, when ≥ 0), for the
 * page's rows only — the list names both measurements instead of passing one off as the other.
 */
export async function findFirstResults(
  db: ModelClient,
  callRowIds: number[],
): Promise<Map<number, { receivedAt: Date | null; reportedMs: number | null }>> {
  if (callRowIds.length === 0) return new Map();
  const rows = await db.$queryRaw<{ toolCallId: unknown; receivedAt: unknown; metaDurationMs: unknown }[]>(sql`
    SELECT r."toolCallId", r."receivedAt", r."metaDurationMs" FROM "ToolResult" r WHERE r."id" IN (
      SELECT MIN(f."id") FROM "ToolResult" f WHERE f."toolCallId" IN (${join(callRowIds, ", ")}) GROUP BY f."toolCallId")`);
  const first = new Map<number, { receivedAt: Date | null; reportedMs: number | null }>();
  for (const row of rows) {
    const ms = num(row.metaDurationMs);
    first.set(Number(row.toolCallId), {
      receivedAt: date(row.receivedAt),
      reportedMs: ms !== null && ms >= 0 ? ms : null,
    });
  }
  return first;
}

const date = (value: unknown): Date | null =>
  value === null || value === undefined ? null : new Date(value instanceof Date ? value : String(value));
const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
const bool = (value: unknown): boolean | null =>
  value === null || value === undefined ? null : value === true || value === 1 || value === 1n;
const str = (value: unknown): string | null => (typeof value === "string" ? value : null);

// SQLite hands booleans back as 0/1 and may return bigints; PostgreSQL returns booleans and numbers.
function toRow(row: Record<(typeof COLUMNS)[number], unknown>): CallRow {
  return {
    id: Number(row.id),
    groupId: String(row.groupId),
    callKey: String(row.callKey),
    toolName: String(row.toolName),
    vendor: str(row.vendor),
    step: num(row.step),
    status: String(row.status),
    requestedAt: date(row.requestedAt) ?? new Date(0),
    completedAt: date(row.completedAt),
    deadlineAt: date(row.deadlineAt),
    timedOutAt: date(row.timedOutAt),
    resultCount: Number(row.resultCount),
    latencyMs: num(row.latencyMs),
    resultLate: bool(row.resultLate) ?? false,
    resultEnvelopeKind: str(row.resultEnvelopeKind),
    resultSuccess: bool(row.resultSuccess),
    resultIsError: bool(row.resultIsError),
    resultErrorType: str(row.resultErrorType),
    resultConfidence: num(row.resultConfidence),
    resultNextAction: str(row.resultNextAction),
  };
}

const REPLAY_KINDS = ["message", "output_text", "reasoning", "tool_call", "tool_result", "error", "oauth", "protocol"];

/**
 * The replay step that shows this call with its newest result: how many of the thread's timeline events up to
 * and including that result (else the call) replay shows (the kinds lib/traces/canonical-timeline keeps). Null
 * when the call has no timeline event.
 */
export async function findReplayStep(
  db: ModelClient,
  callRowId: number,
): Promise<{ groupId: string; step: number } | null> {
  const last = await db.event.findFirst({
    where: {
      toolCallId: callRowId,
      kind: { in: ["tool_result", "tool_call"] },
    },
    orderBy: { id: "desc" },
    select: { id: true, threadId: true, thread: { select: { groupId: true } } },
  });
  if (last === null) return null;
  const step = await db.event.count({
    where: {
      threadId: last.threadId,
      id: { lte: last.id },
      kind: { in: REPLAY_KINDS },
    },
  });
  return { groupId: last.thread.groupId, step };
}

/** Distinct tool names in name order, one index seek each (a loose index scan), at most `limit`. */
export async function findToolNames(db: ModelClient, limit: number): Promise<string[]> {
  const rows = await db.$queryRaw<{ name: string | null }[]>(sql`
    WITH RECURSIVE t(name) AS (
      SELECT MIN("toolName") FROM "ToolCall"
      UNION ALL
      SELECT (SELECT MIN("toolName") FROM "ToolCall" WHERE "toolName" > t.name) FROM t WHERE t.name IS NOT NULL
    )
    SELECT name FROM t WHERE name IS NOT NULL LIMIT ${limit}`);
  return rows.flatMap((row) => (row.name === null ? [] : [row.name]));
}
