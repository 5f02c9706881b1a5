// Prisma access for writing a whole thread (import): every row in the records' order, in multi-row INSERTs.
import "server-only";
import { modelTurnRecord, turnFiguresFromData } from "../../model-turns/records.ts";
import { createModelTurns } from "../../model-turns/repository.ts";
import { MODEL_TURN_EVENT } from "../../model-turns/schemas.ts";
import type { ModelClient } from "../../db/client.ts";
import { multiRowInserts, type SqlValue } from "../../db/sql.ts";
import { encodeStoredText } from "../../results/text-codec.ts";
import type { DeliveryRecord, ResultRef, ThreadExport } from "../export-format.ts";
import {
  CALL_COLUMNS,
  DELIVERY_COLUMNS,
  EVENT_COLUMNS,
  RESULT_COLUMNS,
  callRow,
  resultRow,
  type Row,
} from "./write-rows.ts";

export type WriteProgress = (rowsWritten: number, rowsTotal: number) => void;

/** Stamped on every Delivery row an import writes: the audit log must never pass them off as received. */
export type ImportMark = { at: Date; by: string };

// Multi-row INSERTs (lib/db/sql.ts): Prisma's createMany costs ~0.3 ms per row here (a 40 MB transcript took a
// minute, holding SQLite's write lock all along); a prepared multi-row INSERT costs microseconds per row.
// Chunks are bounded by characters too, so one statement stays a few MB however large single results are.
const MAX_ROWS_PER_INSERT = 500;
const MAX_CHARS_PER_INSERT = 8_000_000;

function* chunked<T>(items: readonly T[], size: (item: T) => number): Generator<T[]> {
  let chunk: T[] = [];
  let chars = 0;
  for (const item of items) {
    const itemSize = size(item);
    if (chunk.length > 0 && (chunk.length >= MAX_ROWS_PER_INSERT || chars + itemSize > MAX_CHARS_PER_INSERT)) {
      yield chunk;
      chunk = [];
      chars = 0;
    }
    chunk.push(item);
    chars += itemSize;
  }
  if (chunk.length > 0) yield chunk;
}

const date = (iso: string) => new Date(iso);
const refKey = (ref: ResultRef) => JSON.stringify([ref.call_key, ref.ordinal]);
const length = (value: string | null) => value?.length ?? 0;

function valuesOf<Columns extends readonly string[]>(columns: Columns, row: Row<Columns>): SqlValue[] {
  return columns.map((column: Columns[number]) => row[column]);
}

/** What every stage of writeThread shares: the transaction, the export, the new thread's id, progress. */
type WriteContext = {
  tx: ModelClient;
  data: ThreadExport;
  threadId: number;
  mark: ImportMark;
  advance: (rows: number) => void;
};
type IdOf<Ref> = (ref: Ref) => number;

/**
 * Writes a whole thread inside the caller's transaction, in the records' order (so row ids keep the export's
 * order). Throws a unique violation when the group id is taken.
 */
export async function writeThread(
  tx: ModelClient,
  data: ThreadExport,
  mark: ImportMark,
  onProgress?: WriteProgress,
): Promise<number> {
  const total = 1 + data.calls.length + data.results.length + data.events.length + data.deliveries.length;
  let written = 0;
  const advance = (rows: number) => {
    written += rows;
    onProgress?.(written, total);
  };

  const thread = await tx.thread.create({
    data: {
      groupId: data.groupId,
      title: data.thread.title,
      vendor: data.thread.vendor,
      createdAt: date(data.thread.created_at),
      lastActivityAt: date(data.thread.last_activity_at),
    },
    select: { id: true },
  });
  advance(1);
  const context: WriteContext = { tx, data, threadId: thread.id, mark, advance };

  const callIds = await writeCalls(context);
  const callId = (callKey: string) => {
    const id = callIds.get(callKey);
    if (id === undefined) throw new Error(`call ${callKey} was not written`);
    return id;
  };
  const resultIds = await writeResults(context, callIds, callId);
  const resultId = (ref: ResultRef | null) => {
    if (ref === null) return null;
    const id = resultIds.get(refKey(ref));
    if (id === undefined) throw new Error(`result ${refKey(ref)} was not written`);
    return id;
  };
  await writeEvents(context, callId, resultId);
  await writeModelTurns(context);
  await writeDeliveries(context, callId, resultId, resultIds);
  return thread.id;
}

async function writeCalls({ tx, data, threadId, advance }: WriteContext): Promise<Map<string, number>> {
  const callIds = new Map<string, number>();
  for (const chunk of chunked(data.calls, (call) => length(call.arguments_text) + length(call.declaration_json))) {
    const rows = chunk.map((call) => valuesOf(CALL_COLUMNS, callRow(call, threadId, data.groupId)));
    for (const statement of multiRowInserts("ToolCall", CALL_COLUMNS, rows, ["id", "callKey"])) {
      for (const row of await tx.$queryRaw<{ id: number | bigint; callKey: string }[]>(statement))
        callIds.set(row.callKey, Number(row.id));
    }
    advance(chunk.length);
  }
  return callIds;
}

