// Exporting one thread as Toolscope JSONL, streamed page by page so a large thread never sits in memory whole.
import "server-only";
import { getDatabase, type Database } from "../db/client.ts";
import { AppError } from "../http/app-error.ts";
import { headerRecord, serializeRecord, type ExportCounts, type ResultRef } from "./export-format.ts";
import {
  findDeliveryPosition,
  readCallPage,
  readDeliveryPage,
  readEventPage,
  readExportBounds,
  readResultPage,
  type ExportBounds,
} from "./repository/export-pages.ts";
import { findThread, type ThreadRow } from "./repository/threads.ts";

const PAGE = 1000;
// Results can be megabytes each: fewer per page.
const RESULT_PAGE = 250;

export type ThreadExportStream = { groupId: string; lines: AsyncGenerator<string> };

/**
 * Finds the thread first (so a missing one is a 404 before any byte is sent), then yields the export's lines.
 * Row ids only live inside this function, as the maps that turn them into call keys and positions.
 */
export async function openThreadExport(options: { groupId: string; database?: Database }): Promise<ThreadExportStream> {
  const db = options.database ?? (await getDatabase());
  const thread = await findThread(db.client, options.groupId);
  if (thread === null) throw new AppError("not_found", `No thread "${options.groupId}"`);
  return { groupId: thread.groupId, lines: exportLinesOf(db, thread) };
}

/** What the sections of one export share: the bounds it reads under, and the references written so far. */
type ExportContext = {
  db: Database;
  thread: ThreadRow;
  bounds: ExportBounds;
  counts: ExportCounts;
  callKeys: Map<number, string>;
  resultRefs: Map<number, ResultRef>;
};

async function* exportLinesOf(db: Database, thread: ThreadRow): AsyncGenerator<string> {
  const bounds = await readExportBounds(db.client, thread.id, thread.groupId);
  const context: ExportContext = {
    db,
    thread,
    bounds,
    counts: { calls: 0, results: 0, events: 0, deliveries: 0 },
    callKeys: new Map(),
    resultRefs: new Map(),
  };
  yield serializeRecord(headerRecord(thread.groupId));
  yield serializeRecord(thread.record);
  // Dependency order: every reference points backwards (results name calls, events name both, deliveries all).
  yield* exportCalls(context);
  yield* exportResults(context);
  yield* exportEvents(context);
  yield* exportDeliveries(context);
  yield serializeRecord({ kind: "end", counts: context.counts });
}

/** Pages through one table's rows under its bound, in id order. */
async function* pages<Row>(
  read: (after: number) => Promise<{ rows: Row[]; cursor: number | null }>,
): AsyncGenerator<Row> {
  for (let after = 0; ;) {
    const { rows, cursor } = await read(after);
    yield* rows;
    if (cursor === null) return;
    after = cursor;
  }
}

function callKeyOf(context: ExportContext, id: number | null): string | null {
  if (id === null) return null;
  const key = context.callKeys.get(id);
  if (key === undefined) throw new Error(`row references call ${id}, which is not in thread ${context.thread.groupId}`);
  return key;
}

function resultRefOf(context: ExportContext, id: number | null): ResultRef | null {
  if (id === null) return null;
  const ref = context.resultRefs.get(id);
  if (ref === undefined)
    throw new Error(`row references result ${id}, which is not in thread ${context.thread.groupId}`);
  return ref;
}

async function* exportCalls(context: ExportContext): AsyncGenerator<string> {
  const { db, thread, bounds } = context;
  for await (const row of pages((after) => readCallPage(db.client, thread.id, bounds.call, after, PAGE))) {
    context.callKeys.set(row.id, row.record.call_key);
    context.counts.calls += 1;
    yield serializeRecord(row.record);
  }
}

async function* exportResults(context: ExportContext): AsyncGenerator<string> {
  const { db, thread, bounds } = context;
  for await (const row of pages((after) => readResultPage(db.client, thread.id, bounds.result, after, RESULT_PAGE))) {
    const ref: ResultRef = { call_key: callKeyOf(context, row.toolCallId) ?? "", ordinal: row.record.ordinal };
    context.resultRefs.set(row.id, ref);
    context.counts.results += 1;
    const delivery =
      row.deliveryId === null ? null : await deliveryPosition(db, thread.groupId, bounds.delivery, row.deliveryId);
    yield serializeRecord({ ...row.record, call_key: ref.call_key, delivery });
  }
}

async function* exportEvents(context: ExportContext): AsyncGenerator<string> {
  const { db, thread, bounds } = context;
  for await (const row of pages((after) => readEventPage(db.client, thread.id, bounds.event, after, PAGE))) {
    yield serializeRecord({
      kind: "event",
      index: context.counts.events,
      type: row.kind,
      call_key: callKeyOf(context, row.toolCallId),
      result: resultRefOf(context, row.resultId),
      step: row.step,
      role: row.role,
      text: row.text,
      data_json: row.dataJson,
      raw_json: row.rawJson,
      source: row.source,
      occurred_at: row.occurredAt,
    });
    context.counts.events += 1;
  }
}

async function* exportDeliveries(context: ExportContext): AsyncGenerator<string> {
  const { db, thread, bounds } = context;
  for await (const row of pages((after) => readDeliveryPage(db.client, thread.groupId, bounds.delivery, after, PAGE))) {
    yield serializeRecord({
      ...row.record,
      index: context.counts.deliveries,
      // A delivery routed to a call of another thread cannot exist (routing is by this group id), but an
      // unknown row id must not abort a half-sent export: it is written as unlinked.
      tool_call: row.toolCallId === null ? null : (context.callKeys.get(row.toolCallId) ?? null),
      result: row.resultId === null ? null : (context.resultRefs.get(row.resultId) ?? null),
    });
    context.counts.deliveries += 1;
  }
}

// Results almost never name a delivery (the callback path links delivery → result, not back); when one does,
// its position is the number of the group's exported deliveries before it.
async function deliveryPosition(
  db: Database,
  groupId: string,
  bound: number,
  deliveryId: number,
): Promise<number | null> {
  if (deliveryId > bound) return null;
  return findDeliveryPosition(db.client, groupId, deliveryId);
}

/** The whole export as one string (tests, the identity check of a re-import, the CLI). */
export async function exportThreadText(options: { groupId: string; database?: Database }): Promise<string> {
  const { lines } = await openThreadExport(options);
  let out = "";
  for await (const line of lines) out += line;
  return out;
}
