// Prisma access for replay and compare: a thread's calls, results and events as plain rows.
import "server-only";
import type { ModelClient } from "../../db/client.ts";
import { decodeStoredText } from "../../results/text-codec.ts";
import { readEventPage, type EventRow } from "./export-pages.ts";

export type { EventRow };

export type TimelineCall = {
  id: number;
  callKey: string;
  toolName: string;
  argumentsText: string | null;
  argumentsJson: string | null;
  argumentsError: string | null;
  declarationJson: string | null;
  vendor: string | null;
  step: number | null;
  status: string;
  resultCount: number;
};

/** The thread's calls in id order: the first `limit`, or those of row ids `ids` (at most 900) or in a range of ids. */
export async function readCalls(
  client: ModelClient,
  threadId: number,
  limit?: number,
  ids?: readonly number[] | { gte: number; lte: number },
): Promise<TimelineCall[]> {
  const rows = await client.toolCall.findMany({
    where: { threadId, ...(ids === undefined ? {} : { id: "gte" in ids ? ids : { in: [...ids] } }) },
    orderBy: { id: "asc" },
    ...(limit === undefined ? {} : { take: limit }),
    select: {
      id: true,
      callKey: true,
      toolName: true,
      argumentsText: true,
      argumentsEscaped: true,
      argumentsJson: true,
      argumentsError: true,
      declarationJson: true,
      vendor: true,
      step: true,
      status: true,
      resultCount: true,
    },
  });
  return rows.map(({ argumentsEscaped, ...row }) => ({
    ...row,
    argumentsText: row.argumentsText === null ? null : decodeStoredText(row.argumentsText, argumentsEscaped),
  }));
}

export type TimelineResult = { id: number; toolCallId: number; ordinal: number; text: string; isError: boolean };

/**
 * The thread's results, page by page (a join on the thread, not an IN list of call ids: SQLite's adapter
 * caps bound parameters at 999). `firstOnly`: each call's first result; `upToCallId`: calls up to that row id.
 */
export async function readResults(
  client: ModelClient,
  threadId: number,
  options: { firstOnly?: boolean; upToCallId?: number } = {},
): Promise<TimelineResult[]> {
  const out: TimelineResult[] = [];
  for (let after = 0; ;) {
    const rows = await client.toolResult.findMany({
      where: {
        id: { gt: after },
        toolCall: { threadId },
        ...(options.firstOnly ? { ordinal: 0 } : {}),
        ...(options.upToCallId === undefined ? {} : { toolCallId: { lte: options.upToCallId } }),
      },
      orderBy: { id: "asc" },
      take: 1000,
      select: { id: true, toolCallId: true, ordinal: true, text: true, textEscaped: true, isError: true },
    });
    for (const { textEscaped, ...row } of rows) out.push({ ...row, text: decodeStoredText(row.text, textEscaped) });
    const last = rows.at(-1);
    if (rows.length < 1000 || last === undefined) return out;
    after = last.id;
  }
}

// The largest id an Int column holds on both databases: "no upper bound" for PostgreSQL's int4.
const MAX_INT_ID = 2_147_483_647;

export async function readAllEvents(client: ModelClient, threadId: number): Promise<EventRow[]> {
  const out: EventRow[] = [];
  let after = 0;
  for (;;) {
    const { rows, cursor } = await readEventPage(client, threadId, MAX_INT_ID, after, 2000);
    out.push(...rows);
    if (cursor === null) return out;
    after = cursor;
  }
}

/**
 * The thread's model text answers in order (the first `limit`): output_text events (the runtime's and OTLP's) and
 * assistant messages (how imported transcripts record the model's text).
 */
export async function readOutputTexts(client: ModelClient, threadId: number, limit: number): Promise<string[]> {
  const rows = await client.event.findMany({
    where: { threadId, OR: [{ kind: "output_text" }, { kind: "message", role: "assistant" }] },
    orderBy: { id: "asc" },
    take: limit,
    select: { text: true, textEscaped: true },
  });
  return rows.flatMap((row) => (row.text === null ? [] : [decodeStoredText(row.text, row.textEscaped)]));
}

export async function countCalls(client: ModelClient, threadId: number): Promise<number> {
  return client.toolCall.count({ where: { threadId } });
}

/**
 * The thread's newest event id (0 for none): with its last activity, what says a cached replay trace is still
 * current. Events are only appended, so a new one changes it; one index probe, where counting walked 200k entries.
 */
export async function lastEventId(client: ModelClient, threadId: number): Promise<number> {
  const newest = await client.event.findFirst({ where: { threadId }, orderBy: { id: "desc" }, select: { id: true } });
  return newest?.id ?? 0;
}

/** The thread's rows with ids in [fromId, toId], in id order (a window of the timeline). */
export async function readEventRange(
  client: ModelClient,
  threadId: number,
  fromId: number,
  toId: number,
): Promise<EventRow[]> {
  const out: EventRow[] = [];
  for (let after = fromId - 1; ;) {
    const { rows, cursor } = await readEventPage(client, threadId, toId, after, 2000);
    out.push(...rows);
    if (cursor === null) return out;
    after = cursor;
  }
}
