// The threads list and the thread timeline: filters and keyset cursors in, plain DTOs out. Bodies are
// never loaded whole here; previews are cut, masked and made visible before they leave the server.
import "server-only";
import { threadTurnTotals, usageOfThreads } from "../model-turns/service.ts";
import { SecretMasker } from "../audit/mask.ts";
import { getDatabase, type Database } from "../db/client.ts";
import { AppError } from "../http/app-error.ts";
import { decodeThreadCursor, encodeThreadCursor } from "./cursor.ts";
import {
  countCallsByThread,
  countErrorEventsByThread,
  countThreadEvents,
  countToolsByThread,
  findEventText,
  findThreadByGroupId,
  findThreadPage,
  type KeysetPosition,
  type ThreadRow,
} from "./repository.ts";
import {
  TIME_RANGES,
  THREAD_PAGE_SIZE,
  type EventText,
  type LocateQuery,
  type LocateResult,
  type ThreadCounts,
  type ThreadListItem,
  type ThreadListPage,
  type ThreadListQuery,
  type ThreadSummary,
  type TimelinePage,
} from "./schemas.ts";
import { decodeStoredHead } from "./stored-text-head.ts";
import { locateRow, readTimelineWindow, type TimelineWindowOptions } from "./timeline-window.ts";

function emptyCounts(): ThreadCounts {
  return { calls: 0, pending: 0, errored: 0, timedOut: 0, results: 0, errorEvents: 0, errors: 0 };
}

/** Each thread's calls per status, results and errors (one definition, used by the threads list and the overview). */
export async function countsFor(db: Database, threadIds: number[]): Promise<Map<number, ThreadCounts>> {
  const [callRows, errorEvents] = await Promise.all([
    countCallsByThread(db.client, threadIds),
    countErrorEventsByThread(db.client, threadIds),
  ]);
  const counts = new Map(threadIds.map((id) => [id, emptyCounts()]));
  for (const row of callRows) {
    const entry = counts.get(row.threadId);
    if (!entry) continue;
    entry.calls += row.calls;
    entry.results += row.results;
    if (row.status === "pending") entry.pending += row.calls;
    else if (row.status === "errored") entry.errored += row.calls;
    else if (row.status === "timed_out") entry.timedOut += row.calls;
  }
  for (const [threadId, count] of errorEvents) {
    const entry = counts.get(threadId);
    if (entry) entry.errorEvents = count.all;
  }
  for (const [threadId, entry] of counts)
    entry.errors = entry.errored + entry.timedOut + (errorEvents.get(threadId)?.apart ?? 0);
  return counts;
}

function positionFrom(query: ThreadListQuery): KeysetPosition | null {
  const token = query.after ?? query.before;
  if (token === undefined) return null;
  const cursor = decodeThreadCursor(token);
  if (!cursor)
    throw new AppError("invalid", "The page cursor is not valid (it may come from an older link)", {
      path: query.after ? "after" : "before",
    });
  return {
    lastActivityAt: new Date(cursor.lastActivityAt),
    id: cursor.id,
    direction: query.after !== undefined ? "after" : "before",
  };
}

function cursorOf(row: ThreadRow | undefined): string | null {
  return row ? encodeThreadCursor({ lastActivityAt: row.lastActivityAt, id: row.id }) : null;
}

