// Prisma access for the threads list and the thread timeline: keyset pages, grouped counts, and the
// first characters of stored texts (never whole 5 MB bodies). Returns plain rows; the service shapes DTOs.
import "server-only";
import type { ModelClient } from "../db/client.ts";
import type { Prisma } from "../db/generated/sqlite/client.ts";
import { empty, join, raw, sql } from "../db/sql.ts";
import type { CallBrief } from "./schemas.ts";

export type ThreadRow = {
  id: number;
  groupId: string;
  title: string | null;
  vendor: string | null;
  createdAt: string;
  lastActivityAt: string;
  timelineEpoch: number;
};

const iso = (date: Date): string => date.toISOString();
const isoOrNull = (date: Date | null): string | null => (date === null ? null : date.toISOString());

function toThreadRow(row: {
  id: number;
  groupId: string;
  title: string | null;
  vendor: string | null;
  createdAt: Date;
  lastActivityAt: Date;
  timelineEpoch: number;
}): ThreadRow {
  return { ...row, createdAt: iso(row.createdAt), lastActivityAt: iso(row.lastActivityAt) };
}

export type ThreadPageFilter = {
  q?: string;
  /** Also match result text (a contains scan over results: slower than the id/tool-name search). */
  searchText: boolean;
  status?: string;
  errors: boolean;
  pending: boolean;
  since?: Date;
};

export type KeysetPosition = { lastActivityAt: Date; id: number; direction: "after" | "before" };

const THREAD_SELECT = {
  id: true,
  groupId: true,
  title: true,
  vendor: true,
  createdAt: true,
  lastActivityAt: true,
  timelineEpoch: true,
} as const;

// Prisma's `contains` is a LIKE underneath that passes % and _ through as wildcards (and SQLite's LIKE has
// no escape character unless the statement names one). A search containing them is matched here with an
// explicit ESCAPE, on both backends, into a list of thread ids (at most LITERAL_MATCH_LIMIT).
const LITERAL_MATCH_LIMIT = 10_000;
const NEEDS_ESCAPE = /[\\%_]/;

