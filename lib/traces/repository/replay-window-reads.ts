// Prisma access for the replay step view of a live thread without reading the thread (issue 13: a 100k-call
// thread's first replay request read and converted every event, 2–4 s). What toCanonicalTimeline would say
// about the rows before a window is computed here in SQL; only the window's rows are read.
//
// A live row (source not in CANONICAL_DATA_SOURCES) is exactly one canonical event when its kind is one of
// CANONICAL_KINDS, or tool_call / tool_result with its call in the thread; every other row is omitted
// (toCanonicalTimeline). Its call id is the call's key, so pairing follows Event.toolCallId. The window is only
// read for threads whose tool_call / tool_result rows all have their call (threadFacts.plain): every query
// after that counts canonical events by kind alone, on the (threadId, kind, id) index.
//
// Joins from an answer row to its call's row go through the toolCallId index: `+c."threadId"`, `+c."id"` and
// `c."kind" || ''` keep SQLite from walking the (threadId, kind, id) index and PostgreSQL from intersecting it
// with a primary-key range (seen without statistics: minutes for 100k calls), once per answer.
import "server-only";
import type { ModelClient } from "../../db/client.ts";
import { decodeStoredText } from "../../results/text-codec.ts";
import { join, sql, type Sql } from "../../db/sql.ts";
import { CANONICAL_DATA_SOURCES, FORK_EVENT, IMPORT_EVENT } from "../event-kinds.ts";
import { EVENT_ROW_SELECT, toEventRow } from "./export-pages.ts";
import type { EventRow, TimelineCall, TimelineResult } from "./timeline-reads.ts";
import { readCalls } from "./timeline-reads.ts";

/** Kinds that are one canonical event whatever their columns hold (live rows). */
const CANONICAL_KINDS = ["message", "output_text", "reasoning", "error", "oauth", "protocol"];
/** Kinds of the rows of a plain thread that are one canonical event each. */
export const CANONICAL_ALL_KINDS = [...CANONICAL_KINDS, "tool_call", "tool_result"];
/** Kinds that answer a call in prepareHistory (oauth through its protocol event). */
export const ANSWER_KINDS = ["tool_result", "error", "oauth"];

export const list = (values: readonly string[]): Sql => join(values.map((value) => sql`${value}`));

/** Rows of a plain thread that are one canonical event each (alias e). */
export const CANONICAL = sql`e."kind" IN (${list(CANONICAL_ALL_KINDS)})`;

/** The tool_call row of answer row `a`'s call before it, through the toolCallId index (alias c). */
const callRowBefore = sql`SELECT 1 FROM "Event" c WHERE c."toolCallId" = a."toolCallId" AND +c."id" < a."id" AND (c."kind" || '') = 'tool_call' AND +c."threadId" = a."threadId"`;

export const toNumber = (value: number | bigint | null | undefined): number => Number(value ?? 0);

export type ThreadFacts = {
  /**
   * Whether the thread's canonical events follow from its columns alone: no imported or forked rows (their call
   * ids, paths and declarations live in dataJson) and no call recorded twice (a second tool_call row of one call
   * is a duplicate-id call that prepareHistory skips), and every tool_call / tool_result row has its call.
   */
  plain: boolean;
  /**
   * Whether every answer (a result or an error naming a call) follows its call's tool_call row and no call has two
   * (when plain): then no prefix of the thread needs its answers checked (prefixFacts).
   */
  answersPair: boolean;
  /** Canonical events of the thread (when plain). */
  total: number;
  /** Rows toCanonicalTimeline omits, by kind, in the order each first appears (when plain). */
  omitted: Record<string, number>;
  /** The newest row counted: later reads stop there, so events arriving meanwhile do not shift the window. */
  lastRow: number;
  /** The thread's rows up to lastRow (canonical or not), and its first row id. */
  rows: number;
  firstRow: number;
};

/**
 * What positional reads need to know of a thread: its row id range and how many rows and canonical events it
 * holds there, so a count from its start can be taken from its end when that is shorter (threadFacts).
 */
export type ThreadSpan = { threadId: number; firstRow: number; lastRow: number; rows: number; total: number };

/**
 * The thread's rows by kind (with the imported ones), then its tool rows grouped by call: tool rows without a call
 * or with a call of another thread, calls recorded twice, answers that do not pair. One pass each — on a
 * PostgreSQL database never ANALYZEd a per-row probe of ToolCall took 370 ms for 200k rows and the per-prefix
 * pairing check 210 ms per window read; grouped, all of it takes about 250 ms (SQLite: the same as the probes).
 */