async function writeResults(
  { tx, data, advance }: WriteContext,
  callIds: Map<string, number>,
  callId: IdOf<string>,
): Promise<Map<string, number>> {
  const resultIds = new Map<string, number>();
  const callKeyOfRow = new Map([...callIds].map(([key, id]) => [id, key]));
  for (const chunk of chunked(data.results, (result) => result.text.length + result.analysis_json.length)) {
    const rows = chunk.map((result) => valuesOf(RESULT_COLUMNS, resultRow(result, callId(result.call_key))));
    for (const statement of multiRowInserts("ToolResult", RESULT_COLUMNS, rows, ["id", "toolCallId", "ordinal"])) {
      for (const row of await tx.$queryRaw<
        { id: number | bigint; toolCallId: number | bigint; ordinal: number | bigint }[]
      >(statement)) {
        resultIds.set(
          refKey({ call_key: callKeyOfRow.get(Number(row.toolCallId)) ?? "", ordinal: Number(row.ordinal) }),
          Number(row.id),
        );
      }
    }
    advance(chunk.length);
  }
  return resultIds;
}

async function writeEvents(
  { tx, data, threadId, advance }: WriteContext,
  callId: IdOf<string>,
  resultId: (ref: ResultRef | null) => number | null,
): Promise<void> {
  for (const chunk of chunked(
    data.events,
    (event) => length(event.text) + length(event.data_json) + length(event.raw_json),
  )) {
    const rows = chunk.map((event) => {
      const text = event.text === null ? null : encodeStoredText(event.text);
      return valuesOf(EVENT_COLUMNS, {
        threadId,
        kind: event.type,
        toolCallId: event.call_key === null ? null : callId(event.call_key),
        resultId: resultId(event.result),
        step: event.step,
        role: event.role,
        text: text?.stored ?? null,
        textEscaped: text?.escaped ?? false,
        dataJson: event.data_json,
        rawJson: event.raw_json,
        source: event.source,
        occurredAt: date(event.occurred_at),
      });
    });
    for (const statement of multiRowInserts("Event", EVENT_COLUMNS, rows)) await tx.$executeRaw(statement);
    advance(chunk.length);
  }
}

/** The model_turn rows' figures into the one model-turn store (lib/model-turns), tied to their rows. */
async function writeModelTurns({ tx, threadId }: WriteContext): Promise<void> {
  const rows = await tx.event.findMany({
    where: { threadId, kind: MODEL_TURN_EVENT },
    select: { id: true, dataJson: true, step: true, occurredAt: true },
    orderBy: { id: "asc" },
  });
  const records = rows.flatMap((row) => {
    let data: unknown = null;
    try {
      data = row.dataJson === null ? null : JSON.parse(row.dataJson);
    } catch {
      return [];
    }
    const figures = turnFiguresFromData(data);
    if (figures === null) return [];
    return [
      modelTurnRecord({
        threadId,
        eventId: row.id,
        source: "import",
        ordinal: row.step ?? 0,
        figures,
        startedAt: row.occurredAt,
        finishedAt: null,
      }),
    ];
  });
  await createModelTurns(tx, records);
}

async function writeDeliveries(
  { tx, data, mark, advance }: WriteContext,
  callId: IdOf<string>,
  resultId: (ref: ResultRef | null) => number | null,
  resultIds: Map<string, number>,
): Promise<void> {
  const deliveryRow = (delivery: DeliveryRecord): Row<typeof DELIVERY_COLUMNS> => ({
    receivedAt: date(delivery.received_at),
    outcome: delivery.outcome,
    httpStatus: delivery.http_status,
    reason: delivery.reason,
    groupId: data.groupId,
    callKey: delivery.call_key,
    toolCallId: delivery.tool_call === null ? null : callId(delivery.tool_call),
    resultId: resultId(delivery.result),
    contentType: delivery.content_type,
    bodyBytes: delivery.body_bytes,
    bodySha256: delivery.body_sha256,
    rawBody: delivery.raw_body_base64 === null ? null : new Uint8Array(Buffer.from(delivery.raw_body_base64, "base64")),
    rawBodyTruncated: delivery.raw_body_truncated,
    remoteAddress: delivery.remote_address,
    webhookId: delivery.webhook_id,
    importedAt: mark.at,
    importedBy: mark.by,
  });
  const linked = data.results.filter((result) => result.delivery !== null);
  if (linked.length === 0) {
    for (const chunk of chunked(data.deliveries, (delivery) => length(delivery.raw_body_base64))) {
      for (const statement of multiRowInserts(
        "Delivery",
        DELIVERY_COLUMNS,
        chunk.map((delivery) => valuesOf(DELIVERY_COLUMNS, deliveryRow(delivery))),
      )) {
        await tx.$executeRaw(statement);
      }
      advance(chunk.length);
    }
    return;
  }
  // Results that name their delivery need its new id; one insert per delivery keeps index → id certain.
  const deliveryIds: number[] = [];
  for (const delivery of data.deliveries) {
    const [statement] = multiRowInserts(
      "Delivery",
      DELIVERY_COLUMNS,
      [valuesOf(DELIVERY_COLUMNS, deliveryRow(delivery))],
      ["id"],
    );
    const [row] = statement === undefined ? [] : await tx.$queryRaw<{ id: number | bigint }[]>(statement);
    if (row === undefined) throw new Error("a delivery insert returned no id");
    deliveryIds.push(Number(row.id));
    advance(1);
  }
  for (const result of linked) {
    const id = resultIds.get(refKey(result));
    const deliveryId = result.delivery === null ? undefined : deliveryIds[result.delivery];
    if (id !== undefined && deliveryId !== undefined)
      await tx.toolResult.update({ where: { id }, data: { deliveryId }, select: { id: true } });
  }
}