/** GET /api/threads and the /threads page: one page of threads, newest activity first, with counts. */
export async function listThreads(options: {
  query: ThreadListQuery;
  database?: Database;
  now?: Date;
}): Promise<ThreadListPage> {
  const db = options.database ?? (await getDatabase());
  const { query } = options;
  const limit = query.limit ?? THREAD_PAGE_SIZE;
  const position = positionFrom(query);
  const now = options.now ?? new Date();
  const fetched = await findThreadPage(db.client, {
    filter: {
      q: query.q,
      searchText: query.in === "text",
      status: query.status,
      errors: query.errors === "1",
      pending: query.pending === "1",
      since: query.range ? new Date(now.getTime() - TIME_RANGES[query.range]) : undefined,
    },
    position,
    limit,
  });
  const more = fetched.length > limit;
  let rows: ThreadRow[];
  let nextCursor: string | null;
  let prevCursor: string | null;
  if (position?.direction === "before") {
    rows = fetched.slice(0, limit).reverse();
    prevCursor = more ? cursorOf(rows[0]) : null;
    nextCursor = cursorOf(rows.at(-1));
  } else {
    rows = fetched.slice(0, limit);
    nextCursor = more ? cursorOf(rows.at(-1)) : null;
    prevCursor = position ? cursorOf(rows[0]) : null;
  }

  const ids = rows.map((row) => row.id);
  const [counts, tools, usage] = await Promise.all([
    countsFor(db, ids),
    countToolsByThread(db.client, ids),
    usageOfThreads(db, ids),
  ]);
  const toolsByThread = new Map<number, { toolName: string; calls: number }[]>();
  for (const tool of tools) toolsByThread.set(tool.threadId, [...(toolsByThread.get(tool.threadId) ?? []), tool]);

  const threads: ThreadListItem[] = rows.map((row) => ({
    groupId: row.groupId,
    title: row.title === null ? null : new SecretMasker().text(row.title),
    vendor: row.vendor,
    createdAt: row.createdAt,
    lastActivityAt: row.lastActivityAt,
    counts: counts.get(row.id) ?? emptyCounts(),
    tools: (toolsByThread.get(row.id) ?? [])
      .sort((a, b) => b.calls - a.calls || a.toolName.localeCompare(b.toolName))
      .slice(0, 4)
      .map((tool) => tool.toolName),
    usage: usage.get(row.id) ?? null,
  }));
  return { threads, nextCursor, prevCursor };
}

async function requireThread(db: Database, groupId: string): Promise<ThreadRow> {
  const thread = await findThreadByGroupId(db.client, groupId);
  if (!thread) throw new AppError("not_found", `No thread "${groupId}"`);
  return thread;
}

/** The header of the thread page; null when no such thread exists. */
export async function getThreadSummary(options: {
  groupId: string;
  database?: Database;
}): Promise<ThreadSummary | null> {
  const db = options.database ?? (await getDatabase());
  const thread = await findThreadByGroupId(db.client, options.groupId);
  if (!thread) return null;
  const [counts, eventCount, turns] = await Promise.all([
    countsFor(db, [thread.id]),
    countThreadEvents(db.client, thread.id),
    threadTurnTotals(db, thread.id),
  ]);
  return {
    groupId: thread.groupId,
    title: thread.title === null ? null : new SecretMasker().text(thread.title),
    vendor: thread.vendor,
    createdAt: thread.createdAt,
    lastActivityAt: thread.lastActivityAt,
    counts: counts.get(thread.id) ?? emptyCounts(),
    eventCount,
    modelTurns: turns.modelTurns,
    usage: turns.usage,
    cost: turns.cost,
  };
}

/**
 * GET /api/threads/{groupId}/timeline and the thread page: a window of the thread's events — after an id,
 * the closest before one, or around one — optionally only the rows matching a search or filter, plus the
 * current state of every call they mention (status, newest result, short previews).
 */
export async function getTimelinePage(
  options: TimelineWindowOptions & { groupId: string; database?: Database },
): Promise<TimelinePage> {
  const db = options.database ?? (await getDatabase());
  const thread = await requireThread(db, options.groupId);
  return readTimelineWindow(db, thread, options);
}

/** GET /api/threads/{groupId}/locate: the event of step N, of a call, or the next / previous row of a kind. */
export async function locateInThread(options: {
  groupId: string;
  query: LocateQuery;
  database?: Database;
}): Promise<LocateResult> {
  const db = options.database ?? (await getDatabase());
  const thread = await requireThread(db, options.groupId);
  return locateRow(db, thread.id, options.query);
}

/** GET /api/threads/{groupId}/events/{eventId}/text: the whole text of one event, for "show more". */
export async function getEventText(options: {
  groupId: string;
  eventId: number;
  database?: Database;
}): Promise<EventText> {
  const db = options.database ?? (await getDatabase());
  const thread = await requireThread(db, options.groupId);
  const event = await findEventText(db.client, thread.id, options.eventId);
  if (!event) throw new AppError("not_found", `No event ${options.eventId} in thread "${options.groupId}"`);
  // Masked like every page text (lib/audit/mask); the replay page reveals a value of this thread on request.
  return {
    id: options.eventId,
    text: event.text === null ? "" : new SecretMasker().text(decodeStoredHead(event.text, event.textEscaped, true)),
  };
}