export async function threadFacts(client: ModelClient, threadId: number): Promise<ThreadFacts> {
  const kinds = await client.$queryRaw<
    { kind: string; n: number | bigint; first: number | bigint; last: number | bigint; imported: number | bigint }[]
  >(sql`SELECT
      e."kind" AS kind, COUNT(*) AS n, MIN(e."id") AS first, MAX(e."id") AS last,
      SUM(CASE WHEN e."source" IN (${list([...CANONICAL_DATA_SOURCES])}) THEN 1 ELSE 0 END) AS imported
    FROM "Event" e WHERE e."threadId" = ${threadId} GROUP BY e."kind"`);
  const checks = await client.$queryRaw<
    { orphan: number | bigint | null; repeated: number | bigint | null; unpaired: number | bigint | null }[]
  >(sql`SELECT
      SUM(CASE WHEN g.k IS NULL THEN g.tool_rows
               WHEN g.tool_rows > 0 AND g.k NOT IN (SELECT t."id" FROM "ToolCall" t WHERE t."threadId" = ${threadId}) THEN 1 ELSE 0 END) AS orphan,
      SUM(CASE WHEN g.calls > 1 THEN 1 ELSE 0 END) AS repeated,
      SUM(CASE WHEN g.k IS NOT NULL AND g.answers > 0 AND (g.answers > 1 OR g.call_row IS NULL OR g.call_row > g.first_answer) THEN 1 ELSE 0 END) AS unpaired
    FROM (SELECT e."toolCallId" AS k,
        SUM(CASE WHEN e."kind" = 'tool_call' THEN 1 ELSE 0 END) AS calls,
        MIN(CASE WHEN e."kind" = 'tool_call' THEN e."id" END) AS call_row,
        SUM(CASE WHEN e."kind" = 'tool_call' THEN 0 ELSE 1 END) AS answers,
        MIN(CASE WHEN e."kind" = 'tool_call' THEN NULL ELSE e."id" END) AS first_answer,
        SUM(CASE WHEN e."kind" = 'error' THEN 0 ELSE 1 END) AS tool_rows
      FROM "Event" e WHERE e."threadId" = ${threadId} AND e."kind" IN ('tool_call', 'tool_result', 'error') GROUP BY e."toolCallId") g`);
  const check = checks[0];
  let total = 0;
  const omitted: [string, number, number][] = [];
  for (const row of kinds) {
    if (CANONICAL_KINDS.includes(row.kind) || row.kind === "tool_call" || row.kind === "tool_result")
      total += toNumber(row.n);
    else omitted.push([row.kind, toNumber(row.n), toNumber(row.first)]);
  }
  const imported = kinds.some(
    (row) => row.kind === IMPORT_EVENT || row.kind === FORK_EVENT || toNumber(row.imported) > 0,
  );
  const plain = check !== undefined && !imported && toNumber(check.orphan) === 0 && toNumber(check.repeated) === 0;
  const lastRow = Math.max(0, ...kinds.map((row) => toNumber(row.last)));
  return {
    plain,
    answersPair: plain && toNumber(check?.unpaired) === 0,
    total,
    lastRow,
    rows: kinds.reduce((sum, row) => sum + toNumber(row.n), 0),
    firstRow: Math.min(lastRow, ...kinds.map((row) => toNumber(row.first))),
    omitted: Object.fromEntries(omitted.sort((x, y) => x[2] - y[2]).map(([kind, n]) => [kind, n])),
  };
}

/**
 * Canonical events of the thread with row ids in [fromId, beforeId); from its start when `fromId` is omitted —
 * then counted from whichever end of the thread is nearer (PostgreSQL without statistics reads every row of the
 * range to count it).
 */
export async function countCanonical(
  client: ModelClient,
  span: ThreadSpan,
  beforeId: number,
  fromId?: number,
): Promise<number> {
  const count = async (from: number, before: number) => {
    const rows = await client.$queryRaw<{ n: number | bigint }[]>(
      sql`SELECT COUNT(*) AS n FROM "Event" e WHERE e."threadId" = ${span.threadId} AND e."id" >= ${from} AND e."id" < ${before} AND ${CANONICAL}`,
    );
    return toNumber(rows[0]?.n);
  };
  if (fromId !== undefined) return count(fromId, beforeId);
  return nearerToStart(span, beforeId) ? count(0, beforeId) : span.total - (await count(beforeId, span.lastRow + 1));
}

