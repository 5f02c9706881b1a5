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
import { join, raw, sql, type Sql } from "../../db/sql.ts";
import { CANONICAL_DATA_SOURCES, FORK_EVENT, IMPORT_EVENT } from "../event-kinds.ts";
import type { TimelineCall, TimelineResult } from "./timeline-reads.ts";
import { readCalls } from "./timeline-reads.ts";

/** Kinds that are one canonical event whatever their columns hold (live rows). */
const CANONICAL_KINDS = ["message", "output_text", "reasoning", "error", "oauth", "protocol"];
/** Kinds that answer a call in prepareHistory (oauth through its protocol event). */
const ANSWER_KINDS = ["tool_result", "error", "oauth"];

const list = (values: readonly string[]): Sql => join(values.map((value) => sql`${value}`));

const callInThread = (alias: string): Sql =>
  sql`EXISTS (SELECT 1 FROM "ToolCall" t WHERE t."id" = ${rawAlias(alias)}."toolCallId" AND t."threadId" = ${rawAlias(alias)}."threadId")`;

function rawAlias(alias: string): Sql {
  if (!/^[a-z]$/.test(alias)) throw new Error(`not an alias: ${alias}`);
  return raw(alias);
}

/** Rows of a plain thread that are one canonical event each (alias e). */
const CANONICAL = sql`e."kind" IN (${list([...CANONICAL_KINDS, "tool_call", "tool_result"])})`;

/** The tool_call row of answer row `a`'s call before it, through the toolCallId index (alias c). */
const callRowBefore = sql`SELECT 1 FROM "Event" c WHERE c."toolCallId" = a."toolCallId" AND +c."id" < a."id" AND (c."kind" || '') = 'tool_call' AND +c."threadId" = a."threadId"`;

const toNumber = (value: number | bigint | null | undefined): number => Number(value ?? 0);

export type ThreadFacts = {
  /**
   * Whether the thread's canonical events follow from its columns alone: no imported or forked rows (their call
   * ids, paths and declarations live in dataJson) and no call recorded twice (a second tool_call row of one call
   * is a duplicate-id call that prepareHistory skips), and every tool_call / tool_result row has its call.
   */
  plain: boolean;
  /** Canonical events of the thread (when plain). */
  total: number;
  /** Rows toCanonicalTimeline omits, by kind, in the order each first appears (when plain). */
  omitted: Record<string, number>;
  /** The newest row counted: later reads stop there, so events arriving meanwhile do not shift the window. */
  lastRow: number;
};

/** The thread's rows by kind (index only), the tool rows without their call, imported rows, calls recorded twice. */
export async function threadFacts(client: ModelClient, threadId: number): Promise<ThreadFacts> {
  const kinds = await client.$queryRaw<{ kind: string; n: number | bigint; first: number | bigint; last: number | bigint }[]>(
    sql`SELECT e."kind" AS kind, COUNT(*) AS n, MIN(e."id") AS first, MAX(e."id") AS last FROM "Event" e WHERE e."threadId" = ${threadId} GROUP BY e."kind"`,
  );
  const checks = await client.$queryRaw<{ orphan: number | bigint | null; imported: number | bigint | null; repeated: number | bigint | null }[]>(sql`SELECT
    (SELECT 1 FROM "Event" e WHERE e."threadId" = ${threadId} AND e."kind" IN ('tool_call', 'tool_result') AND NOT ${callInThread("e")} LIMIT 1) AS orphan,
    (SELECT 1 FROM "Event" e WHERE e."threadId" = ${threadId} AND e."source" IN (${list([...CANONICAL_DATA_SOURCES])}) LIMIT 1) AS imported,
    (SELECT 1 FROM "Event" e WHERE e."threadId" = ${threadId} AND e."kind" = 'tool_call' GROUP BY e."toolCallId" HAVING COUNT(*) > 1 LIMIT 1) AS repeated`);
  const check = checks[0];
  let total = 0;
  const omitted: [string, number, number][] = [];
  for (const row of kinds) {
    if (CANONICAL_KINDS.includes(row.kind) || row.kind === "tool_call" || row.kind === "tool_result") total += toNumber(row.n);
    else omitted.push([row.kind, toNumber(row.n), toNumber(row.first)]);
  }
  const imported = kinds.some((row) => row.kind === IMPORT_EVENT || row.kind === FORK_EVENT) || check?.imported != null;
  const plain = check !== undefined && !imported && check.orphan == null && check.repeated == null;
  const lastRow = Math.max(0, ...kinds.map((row) => toNumber(row.last)));
  return { plain, total, lastRow, omitted: Object.fromEntries(omitted.sort((x, y) => x[2] - y[2]).map(([kind, n]) => [kind, n])) };
}

