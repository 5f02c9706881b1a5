// Prisma access for the model turns a replay window reaches into (lib/replay/render-window's partial turns): the
// calls before a window that its results answer, the turn around a row (where it starts and ends, its calls and
// other output), and positions of calls read apart from the window. A turn is a run of model-output rows (calls,
// reasoning, assistant text) with no input row (result, error, oauth or protocol message, user or system
// message) between them; rows that are not canonical events do not break it.
//
// Nearest-row lookups go kind by kind (ORDER BY id LIMIT 1 on the (threadId, kind, id) index): without
// statistics PostgreSQL answers a MAX() or an ORDER BY over a list of kinds by reading every row of the range.
import "server-only";
import type { ModelClient } from "../../db/client.ts";
import { join, raw, sql, type Sql } from "../../db/sql.ts";
import {
  ANSWER_KINDS,
  CANONICAL,
  CANONICAL_ALL_KINDS,
  countCanonical,
  list,
  toNumber,
  type ThreadSpan,
} from "./replay-window-reads.ts";

/**
 * The tool_call rows before `fromId` whose calls rows in [fromId, toId] answer (a result, error or oauth message
 * after them), in id order, each with whether an answer before `fromId` answered it already: a window starting at
 * `fromId` holds the answers but not the calls.
 */
export async function callsAnsweredIn(
  client: ModelClient,
  span: ThreadSpan,
  fromId: number,
  toId: number,
): Promise<{ callRow: number; answeredBefore: boolean }[]> {
  const rows = await client.$queryRaw<{ call: number | bigint | null; earlier: number | bigint | null }[]>(sql`SELECT
      (SELECT MIN(c."id") FROM "Event" c WHERE c."toolCallId" = a."toolCallId" AND +c."id" < ${fromId} AND (c."kind" || '') = 'tool_call' AND +c."threadId" = a."threadId") AS call,
      (SELECT MIN(b."id") FROM "Event" b WHERE b."toolCallId" = a."toolCallId" AND +b."id" < ${fromId} AND (b."kind" || '') IN (${list(ANSWER_KINDS)}) AND +b."threadId" = a."threadId") AS earlier
    FROM "Event" a WHERE a."threadId" = ${span.threadId} AND a."id" >= ${fromId} AND a."id" <= ${toId} AND a."kind" IN (${list(ANSWER_KINDS)}) AND a."toolCallId" IS NOT NULL`);
  const calls = new Map<number, boolean>();
  for (const row of rows)
    if (row.call !== null)
      calls.set(toNumber(row.call), (calls.get(toNumber(row.call)) ?? false) || row.earlier !== null);
  return [...calls].sort((a, b) => a[0] - b[0]).map(([callRow, answeredBefore]) => ({ callRow, answeredBefore }));
}

const kind = (name: string): Sql => sql`e."kind" = ${name}`;
/** Rows that end a model turn. */
const TURN_BREAKS = [
  kind("tool_result"),
  kind("error"),
  kind("oauth"),
  kind("protocol"),
  sql`e."kind" = 'message' AND e."role" IN ('system', 'user')`,
];
/** Canonical rows that do not answer a call (between a turn and a window only answers may lie). */
const NOT_ANSWERS = [kind("tool_call"), kind("reasoning"), kind("output_text"), kind("message"), kind("protocol")];

/** The nearest row matching one of `conditions` in the id range, going up ("first") or down ("last"), or null. */
async function nearest(
  client: ModelClient,
  span: ThreadSpan,
  conditions: readonly Sql[],
  range: { above: number; below: number },
  which: "first" | "last",
): Promise<number | null> {
  const order = raw(which === "first" ? "ASC" : "DESC");
  const edges = conditions.map(
    (condition) =>
      sql`(SELECT e."id" FROM "Event" e WHERE e."threadId" = ${span.threadId} AND ${condition} AND e."id" > ${range.above} AND e."id" < ${range.below} ORDER BY e."id" ${order} LIMIT 1)`,
  );
  const rows = await client.$queryRaw<Record<string, number | bigint | null>[]>(
    sql`SELECT ${join(edges.map((edge, k) => sql`${edge} AS ${raw(`r${k}`)}`))}`,
  );
  const found = Object.values(rows[0] ?? {}).flatMap((value) =>
    value === null || value === undefined ? [] : [toNumber(value)],
  );
  if (found.length === 0) return null;
  return which === "first" ? Math.min(...found) : Math.max(...found);
}