async function literalSearchIds(client: ModelClient, filter: ThreadPageFilter): Promise<number[] | null> {
  if (!filter.q || !NEEDS_ESCAPE.test(filter.q)) return null;
  const pattern = `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const inResults = filter.searchText
    ? sql` OR EXISTS (SELECT 1 FROM "ToolCall" c JOIN "ToolResult" r ON r."toolCallId" = c."id" WHERE c."threadId" = t."id" AND r."text" LIKE ${pattern} ESCAPE '\\')`
    : empty;
  const rows = await client.$queryRaw<
    { id: number | bigint }[]
  >(sql`SELECT t."id" FROM "Thread" t WHERE t."groupId" LIKE ${pattern} ESCAPE '\\'
    OR EXISTS (SELECT 1 FROM "ToolCall" c WHERE c."threadId" = t."id" AND c."toolName" LIKE ${pattern} ESCAPE '\\')${inResults}
    LIMIT ${LITERAL_MATCH_LIMIT}`);
  return rows.map((row) => Number(row.id));
}

function threadWhere(
  filter: ThreadPageFilter,
  position: KeysetPosition | null,
  literalIds: number[] | null = null,
): Prisma.ThreadWhereInput {
  // A thread retention is removing (lib/lifecycle fenced it) is already gone for readers.
  const and: Prisma.ThreadWhereInput[] = [{ removingAt: null }];
  if (literalIds) {
    and.push({ id: { in: literalIds } });
  } else if (filter.q) {
    const q = filter.q;
    and.push({
      OR: [
        { groupId: { contains: q } },
        { calls: { some: { toolName: { contains: q } } } },
        ...(filter.searchText ? [{ calls: { some: { results: { some: { text: { contains: q } } } } } }] : []),
      ],
    });
  }
  if (filter.status) and.push({ calls: { some: { status: filter.status } } });
  if (filter.errors)
    and.push({
      OR: [{ calls: { some: { status: { in: [...FAILED_CALL_STATUSES] } } } }, { events: { some: { kind: "error" } } }],
    });
  if (filter.pending) and.push({ calls: { some: { status: "pending" } } });
  if (filter.since) and.push({ lastActivityAt: { gte: filter.since } });
  if (position) {
    const { lastActivityAt, id } = position;
    and.push(
      position.direction === "after"
        ? { OR: [{ lastActivityAt: { lt: lastActivityAt } }, { lastActivityAt, id: { lt: id } }] }
        : { OR: [{ lastActivityAt: { gt: lastActivityAt } }, { lastActivityAt, id: { gt: id } }] },
    );
  }
  return { AND: and };
}

/**
 * One page of threads by last activity (newest first), `limit + 1` rows so the caller knows whether
 * another page follows. A `before` position reads towards newer threads and returns them oldest first.
 */
export async function findThreadPage(
  client: ModelClient,
  options: { filter: ThreadPageFilter; position: KeysetPosition | null; limit: number },
): Promise<ThreadRow[]> {
  const descending = options.position?.direction !== "before";
  const rows = await client.thread.findMany({
    where: threadWhere(options.filter, options.position, await literalSearchIds(client, options.filter)),
    select: THREAD_SELECT,
    orderBy: descending ? [{ lastActivityAt: "desc" }, { id: "desc" }] : [{ lastActivityAt: "asc" }, { id: "asc" }],
    take: options.limit + 1,
  });
  return rows.map(toThreadRow);
}

export type CallCountRow = { threadId: number; status: string; calls: number; results: number };

/** Calls and results per thread and status, for the given threads only (one grouped query). */
export async function countCallsByThread(client: ModelClient, threadIds: number[]): Promise<CallCountRow[]> {
  if (threadIds.length === 0) return [];
  const rows = await client.toolCall.groupBy({
    by: ["threadId", "status"],
    where: { threadId: { in: threadIds } },
    _count: { _all: true },
    _sum: { resultCount: true },
  });
  return rows.map((row) => ({
    threadId: row.threadId,
    status: row.status,
    calls: row._count._all,
    results: row._sum.resultCount ?? 0,
  }));
}

/** Call statuses that are failures: what a thread's "errors" count and the "has errors" filter mean by a failed call. */
export const FAILED_CALL_STATUSES = ["errored", "timed_out"] as const;

/**
 * Error events per thread: all of them, and those `apart` from a failed call (no call, or a call that did not
 * fail) — an errored OTel span is both an errored call and an error event, and is one error, not two.
 */
export async function countErrorEventsByThread(
  client: ModelClient,
  threadIds: number[],
): Promise<Map<number, { all: number; apart: number }>> {
  if (threadIds.length === 0) return new Map();
  const rows = await client.$queryRaw<
    { threadId: number | bigint; all: number | bigint; apart: number | bigint | null }[]
  >(
    sql`SELECT e."threadId" AS "threadId", COUNT(*) AS "all",
      SUM(CASE WHEN c."status" IN (${join(FAILED_CALL_STATUSES.map((status) => sql`${status}`))}) THEN 0 ELSE 1 END) AS "apart"
      FROM "Event" e LEFT JOIN "ToolCall" c ON c."id" = e."toolCallId"
      WHERE e."threadId" IN (${join(threadIds.map((id) => sql`${id}`))}) AND e."kind" = 'error'
      GROUP BY e."threadId"`,
  );
  return new Map(rows.map((row) => [Number(row.threadId), { all: Number(row.all), apart: Number(row.apart ?? 0) }]));
}

export async function countToolsByThread(
  client: ModelClient,
  threadIds: number[],
): Promise<{ threadId: number; toolName: string; calls: number }[]> {
  if (threadIds.length === 0) return [];
  const rows = await client.toolCall.groupBy({
    by: ["threadId", "toolName"],
    where: { threadId: { in: threadIds } },
    _count: { _all: true },
  });
  return rows.map((row) => ({ threadId: row.threadId, toolName: row.toolName, calls: row._count._all }));
}

export async function findThreadByGroupId(client: ModelClient, groupId: string): Promise<ThreadRow | null> {
  const row = await client.thread.findUnique({ where: { groupId }, select: { ...THREAD_SELECT, removingAt: true } });
  return row && row.removingAt === null ? toThreadRow(row) : null;
}

export async function countThreadEvents(client: ModelClient, threadId: number): Promise<number> {
  return client.event.count({ where: { threadId } });
}

// ─── timeline ────────────────────────────────────────────────────────────────────────────────────

export type EventRow = {
  id: number;
  kind: string;
  toolCallId: number | null;
  resultId: number | null;
  step: number | null;
  role: string | null;
  textEscaped: boolean;
  dataJson: string | null;
  source: string;
  occurredAt: string;
};

export async function findEventText(
  client: ModelClient,
  threadId: number,
  eventId: number,
): Promise<{ text: string | null; textEscaped: boolean } | null> {
  return client.event.findFirst({ where: { id: eventId, threadId }, select: { text: true, textEscaped: true } });
}

/** A call as the repository reads it: the CallBrief DTO's columns, before previews and the latest result. */
export type CallBriefRow = Omit<CallBrief, "argumentsPreview" | "argumentsIsJson" | "latestResult"> & {
  argumentsEscaped: boolean;
};

export async function findCallBriefs(client: ModelClient, ids: number[]): Promise<CallBriefRow[]> {
  if (ids.length === 0) return [];
  const rows = await client.toolCall.findMany({
    where: { id: { in: ids } },
    select: {
      id: true,
      callKey: true,
      callId: true,
      toolName: true,
      status: true,
      step: true,
      subscription: true,
      vendor: true,
      requestedAt: true,
      completedAt: true,
      deadlineAt: true,
      timedOutAt: true,
      resultCount: true,
      argumentsEscaped: true,
    },
  });
  return rows.map((row) => ({
    ...row,
    requestedAt: iso(row.requestedAt),
    completedAt: isoOrNull(row.completedAt),
    deadlineAt: isoOrNull(row.deadlineAt),
    timedOutAt: isoOrNull(row.timedOutAt),
  }));
}

export type ResultBriefRow = {
  id: number;
  toolCallId: number;
  ordinal: number;
  textEscaped: boolean;
  textBytes: number;
  displayKind: string;
  receivedAt: string;
  late: boolean;
  isError: boolean;
  errorSource: string | null;
  envelopeKind: string | null;
  success: boolean | null;
  confidence: number | null;
  nextAction: string | null;
  isMcp: boolean;
  schemaStatus: string | null;
  invisibleCount: number;
  secretCount: number;
};

/** Pairs per query: each is two bound parameters, and drivers cap parameters per statement (SQLite: 999 in Prisma). */
const PAIRS_PER_QUERY = 300;

/** The newest result of each call (ordinal = resultCount − 1), by the (toolCallId, ordinal) unique key. */
export async function findLatestResultBriefs(
  client: ModelClient,
  calls: { id: number; resultCount: number }[],
): Promise<ResultBriefRow[]> {
  const withResults = calls.filter((call) => call.resultCount > 0);
  const found: ResultBriefRow[] = [];
  for (let start = 0; start < withResults.length; start += PAIRS_PER_QUERY) {
    const rows = await client.toolResult.findMany({
      where: {
        OR: withResults
          .slice(start, start + PAIRS_PER_QUERY)
          .map((call) => ({ toolCallId: call.id, ordinal: call.resultCount - 1 })),
      },
      select: {
        id: true,
        toolCallId: true,
        ordinal: true,
        textEscaped: true,
        textBytes: true,
        displayKind: true,
        receivedAt: true,
        late: true,
        isError: true,
        errorSource: true,
        envelopeKind: true,
        success: true,
        confidence: true,
        nextAction: true,
        isMcp: true,
        schemaStatus: true,
        invisibleCount: true,
        secretCount: true,
      },
    });
    for (const row of rows) found.push({ ...row, receivedAt: iso(row.receivedAt) });
  }
  return found;
}

// Columns whose first characters the timeline reads. Identifiers come from this fixed list only.
const HEAD_COLUMNS = {
  Event: ["text"],
  ToolCall: ["argumentsText", "argumentsJson"],
  ToolResult: ["text", "displayAsJson"],
} as const;

type HeadTable = keyof typeof HEAD_COLUMNS;
export type Heads = Map<number, Record<string, string | null>>;

/**
 * The first `length` characters of text columns for the given rows, read with SQL substr() so a 5 MB
 * result costs the database a few hundred bytes of transfer. Works the same on SQLite and PostgreSQL.
 */
export async function findTextHeads<T extends HeadTable>(
  client: ModelClient,
  table: T,
  ids: number[],
  length: number,
): Promise<Heads> {
  const heads: Heads = new Map();
  if (ids.length === 0) return heads;
  const size = Math.max(1, Math.floor(length));
  const columns = HEAD_COLUMNS[table].map((column) => raw(`substr("${column}", 1, ${size}) AS "${column}"`));
  const rows = await client.$queryRaw<Record<string, unknown>[]>(
    sql`SELECT "id", ${join(columns)} FROM ${raw(`"${table}"`)} WHERE "id" IN (${join(ids)})`,
  );
  for (const row of rows) {
    const values: Record<string, string | null> = {};
    for (const column of HEAD_COLUMNS[table]) {
      const value = row[column];
      values[column] = typeof value === "string" ? value : null;
    }
    heads.set(Number(row.id), values);
  }
  return heads;
}
