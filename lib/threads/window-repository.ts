// Prisma access for moving around inside one thread: keyset windows of its events in either direction,
// rows matching a search or a filter (errors, pending, low confidence), and "where is step N / call X / the
// next error" — each one indexed read or one scan of the thread, never the whole thread sent anywhere.
import "server-only";
import type { ModelClient } from "../db/client.ts";
import { empty, raw, sql, type Sql } from "../db/sql.ts";
import type { EventRow } from "./repository.ts";
import { LOW_CONFIDENCE, type TimelineFilter } from "./schemas.ts";

const EVENT_SELECT = {
  id: true,
  kind: true,
  toolCallId: true,
  resultId: true,
  step: true,
  role: true,
  textEscaped: true,
  dataJson: true,
  source: true,
  occurredAt: true,
} as const;
/** Ids per `IN (…)` list: SQLite's adapter caps bound parameters per statement. */
const IDS_PER_QUERY = 500;

type RawEventRow = Omit<EventRow, "occurredAt"> & { occurredAt: Date };
const toEventRow = (row: RawEventRow): EventRow => ({ ...row, occurredAt: row.occurredAt.toISOString() });

export type Direction = "after" | "before";

/**
 * Unfiltered keyset page: events after `from` (ascending) or the `limit` closest before it (returned
 * ascending too); `limit + 1` rows are read so the caller knows whether more follow on that side.
 */
export async function findEventsFrom(
  client: ModelClient,
  options: { threadId: number; from: number; direction: Direction; limit: number; inclusive?: boolean },
): Promise<EventRow[]> {
  const forward = options.direction === "after";
  const id = forward ? (options.inclusive ? { gte: options.from } : { gt: options.from }) : { lt: options.from };
  const rows = await client.event.findMany({
    where: { threadId: options.threadId, id },
    select: EVENT_SELECT,
    orderBy: { id: forward ? "asc" : "desc" },
    take: options.limit + 1,
  });
  const ordered = rows.map(toEventRow);
  return forward ? ordered : ordered.reverse();
}

/** Whether the thread has any event on that side of `from` (cheap: one index probe). */
export async function hasEventBeyond(
  client: ModelClient,
  threadId: number,
  from: number,
  direction: Direction,
): Promise<boolean> {
  const row = await client.event.findFirst({
    where: { threadId, id: direction === "after" ? { gt: from } : { lt: from } },
    select: { id: true },
  });
  return row !== null;
}

async function eventsByIds(client: ModelClient, ids: number[]): Promise<EventRow[]> {
  const found: EventRow[] = [];
  for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
    const rows = await client.event.findMany({
      where: { id: { in: ids.slice(start, start + IDS_PER_QUERY) } },
      select: EVENT_SELECT,
    });
    found.push(...rows.map(toEventRow));
  }
  return found.sort((a, b) => a.id - b.id);
}

// ─── filtered rows ───────────────────────────────────────────────────────────────────────────────

/** The joins every filtered read uses: the event's call and that call's newest result. */
const FROM = raw(
  `FROM "Event" e LEFT JOIN "ToolCall" c ON c."id" = e."toolCallId" LEFT JOIN "ToolResult" lr ON lr."toolCallId" = c."id" AND lr."ordinal" = c."resultCount" - 1`,
);
/** Results shown on their call's row never count as rows of their own. */
const IS_ROW = raw(`NOT (e."kind" = 'tool_result' AND e."toolCallId" IS NOT NULL)`);

function likePattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (match) => `\\${match}`)}%`;
}

function onlyPredicate(only: TimelineFilter["only"]): Sql {
  switch (only) {
    case "calls":
      return sql` AND e."kind" = 'tool_call'`;
    case "pending":
      return sql` AND e."kind" = 'tool_call' AND c."status" = 'pending'`;
    case "low_confidence":
      return sql` AND e."kind" = 'tool_call' AND lr."confidence" < ${LOW_CONFIDENCE}`;
    case "errors":
      return sql` AND (e."kind" IN ('error', 'timeout') OR (e."kind" = 'tool_call' AND (c."status" IN ('errored', 'timed_out') OR lr."isError" = ${true} OR lr."success" = ${false})))`;
    default:
      return empty;
  }
}

function searchPredicate(q: string | undefined): Sql {
  if (!q) return empty;
  const pattern = likePattern(q);
  const like = (column: string) => sql`LOWER(COALESCE(${raw(column)}, '')) LIKE ${pattern} ESCAPE '\\'`;
  return sql` AND (${like(`c."toolName"`)} OR ${like(`c."callKey"`)} OR ${like(`c."callId"`)} OR ${like(`COALESCE(c."argumentsJson", c."argumentsText")`)} OR ${like(`e."text"`)} OR ${like(`lr."text"`)})`;
}

function where(threadId: number, filter: TimelineFilter): Sql {
  return sql`WHERE e."threadId" = ${threadId} AND ${IS_ROW}${onlyPredicate(filter.only)}${searchPredicate(filter.q)}`;
}

export function isFiltered(filter: TimelineFilter): boolean {
  return Boolean(filter.q) || filter.only !== undefined;
}

async function matchingIds(
  client: ModelClient,
  threadId: number,
  filter: TimelineFilter,
  bound: Sql,
  order: "ASC" | "DESC",
  limit: number,
): Promise<number[]> {
  const rows = await client.$queryRaw<{ id: number | bigint }[]>(
    sql`SELECT e."id" AS "id" ${FROM} ${where(threadId, filter)}${bound} ORDER BY e."id" ${raw(order)} LIMIT ${limit}`,
  );
  return rows.map((row) => Number(row.id));
}

/** Filtered keyset page (rows only, no folded results): same contract as findEventsFrom. */
export async function findMatchingEventsFrom(
  client: ModelClient,
  options: {
    threadId: number;
    from: number;
    direction: Direction;
    limit: number;
    inclusive?: boolean;
    filter: TimelineFilter;
  },
): Promise<EventRow[]> {
  const forward = options.direction === "after";
  const bound = forward
    ? options.inclusive
      ? sql` AND e."id" >= ${options.from}`
      : sql` AND e."id" > ${options.from}`
    : sql` AND e."id" < ${options.from}`;
  const ids = await matchingIds(
    client,
    options.threadId,
    options.filter,
    bound,
    forward ? "ASC" : "DESC",
    options.limit + 1,
  );
  return eventsByIds(client, ids);
}

export async function hasMatchBeyond(
  client: ModelClient,
  threadId: number,
  filter: TimelineFilter,
  from: number,
  direction: Direction,
): Promise<boolean> {
  const bound = direction === "after" ? sql` AND e."id" > ${from}` : sql` AND e."id" < ${from}`;
  return (await matchingIds(client, threadId, filter, bound, "ASC", 1)).length > 0;
}

export async function countMatches(client: ModelClient, threadId: number, filter: TimelineFilter): Promise<number> {
  const rows = await client.$queryRaw<{ n: number | bigint }[]>(
    sql`SELECT COUNT(*) AS "n" ${FROM} ${where(threadId, filter)}`,
  );
  return Number(rows[0]?.n ?? 0);
}

// ─── locate ──────────────────────────────────────────────────────────────────────────────────────

export type Located = { eventId: number; callRowId: number | null };

async function firstLocated(client: ModelClient, query: Sql): Promise<Located | null> {
  const rows = await client.$queryRaw<{ id: number | bigint; callRowId: number | bigint | null }[]>(query);
  const row = rows[0];
  return row ? { eventId: Number(row.id), callRowId: row.callRowId === null ? null : Number(row.callRowId) } : null;
}

/** The nearest row after (or before) `from` that matches the filter; an empty filter means any row. */
export async function locateMatch(
  client: ModelClient,
  options: { threadId: number; filter: TimelineFilter; from: number; direction: "next" | "prev" },
): Promise<Located | null> {
  const next = options.direction === "next";
  const bound = next ? sql` AND e."id" > ${options.from}` : sql` AND e."id" < ${options.from}`;
  return firstLocated(
    client,
    sql`SELECT e."id" AS "id", e."toolCallId" AS "callRowId" ${FROM} ${where(options.threadId, options.filter)}${bound} ORDER BY e."id" ${raw(next ? "ASC" : "DESC")} LIMIT 1`,
  );
}

/** The first row of model step `step`, or of the next step the thread has. */
export async function locateStep(client: ModelClient, threadId: number, step: number): Promise<Located | null> {
  return firstLocated(
    client,
    sql`SELECT e."id" AS "id", e."toolCallId" AS "callRowId" FROM "Event" e WHERE e."threadId" = ${threadId} AND ${IS_ROW} AND e."step" >= ${step} ORDER BY e."step" ASC, e."id" ASC LIMIT 1`,
  );
}

/** A call's own row, by the protocol's id (callKey) or the vendor's call id. */
export async function locateCall(client: ModelClient, threadId: number, call: string): Promise<Located | null> {
  return firstLocated(
    client,
    sql`SELECT e."id" AS "id", c."id" AS "callRowId" FROM "ToolCall" c JOIN "Event" e ON e."toolCallId" = c."id" AND e."kind" = 'tool_call' WHERE c."threadId" = ${threadId} AND (c."callKey" = ${call} OR c."callId" = ${call}) ORDER BY e."id" ASC LIMIT 1`,
  );
}
