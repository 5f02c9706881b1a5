// The threads list and the thread timeline: filters and keyset cursors in, plain DTOs out. Bodies are
// never loaded whole here; previews are cut, masked and made visible before they leave the server.
import "server-only";
import { getDatabase, type Database } from "../db/client.ts";
import { AppError } from "../http/app-error.ts";
import { chooseDisplay } from "../results/display.ts";
import { previewUntrustedText } from "../calls/untrusted-text.ts";
import { decodeThreadCursor, encodeThreadCursor } from "./cursor.ts";
import {
  countCallsByThread,
  countErrorEventsByThread,
  countThreadEvents,
  countToolsByThread,
  findCallBriefs,
  findEventText,
  findEventsAfter,
  findLatestResultBriefs,
  findTextHeads,
  findThreadByGroupId,
  findThreadPage,
  type CallBriefRow,
  type Heads,
  type KeysetPosition,
  type ResultBriefRow,
  type ThreadRow,
} from "./repository.ts";
import {
  TIME_RANGES,
  THREAD_PAGE_SIZE,
  TIMELINE_PAGE_SIZE,
  type CallBrief,
  type EventText,
  type ResultBrief,
  type ThreadCounts,
  type ThreadListItem,
  type ThreadListPage,
  type ThreadListQuery,
  type ThreadSummary,
  type TimelineEvent,
  type TimelinePage,
} from "./schemas.ts";
import { decodeStoredHead } from "./stored-text-head.ts";

// Preview lengths (characters) and the margin read beyond them, so a secret straddling the cut is still masked.
const HEAD_MARGIN = 64;
const EVENT_TEXT_PREVIEW = 1000;
const ARGUMENTS_PREVIEW = 200;
const RESULT_PREVIEW = 240;
const DISPLAY_AS_HEAD = 4000;
const DISPLAY_LABEL = 160;

function emptyCounts(): ThreadCounts {
  return { calls: 0, pending: 0, errored: 0, timedOut: 0, results: 0, errorEvents: 0 };
}

async function countsFor(db: Database, threadIds: number[]): Promise<Map<number, ThreadCounts>> {
  const [callRows, errorEvents] = await Promise.all([countCallsByThread(db.client, threadIds), countErrorEventsByThread(db.client, threadIds)]);
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
    if (entry) entry.errorEvents = count;
  }
  return counts;
}

function positionFrom(query: ThreadListQuery): KeysetPosition | null {
  const token = query.after ?? query.before;
  if (token === undefined) return null;
  const cursor = decodeThreadCursor(token);
  if (!cursor) throw new AppError("invalid", "The page cursor is not valid (it may come from an older link)", { path: query.after ? "after" : "before" });
  return { lastActivityAt: new Date(cursor.lastActivityAt), id: cursor.id, direction: query.after !== undefined ? "after" : "before" };
}

function cursorOf(row: ThreadRow | undefined): string | null {
  return row ? encodeThreadCursor({ lastActivityAt: row.lastActivityAt, id: row.id }) : null;
}

/** GET /api/threads and the /threads page: one page of threads, newest activity first, with counts. */
export async function listThreads(options: { query: ThreadListQuery; database?: Database; now?: Date }): Promise<ThreadListPage> {
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
  const [counts, tools] = await Promise.all([countsFor(db, ids), countToolsByThread(db.client, ids)]);
  const toolsByThread = new Map<number, { toolName: string; calls: number }[]>();
  for (const tool of tools) toolsByThread.set(tool.threadId, [...(toolsByThread.get(tool.threadId) ?? []), tool]);

  const threads: ThreadListItem[] = rows.map((row) => ({
    groupId: row.groupId,
    title: row.title,
    vendor: row.vendor,
    createdAt: row.createdAt,
    lastActivityAt: row.lastActivityAt,
    counts: counts.get(row.id) ?? emptyCounts(),
    tools: (toolsByThread.get(row.id) ?? [])
      .sort((a, b) => b.calls - a.calls || a.toolName.localeCompare(b.toolName))
      .slice(0, 4)
      .map((tool) => tool.toolName),
  }));
  return { threads, nextCursor, prevCursor };
}