export type TurnRows = {
  /** Row id and canonical index of the turn's first row. */
  firstRow: number;
  first: number;
  /** Its last row before `beforeId`. */
  lastRow: number;
  /** Whether it runs up to `beforeId` (no row ending it in between). */
  open: boolean;
  /** When it ends earlier: whether only answers (results, errors, oauth messages) lie between its end and `beforeId`. */
  answersAfter: boolean;
  /** Its tool calls and its other rows (reasoning, assistant text) up to `lastRow`. */
  calls: number;
  others: number;
};

/**
 * The model turn holding the output row `rowId`, as far as `beforeId`. Needs a plain thread whose rows before
 * `beforeId` are all history items (prefixFacts), so rows and history items make the same runs.
 */
export async function turnAround(
  client: ModelClient,
  span: ThreadSpan,
  rowId: number,
  beforeId: number,
): Promise<TurnRows> {
  const breakBefore = (await nearest(client, span, TURN_BREAKS, { above: 0, below: rowId }, "last")) ?? 0;
  const breakAfter = await nearest(client, span, TURN_BREAKS, { above: rowId, below: beforeId }, "first");
  const canonical = CANONICAL_ALL_KINDS.map(kind);
  const firstRow = (await nearest(client, span, canonical, { above: breakBefore, below: rowId + 1 }, "first")) ?? rowId;
  const lastRow =
    (await nearest(client, span, canonical, { above: rowId - 1, below: breakAfter ?? beforeId }, "last")) ?? rowId;
  const inTurn = sql`e."threadId" = ${span.threadId} AND e."id" >= ${firstRow} AND e."id" <= ${lastRow}`;
  const counts = await client.$queryRaw<
    { calls: number | bigint; reasoning: number | bigint; texts: number | bigint; messages: number | bigint }[]
  >(sql`SELECT
      (SELECT COUNT(*) FROM "Event" e WHERE ${inTurn} AND e."kind" = 'tool_call') AS calls,
      (SELECT COUNT(*) FROM "Event" e WHERE ${inTurn} AND e."kind" = 'reasoning') AS reasoning,
      (SELECT COUNT(*) FROM "Event" e WHERE ${inTurn} AND e."kind" = 'output_text') AS texts,
      (SELECT COUNT(*) FROM "Event" e WHERE ${inTurn} AND e."kind" = 'message' AND (e."role" IS NULL OR e."role" NOT IN ('system', 'user'))) AS messages`);
  const row = counts[0];
  const open = breakAfter === null;
  const answersAfter =
    open || (await nearest(client, span, NOT_ANSWERS, { above: lastRow, below: beforeId }, "first")) === null;
  // Its index: counted from the thread's start, or back from the window when the turn is near it.
  return {
    firstRow,
    first: await countCanonical(client, span, firstRow),
    lastRow,
    open,
    answersAfter,
    calls: toNumber(row?.calls),
    others: toNumber(row?.reasoning) + toNumber(row?.texts) + toNumber(row?.messages),
  };
}

/**
 * Of the rows [fromId, beforeId), the tool_call rows with how many rows and canonical rows lie from each to
 * `beforeId` (its position and canonical index counted back from the window's start). For the calls a window's
 * results answer, read apart from the window (a partial turn).
 */
export async function callRowsBack(
  client: ModelClient,
  span: ThreadSpan,
  fromId: number,
  beforeId: number,
): Promise<Map<number, { rows: number; canonical: number }>> {
  const rows = await client.$queryRaw<
    { id: number | bigint; rows: number | bigint; canonical: number | bigint }[]
  >(sql`SELECT x."id" AS id, x."rows" AS rows, x."canonical" AS canonical FROM (
      SELECT e."id" AS "id", e."kind" AS "kind", COUNT(*) OVER back AS "rows", SUM(CASE WHEN ${CANONICAL} THEN 1 ELSE 0 END) OVER back AS "canonical"
      FROM "Event" e WHERE e."threadId" = ${span.threadId} AND e."id" >= ${fromId} AND e."id" < ${beforeId}
      WINDOW back AS (ORDER BY e."id" DESC)
    ) x WHERE x."kind" = 'tool_call'`);
  return new Map(
    rows.map((row) => [toNumber(row.id), { rows: toNumber(row.rows), canonical: toNumber(row.canonical) }]),
  );
}