/** Event rows of the thread (canonical or not) with id below `beforeId`: a live row's path is its position. */
export async function countRowsBefore(client: ModelClient, span: ThreadSpan, beforeId: number): Promise<number> {
  if (nearerToStart(span, beforeId))
    return client.event.count({ where: { threadId: span.threadId, id: { lt: beforeId } } });
  return (
    span.rows -
    (await client.event.count({ where: { threadId: span.threadId, id: { gte: beforeId, lte: span.lastRow } } }))
  );
}

const nearerToStart = (span: ThreadSpan, id: number) => id - span.firstRow <= span.lastRow - id;

/**
 * The canonical row `skip` rows from the end (direction "back": before or at `from`) or the start ("forward": at
 * or after it) of the thread's rows, or null. Read in id ranges that grow until they hold it: without statistics
 * PostgreSQL sorts every row of the thread for an ORDER BY … OFFSET, but only the range's rows for a bounded one.
 */
async function canonicalRowFrom(
  client: ModelClient,
  span: ThreadSpan,
  from: number,
  skip: number,
  direction: "back" | "forward",
): Promise<{ id: number; kind: string; role: string | null } | null> {
  for (let reach = 2 * (skip + 1) + 64; ; reach *= 4) {
    const range =
      direction === "back"
        ? sql`e."id" <= ${from} AND e."id" > ${from - reach} ORDER BY e."id" DESC`
        : sql`e."id" >= ${from} AND e."id" < ${from + reach} ORDER BY e."id"`;
    const rows = await client.$queryRaw<{ id: number | bigint; kind: string; role: string | null }[]>(
      sql`SELECT e."id" AS id, e."kind" AS kind, e."role" AS role FROM "Event" e WHERE e."threadId" = ${span.threadId} AND ${CANONICAL} AND ${range} LIMIT 1 OFFSET ${skip}`,
    );
    const row = rows[0];
    if (row !== undefined) return { id: toNumber(row.id), kind: row.kind, role: row.role };
    if (direction === "back" ? from - reach < span.firstRow : from + reach > span.lastRow) return null;
  }
}

/** The row id of canonical event `index` (0-based), or null past the end. */
export async function canonicalRowAt(client: ModelClient, span: ThreadSpan, index: number): Promise<number | null> {
  return (await canonicalRowFrom(client, span, span.firstRow, index, "forward"))?.id ?? null;
}

/** The row id of the canonical event `back` events before row `endId` (0 = the canonical row at or before it), or null. */
export async function canonicalRowBack(
  client: ModelClient,
  span: ThreadSpan,
  endId: number,
  back: number,
): Promise<number | null> {
  return (await canonicalRowFrom(client, span, endId, back, "back"))?.id ?? null;
}

/** The last canonical row before `beforeId`, and whether it is model output; null at the start. */
export async function canonicalRowBefore(
  client: ModelClient,
  span: ThreadSpan,
  beforeId: number,
): Promise<{ id: number; output: boolean } | null> {
  const row = await canonicalRowFrom(client, span, beforeId - 1, 0, "back");
  if (row === null) return null;
  const output =
    row.kind === "tool_call" ||
    row.kind === "reasoning" ||
    row.kind === "output_text" ||
    (row.kind === "message" && row.role !== "system" && row.role !== "user");
  return { id: row.id, output };
}

/** Event rows of the thread by id, in id order. */
export async function readEventsById(
  client: ModelClient,
  threadId: number,
  ids: readonly number[],
): Promise<EventRow[]> {
  const out: EventRow[] = [];
  for (const chunk of chunks([...new Set(ids)])) {
    const rows = await client.event.findMany({ where: { threadId, id: { in: chunk } }, select: EVENT_ROW_SELECT });
    out.push(...rows.map(toEventRow));
  }
  return out.sort((a, b) => a.id - b.id);
}

/**
 * Before row `beforeId`: whether every canonical row is a history item (no protocol traffic, no oauth message,
 * every result and error answering an earlier, unanswered call — prepareHistory skips or adjusts nothing),
 * how many calls are unanswered there, and the first `limit` of those still unanswered up to row `stepRow` (the
 * window's own answers to calls before it count), in call order. Needs a plain thread (one tool_call row per call).
 * `answersPair`: the whole thread's answers are known to pair (threadFacts), so the prefix's need no checking.
 */