/** Canonical events of the thread with row ids in [fromId, beforeId). */
export async function countCanonical(client: ModelClient, threadId: number, beforeId: number, fromId = 0): Promise<number> {
  const rows = await client.$queryRaw<{ n: number | bigint }[]>(
    sql`SELECT COUNT(*) AS n FROM "Event" e WHERE e."threadId" = ${threadId} AND e."id" >= ${fromId} AND e."id" < ${beforeId} AND ${CANONICAL}`,
  );
  return toNumber(rows[0]?.n);
}

/** Event rows of the thread (canonical or not) with id below `beforeId`: a live row's path is its position. */
export async function countRowsBefore(client: ModelClient, threadId: number, beforeId: number): Promise<number> {
  return client.event.count({ where: { threadId, id: { lt: beforeId } } });
}

/** The row id of canonical event `index` (0-based), or null past the end. */
export async function canonicalRowAt(client: ModelClient, threadId: number, index: number): Promise<number | null> {
  const rows = await client.$queryRaw<{ id: number | bigint }[]>(sql`SELECT e."id" AS id FROM "Event" e WHERE e."threadId" = ${threadId} AND ${CANONICAL} ORDER BY e."id" LIMIT 1 OFFSET ${index}`);
  return rows[0] === undefined ? null : toNumber(rows[0].id);
}

/** The row id of the canonical event `back` events before row `endId` (0 = the canonical row at or before it), or null. */
export async function canonicalRowBack(client: ModelClient, threadId: number, endId: number, back: number): Promise<number | null> {
  const rows = await client.$queryRaw<{ id: number | bigint }[]>(
    sql`SELECT e."id" AS id FROM "Event" e WHERE e."threadId" = ${threadId} AND e."id" <= ${endId} AND ${CANONICAL} ORDER BY e."id" DESC LIMIT 1 OFFSET ${back}`,
  );
  return rows[0] === undefined ? null : toNumber(rows[0].id);
}

/**
 * The earliest tool_call row whose call is answered by a row in [fromId, toId] (a result, error or oauth
 * message after it), when that call row is before `fromId`: a window starting at `fromId` would lose the pair.
 */
export async function earliestCallAnsweredIn(client: ModelClient, threadId: number, fromId: number, toId: number): Promise<number | null> {
  const rows = await client.$queryRaw<{ id: number | bigint | null }[]>(sql`SELECT MIN(
      (SELECT MIN(c."id") FROM "Event" c WHERE c."toolCallId" = a."toolCallId" AND +c."id" < ${fromId} AND (c."kind" || '') = 'tool_call' AND +c."threadId" = a."threadId")
    ) AS id FROM "Event" a WHERE a."threadId" = ${threadId} AND a."id" >= ${fromId} AND a."id" <= ${toId} AND a."kind" IN (${list(ANSWER_KINDS)}) AND a."toolCallId" IS NOT NULL`);
  const id = rows[0]?.id;
  return id === null || id === undefined ? null : toNumber(id);
}

/**
 * Before row `beforeId`: whether every canonical row is a history item (no protocol traffic, no oauth message,
 * every result and error answering an earlier, unanswered call — prepareHistory skips or adjusts nothing),
 * how many calls are still unanswered there, and the first `limit` of them in call order. Needs a plain thread
 * (one tool_call row per call).
 */
export async function prefixFacts(
  client: ModelClient,
  threadId: number,
  beforeId: number,
  limit: number,
): Promise<{ allItems: boolean; pendingTotal: number; pending: { callKey: string; toolName: string }[] }> {
  const counts = await client.$queryRaw<{ other: number | bigint; answers: number | bigint; paired: number | bigint; calls: number | bigint }[]>(sql`SELECT
    (SELECT COUNT(*) FROM "Event" e WHERE e."threadId" = ${threadId} AND e."id" < ${beforeId} AND (e."kind" IN ('oauth', 'protocol') OR (e."kind" = 'error' AND e."toolCallId" IS NULL))) AS other,
    (SELECT COUNT(*) FROM "Event" e WHERE e."threadId" = ${threadId} AND e."id" < ${beforeId} AND e."kind" IN ('tool_result', 'error')) AS answers,
    (SELECT COUNT(DISTINCT a."toolCallId") FROM "Event" a WHERE a."threadId" = ${threadId} AND a."id" < ${beforeId} AND a."kind" IN ('tool_result', 'error') AND EXISTS (${callRowBefore})) AS paired,
    (SELECT COUNT(*) FROM "Event" e WHERE e."threadId" = ${threadId} AND e."id" < ${beforeId} AND e."kind" = 'tool_call') AS calls`);
  const row = counts[0];
  // Each answer pairs when every answer follows its call's row and no call has two: as many answered calls as
  // answers. (An error naming a call of no tool_call row has none before it; one naming no call is `other`.)
  const answers = toNumber(row?.answers);
  if (row === undefined || toNumber(row.other) > 0 || toNumber(row.paired) !== answers) return { allItems: false, pendingTotal: 0, pending: [] };
  const pendingTotal = toNumber(row.calls) - answers;
  if (pendingTotal <= 0) return { allItems: true, pendingTotal: 0, pending: [] };
  const pending = await client.$queryRaw<{ callKey: string; toolName: string }[]>(sql`SELECT t."callKey" AS "callKey", t."toolName" AS "toolName"
    FROM "Event" e JOIN "ToolCall" t ON t."id" = e."toolCallId"
    WHERE e."threadId" = ${threadId} AND e."id" < ${beforeId} AND e."kind" = 'tool_call'
      AND NOT EXISTS (SELECT 1 FROM "Event" b WHERE b."toolCallId" = e."toolCallId" AND +b."id" > e."id" AND +b."id" < ${beforeId} AND (b."kind" || '') IN ('tool_result', 'error') AND +b."threadId" = e."threadId")
    ORDER BY e."id" LIMIT ${limit}`);
  return { allItems: true, pendingTotal, pending };
}