async function requireThread(db: Database, groupId: string): Promise<ThreadRow> {
  const thread = await findThreadByGroupId(db.client, groupId);
  if (!thread) throw new AppError("not_found", `No thread "${groupId}"`);
  return thread;
}

/** The header of the thread page; null when no such thread exists. */
export async function getThreadSummary(options: { groupId: string; database?: Database }): Promise<ThreadSummary | null> {
  const db = options.database ?? (await getDatabase());
  const thread = await findThreadByGroupId(db.client, options.groupId);
  if (!thread) return null;
  const [counts, eventCount] = await Promise.all([countsFor(db, [thread.id]), countThreadEvents(db.client, thread.id)]);
  return {
    groupId: thread.groupId,
    title: thread.title,
    vendor: thread.vendor,
    createdAt: thread.createdAt,
    lastActivityAt: thread.lastActivityAt,
    counts: counts.get(thread.id) ?? emptyCounts(),
    eventCount,
  };
}

const NO_TEXT_KINDS = new Set(["tool_call", "tool_result", "timeout"]);

/** Calls and paired results keep their text on their own rows; a result with no call (an import's orphan) keeps it on the event. */
function eventCarriesText(row: { kind: string; toolCallId: number | null }): boolean {
  return !NO_TEXT_KINDS.has(row.kind) || (row.kind === "tool_result" && row.toolCallId === null);
}

function headPreview(heads: Heads, id: number, column: string, escaped: boolean, limit: number): { text: string; truncated: boolean } | null {
  const raw = heads.get(id)?.[column];
  if (raw === null || raw === undefined) return null;
  const complete = raw.length < limit + HEAD_MARGIN;
  return previewUntrustedText(decodeStoredHead(raw, escaped, complete), limit, !complete);
}

// The display choice in one line, from the first characters of display_as: a text segment's content,
// or a diff's path (read from the head even when a long patch makes the whole value unreadable here).
function displayLabel(displayKind: string, head: string | null | undefined): string | null {
  if (!head || displayKind === "raw") return null;
  let label: string | null = null;
  if (head.length < DISPLAY_AS_HEAD) {
    try {
      const choice = chooseDisplay(JSON.parse(head));
      label = choice.kind === "text" ? choice.content : choice.kind === "diff" ? choice.path : null;
    } catch {
      label = null;
    }
  } else if (displayKind === "diff") {
    const match = /"path"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(head);
    try {
      const path: unknown = match?.[1] ? JSON.parse(match[1]) : null;
      label = typeof path === "string" ? path : null;
    } catch {
      label = null;
    }
  }
  return label === null ? null : previewUntrustedText(label, DISPLAY_LABEL).text;
}

function toResultBrief(row: ResultBriefRow, heads: Heads): ResultBrief {
  const preview = headPreview(heads, row.id, "text", row.textEscaped, RESULT_PREVIEW) ?? { text: "", truncated: false };
  return {
    id: row.id,
    ordinal: row.ordinal,
    receivedAt: row.receivedAt,
    late: row.late,
    displayKind: row.displayKind,
    displayLabel: displayLabel(row.displayKind, heads.get(row.id)?.displayAsJson),
    isError: row.isError,
    errorSource: row.errorSource,
    envelopeKind: row.envelopeKind,
    success: row.success,
    confidence: row.confidence,
    nextAction: row.nextAction,
    isMcp: row.isMcp,
    schemaStatus: row.schemaStatus,
    textBytes: row.textBytes,
    invisibleCount: row.invisibleCount,
    secretCount: row.secretCount,
    preview: preview.text,
    previewTruncated: preview.truncated,
  };
}