export async function prefixFacts(
  client: ModelClient,
  threadId: number,
  options: { beforeId: number; stepRow: number; limit: number; answersPair: boolean },
): Promise<{ allItems: boolean; pendingTotal: number; pending: { callKey: string; toolName: string }[] }> {
  const { beforeId, stepRow, limit } = options;
  const paired = options.answersPair
    ? sql`NULL`
    : sql`(SELECT COUNT(DISTINCT a."toolCallId") FROM "Event" a WHERE a."threadId" = ${threadId} AND a."id" < ${beforeId} AND a."kind" IN ('tool_result', 'error') AND EXISTS (${callRowBefore}))`;
  const counts = await client.$queryRaw<
    { other: number | bigint; answers: number | bigint; paired: number | bigint | null; calls: number | bigint }[]
  >(sql`SELECT
    (SELECT COUNT(*) FROM "Event" e WHERE e."threadId" = ${threadId} AND e."id" < ${beforeId} AND (e."kind" IN ('oauth', 'protocol') OR (e."kind" = 'error' AND e."toolCallId" IS NULL))) AS other,
    (SELECT COUNT(*) FROM "Event" e WHERE e."threadId" = ${threadId} AND e."id" < ${beforeId} AND e."kind" IN ('tool_result', 'error')) AS answers,
    ${paired} AS paired,
    (SELECT COUNT(*) FROM "Event" e WHERE e."threadId" = ${threadId} AND e."id" < ${beforeId} AND e."kind" = 'tool_call') AS calls`);
  const row = counts[0];
  // Each answer pairs when every answer follows its call's row and no call has two: as many answered calls as
  // answers. (An error naming a call of no tool_call row has none before it; one naming no call is `other`.)
  const answers = toNumber(row?.answers);
  if (row === undefined || toNumber(row.other) > 0 || (row.paired !== null && toNumber(row.paired) !== answers))
    return { allItems: false, pendingTotal: 0, pending: [] };
  const pendingTotal = toNumber(row.calls) - answers;
  if (pendingTotal <= 0) return { allItems: true, pendingTotal: 0, pending: [] };
  const pending = await client.$queryRaw<
    { callKey: string; toolName: string }[]
  >(sql`SELECT t."callKey" AS "callKey", t."toolName" AS "toolName"
    FROM "Event" e JOIN "ToolCall" t ON t."id" = e."toolCallId"
    WHERE e."threadId" = ${threadId} AND e."id" < ${beforeId} AND e."kind" = 'tool_call'
      AND NOT EXISTS (SELECT 1 FROM "Event" b WHERE b."toolCallId" = e."toolCallId" AND +b."id" > e."id" AND +b."id" <= ${stepRow} AND (b."kind" || '') IN (${list(ANSWER_KINDS)}) AND +b."threadId" = e."threadId")
    ORDER BY e."id" LIMIT ${limit}`);
  return { allItems: true, pendingTotal, pending };
}

/** Row ids of the system messages before `beforeId` (up to `limit` + 1, so a caller sees there are more). */
export async function systemMessagesBefore(
  client: ModelClient,
  threadId: number,
  beforeId: number,
  limit: number,
): Promise<number[]> {
  const rows = await client.event.findMany({
    where: { threadId, kind: "message", role: "system", id: { lt: beforeId } },
    orderBy: { id: "asc" },
    take: limit + 1,
    select: { id: true },
  });
  return rows.map((row) => row.id);
}

/**
 * The first row before `beforeId` that is a history item other than a system message (the request's opening item),
 * or null. Kind by kind (see canonicalRowFrom): the first output row of each kind, the first non-system message.
 */
export async function firstOpeningRow(client: ModelClient, threadId: number, beforeId: number): Promise<number | null> {
  const first = (condition: Sql) =>
    sql`(SELECT e."id" FROM "Event" e WHERE e."threadId" = ${threadId} AND ${condition} AND e."id" < ${beforeId} ORDER BY e."id" LIMIT 1)`;
  const rows = await client.$queryRaw<Record<string, number | bigint | null>[]>(sql`SELECT
      ${first(sql`e."kind" = 'output_text'`)} AS a, ${first(sql`e."kind" = 'reasoning'`)} AS b, ${first(sql`e."kind" = 'tool_call'`)} AS c,
      ${first(sql`e."kind" = 'message' AND (e."role" IS NULL OR e."role" <> 'system')`)} AS d`);
  const found = Object.values(rows[0] ?? {}).flatMap((value) =>
    value === null || value === undefined ? [] : [toNumber(value)],
  );
  return found.length === 0 ? null : Math.min(...found);
}