/** Row ids of the system messages before `beforeId` (up to `limit` + 1, so a caller sees there are more). */
export async function systemMessagesBefore(client: ModelClient, threadId: number, beforeId: number, limit: number): Promise<number[]> {
  const rows = await client.event.findMany({ where: { threadId, kind: "message", role: "system", id: { lt: beforeId } }, orderBy: { id: "asc" }, take: limit + 1, select: { id: true } });
  return rows.map((row) => row.id);
}

/** The first row that is a history item other than a system message (the request's opening item), or null. */
export async function firstOpeningRow(client: ModelClient, threadId: number): Promise<number | null> {
  const rows = await client.$queryRaw<{ id: number | bigint }[]>(sql`SELECT e."id" AS id FROM "Event" e WHERE e."threadId" = ${threadId} AND (
      e."kind" IN ('output_text', 'reasoning', 'tool_call') OR (e."kind" = 'message' AND (e."role" IS NULL OR e."role" <> 'system'))
    ) ORDER BY e."id" LIMIT 1`);
  return rows[0] === undefined ? null : toNumber(rows[0].id);
}

/**
 * "Replay at this call" for a live thread: the row of the call's first result after its tool_call row, else the
 * tool_call row itself (the step is right after it); null when the call has no tool_call row.
 */
export async function callStepRow(client: ModelClient, threadId: number, callKey: string): Promise<{ id: number; isResult: boolean } | null> {
  const call = await client.toolCall.findFirst({ where: { threadId, callKey }, select: { id: true } });
  if (call === null) return null;
  const callRow = await client.event.findFirst({ where: { threadId, toolCallId: call.id, kind: "tool_call" }, orderBy: { id: "asc" }, select: { id: true } });
  if (callRow === null) return null;
  const result = await client.event.findFirst({ where: { threadId, toolCallId: call.id, kind: "tool_result", id: { gt: callRow.id } }, orderBy: { id: "asc" }, select: { id: true } });
  return result === null ? { id: callRow.id, isResult: false } : { id: result.id, isResult: true };
}

/**
 * A live thread's tool declarations without reading its calls: per tool, its first call with a declaration
 * (the caller checks it parses and keeps the next one otherwise).
 */
export async function firstDeclaringCalls(client: ModelClient, threadId: number, afterIds: ReadonlyMap<string, number> = new Map()): Promise<TimelineCall[]> {
  const rows = await client.$queryRaw<{ id: number | bigint }[]>(sql`SELECT MIN("id") AS id FROM "ToolCall" WHERE "threadId" = ${threadId} AND "declarationJson" IS NOT NULL GROUP BY "toolName"`);
  const ids = rows.map((row) => toNumber(row.id));
  if (afterIds.size === 0) return readCallsById(client, threadId, ids);
  // Tools whose first declaration did not parse: their next declaring call.
  const next: number[] = [];
  for (const [toolName, after] of afterIds) {
    const row = await client.toolCall.findFirst({ where: { threadId, toolName, declarationJson: { not: null }, id: { gt: after } }, orderBy: { id: "asc" }, select: { id: true } });
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
export async function readCallsById(client: ModelClient, threadId: number, ids: readonly number[]): Promise<TimelineCall[]> {
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

/** Results of the thread's calls by row id. */
export async function readResultsById(client: ModelClient, threadId: number, ids: readonly number[]): Promise<TimelineResult[]> {
  const wanted = [...new Set(ids)];
  const range = asRange(wanted);
  const set = new Set(wanted);
  const out: TimelineResult[] = [];
  for (const chunk of range === null ? chunks(wanted) : [range]) {
    const rows = await client.toolResult.findMany({
      where: { id: Array.isArray(chunk) ? { in: chunk } : chunk, toolCall: { threadId } },
      select: { id: true, toolCallId: true, ordinal: true, text: true, textEscaped: true, isError: true },
    });
    for (const { textEscaped, ...row } of rows) if (set.has(row.id)) out.push({ ...row, text: decodeStoredText(row.text, textEscaped) });
  }
  return out;
}
