// Exporting one thread as Toolscope JSONL, streamed page by page so a large thread never sits in memory whole.
import "server-only";
import { getDatabase, type Database } from "../db/client.ts";
import { AppError } from "../http/app-error.ts";
import { headerRecord, serializeRecord, type ExportCounts, type ResultRef } from "./export-format.ts";
import { findDeliveryPosition, readCallPage, readDeliveryPage, readEventPage, readExportBounds, readResultPage } from "./repository/export-pages.ts";
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

async function* exportLinesOf(db: Database, thread: ThreadRow): AsyncGenerator<string> {
  const client = db.client;
  const bounds = await readExportBounds(client, thread.id, thread.groupId);
  const counts: ExportCounts = { calls: 0, results: 0, events: 0, deliveries: 0 };
  yield serializeRecord(headerRecord(thread.groupId));
  yield serializeRecord(thread.record);

  const callKeys = new Map<number, string>();
  for (let after = 0; ; ) {
    const { rows, cursor } = await readCallPage(client, thread.id, bounds.call, after, PAGE);
    for (const row of rows) {
      callKeys.set(row.id, row.record.call_key);
      counts.calls += 1;
      yield serializeRecord(row.record);
    }
    if (cursor === null) break;
    after = cursor;
  }
  const callKey = (id: number | null): string | null => {
    if (id === null) return null;
    const key = callKeys.get(id);
    if (key === undefined) throw new Error(`row references call ${id}, which is not in thread ${thread.groupId}`);
    return key;
  };

  const resultRefs = new Map<number, ResultRef>();
  for (let after = 0; ; ) {
    const { rows, cursor } = await readResultPage(client, thread.id, bounds.result, after, RESULT_PAGE);
    for (const row of rows) {
      const ref: ResultRef = { call_key: callKey(row.toolCallId) ?? "", ordinal: row.record.ordinal };
      resultRefs.set(row.id, ref);
      counts.results += 1;
      yield serializeRecord({ ...row.record, call_key: ref.call_key, delivery: row.deliveryId === null ? null : await deliveryPosition(db, thread.groupId, bounds.delivery, row.deliveryId) });
    }
    if (cursor === null) break;
    after = cursor;
  }
  const resultRef = (id: number | null): ResultRef | null => {
    if (id === null) return null;
    const ref = resultRefs.get(id);
    if (ref === undefined) throw new Error(`row references result ${id}, which is not in thread ${thread.groupId}`);
    return ref;
  };

  for (let after = 0; ; ) {
    const { rows, cursor } = await readEventPage(client, thread.id, bounds.event, after, PAGE);
    for (const row of rows) {
      yield serializeRecord({
        kind: "event",
        index: counts.events,
        type: row.kind,
        call_key: callKey(row.toolCallId),
        result: resultRef(row.resultId),
        step: row.step,
        role: row.role,
        text: row.text,
        data_json: row.dataJson,
        raw_json: row.rawJson,
        source: row.source,
        occurred_at: row.occurredAt,
      });
      counts.events += 1;
    }
    if (cursor === null) break;
    after = cursor;
  }

  for (let after = 0; ; ) {
    const { rows, cursor } = await readDeliveryPage(client, thread.groupId, bounds.delivery, after, PAGE);
    for (const row of rows) {
      yield serializeRecord({
        ...row.record,
        index: counts.deliveries,
        // A delivery routed to a call of another thread cannot exist (routing is by this group id), but an
        // unknown row id must not abort a half-sent export: it is written as unlinked.
        tool_call: row.toolCallId === null ? null : (callKeys.get(row.toolCallId) ?? null),
        result: row.resultId === null ? null : (resultRefs.get(row.resultId) ?? null),
      });
      counts.deliveries += 1;
    }
    if (cursor === null) break;
    after = cursor;
  }
  yield serializeRecord({ kind: "end", counts });
}

// Results almost never name a delivery (the callback path links delivery → result, not back); when one does,
// its position is the number of the group's exported deliveries before it.
async function deliveryPosition(db: Database, groupId: string, bound: number, deliveryId: number): Promise<number | null> {
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