/**
 * "Replay at this call" for a live thread: the row of the call's first result after its tool_call row, else the
 * tool_call row itself (the step is right after it); null when the call has no tool_call row.
 */
export async function callStepRow(
  client: ModelClient,
  threadId: number,
  callKey: string,
): Promise<{ id: number; isResult: boolean } | null> {
  const call = await client.toolCall.findFirst({ where: { threadId, callKey }, select: { id: true } });
  if (call === null) return null;
  const callRow = await client.event.findFirst({
    where: { threadId, toolCallId: call.id, kind: "tool_call" },
    orderBy: { id: "asc" },
    select: { id: true },
  });
  if (callRow === null) return null;
  const result = await client.event.findFirst({
    where: { threadId, toolCallId: call.id, kind: "tool_result", id: { gt: callRow.id } },
    orderBy: { id: "asc" },
    select: { id: true },
  });
  return result === null ? { id: callRow.id, isResult: false } : { id: result.id, isResult: true };
}

/**
 * A live thread's tool declarations without reading its calls: per tool, its first call with a declaration
 * (the caller checks it parses and keeps the next one otherwise).
 */
export async function firstDeclaringCalls(
  client: ModelClient,
  threadId: number,
  afterIds: ReadonlyMap<string, number> = new Map(),
): Promise<TimelineCall[]> {
  const rows = await client.$queryRaw<{ id: number | bigint }[]>(
    sql`SELECT MIN("id") AS id FROM "ToolCall" WHERE "threadId" = ${threadId} AND "declarationJson" IS NOT NULL GROUP BY "toolName"`,
  );
  const ids = rows.map((row) => toNumber(row.id));
  if (afterIds.size === 0) return readCallsById(client, threadId, ids);
  // Tools whose first declaration did not parse: their next declaring call.
  const next: number[] = [];
  for (const [toolName, after] of afterIds) {
    const row = await client.toolCall.findFirst({
      where: { threadId, toolName, declarationJson: { not: null }, id: { gt: after } },
      orderBy: { id: "asc" },
      select: { id: true },
    });
    if (row !== null) next.push(row.id);
  }
  return readCallsById(client, threadId, next);
}

// Under the 999 bound parameters SQLite's adapter takes.
const CHUNK = 900;

function chunks(ids: readonly number[]): number[][] {
  const out: number[][] = [];
  for (let start = 0; start < ids.length; start += CHUNK) out.push(ids.slice(start, start + CHUNK));
  return out;
}

/** A window's ids are mostly consecutive: one range read then, IN lists otherwise. */
function asRange(ids: readonly number[]): { gte: number; lte: number } | null {
  if (ids.length < 50) return null;
  const low = Math.min(...ids);
  const high = Math.max(...ids);
  return high - low < ids.length * 2 ? { gte: low, lte: high } : null;
}

/** Calls of the thread by row id, in id order. */
export async function readCallsById(
  client: ModelClient,
  threadId: number,
  ids: readonly number[],
): Promise<TimelineCall[]> {
  const wanted = [...new Set(ids)].sort((a, b) => a - b);
  const range = asRange(wanted);
  if (range !== null) {
    const set = new Set(wanted);
    return (await readCalls(client, threadId, undefined, range)).filter((call) => set.has(call.id));
  }
  const out: TimelineCall[] = [];
  for (const chunk of chunks(wanted)) out.push(...(await readCalls(client, threadId, undefined, chunk)));
  return out.sort((a, b) => a.id - b.id);
}

/**
 * Results by row id, of the calls `calls` only (the thread's, read by readCallsById): checked here rather than
 * through a join on ToolCall, which cost PostgreSQL 70–100 ms per 2,000 results without statistics.
 */
export async function readResultsById(
  client: ModelClient,
  calls: ReadonlySet<number>,
  ids: readonly number[],
): Promise<TimelineResult[]> {
  const wanted = [...new Set(ids)];
  const range = asRange(wanted);
  const set = new Set(wanted);
  const out: TimelineResult[] = [];
  for (const chunk of range === null ? chunks(wanted) : [range]) {
    const rows = await client.toolResult.findMany({
      where: { id: Array.isArray(chunk) ? { in: chunk } : chunk },
      select: { id: true, toolCallId: true, ordinal: true, text: true, textEscaped: true, isError: true },
    });
    for (const { textEscaped, ...row } of rows)
      if (set.has(row.id) && calls.has(row.toolCallId))
        out.push({ ...row, text: decodeStoredText(row.text, textEscaped) });
  }
  return out;
}