function toCallBrief(row: CallBriefRow, argumentHeads: Heads, latest: ResultBrief | null): CallBrief {
  const json = headPreview(argumentHeads, row.id, "argumentsJson", false, ARGUMENTS_PREVIEW);
  const text = json ? null : headPreview(argumentHeads, row.id, "argumentsText", row.argumentsEscaped, ARGUMENTS_PREVIEW);
  const args = json ?? text;
  return {
    id: row.id,
    callKey: row.callKey,
    callId: row.callId,
    toolName: row.toolName,
    status: row.status,
    step: row.step,
    subscription: row.subscription,
    vendor: row.vendor,
    requestedAt: row.requestedAt,
    completedAt: row.completedAt,
    deadlineAt: row.deadlineAt,
    timedOutAt: row.timedOutAt,
    resultCount: row.resultCount,
    argumentsPreview: args ? `${args.text}${args.truncated ? "…" : ""}` : "",
    argumentsIsJson: json !== null,
    latestResult: latest,
  };
}

function errorLayer(dataJson: string | null): string | null {
  if (!dataJson) return null;
  try {
    const data: unknown = JSON.parse(dataJson);
    if (typeof data === "object" && data !== null && "layer" in data && typeof data.layer === "string") return data.layer;
  } catch {
    // Not ours to judge here: an unreadable dataJson just has no layer.
  }
  return null;
}

/**
 * GET /api/threads/{groupId}/timeline and the thread page: the events after `after` in timeline order,
 * plus the current state of every call they mention (status, newest result, short previews).
 */
export async function getTimelinePage(options: { groupId: string; after?: number; limit?: number; database?: Database }): Promise<TimelinePage> {
  const db = options.database ?? (await getDatabase());
  const thread = await requireThread(db, options.groupId);
  const after = options.after ?? 0;
  const limit = options.limit ?? TIMELINE_PAGE_SIZE;
  const fetched = await findEventsAfter(db.client, { threadId: thread.id, after, limit });
  const rows = fetched.slice(0, limit);

  const callIds = [...new Set(rows.flatMap((row) => (row.toolCallId === null ? [] : [row.toolCallId])))];
  const textEventIds = rows.filter(eventCarriesText).map((row) => row.id);
  const calls = await findCallBriefs(db.client, callIds);
  const latest = await findLatestResultBriefs(db.client, calls);
  const [eventHeads, argumentHeads, resultHeads] = await Promise.all([
    findTextHeads(db.client, "Event", textEventIds, EVENT_TEXT_PREVIEW + HEAD_MARGIN),
    findTextHeads(db.client, "ToolCall", callIds, ARGUMENTS_PREVIEW + HEAD_MARGIN),
    findTextHeads(
      db.client,
      "ToolResult",
      latest.map((result) => result.id),
      Math.max(RESULT_PREVIEW + HEAD_MARGIN, DISPLAY_AS_HEAD),
    ),
  ]);
  const latestByCall = new Map(latest.map((row) => [row.toolCallId, toResultBrief(row, resultHeads)]));

  const events: TimelineEvent[] = rows.map((row) => {
    const text = eventCarriesText(row) ? headPreview(eventHeads, row.id, "text", row.textEscaped, EVENT_TEXT_PREVIEW) : null;
    return {
      id: row.id,
      kind: row.kind,
      step: row.step,
      role: row.role,
      occurredAt: row.occurredAt,
      source: row.source,
      text: text?.text ?? null,
      textTruncated: text?.truncated ?? false,
      layer: row.kind === "error" ? errorLayer(row.dataJson) : null,
      callRowId: row.toolCallId,
      resultId: row.resultId,
    };
  });
  return {
    groupId: thread.groupId,
    events,
    calls: calls.map((call) => toCallBrief(call, argumentHeads, latestByCall.get(call.id) ?? null)),
    hasMore: fetched.length > limit,
    lastEventId: rows.at(-1)?.id ?? after,
  };
}

/** GET /api/threads/{groupId}/events/{eventId}/text: the whole text of one event, for "show more". */
export async function getEventText(options: { groupId: string; eventId: number; database?: Database }): Promise<EventText> {
  const db = options.database ?? (await getDatabase());
  const thread = await requireThread(db, options.groupId);
  const event = await findEventText(db.client, thread.id, options.eventId);
  if (!event) throw new AppError("not_found", `No event ${options.eventId} in thread "${options.groupId}"`);
  return { id: options.eventId, text: event.text === null ? "" : decodeStoredHead(event.text, event.textEscaped, true) };
}
