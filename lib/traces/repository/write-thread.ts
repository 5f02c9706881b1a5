// Prisma access for writing a whole thread (import): every row in the records' order, in multi-row INSERTs.
import "server-only";
import type { ModelClient } from "../../db/client.ts";
import { multiRowInserts, type SqlValue } from "../../db/sql.ts";
import { encodeStoredText } from "../../results/text-codec.ts";
import type { CallRecord, DeliveryRecord, ResultRecord, ResultRef, ThreadExport } from "../export-format.ts";

export type WriteProgress = (rowsWritten: number, rowsTotal: number) => void;

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
const dateOrNull = (iso: string | null) => (iso === null ? null : new Date(iso));
const refKey = (ref: ResultRef) => JSON.stringify([ref.call_key, ref.ordinal]);
const length = (value: string | null) => value?.length ?? 0;

const CALL_COLUMNS = [
  "threadId",
  "groupId",
  "callKey",
  "callId",
  "toolName",
  "argumentsText",
  "argumentsEscaped",
  "argumentsJson",
  "argumentsError",
  "declarationJson",
  "outputSchemaJson",
  "vendor",
  "step",
  "status",
  "subscription",
  "requestedAt",
  "completedAt",
  "deadlineAt",
  "timedOutAt",
  "resultCount",
  "lastResultAt",
  "registrationSha256",
] as const;

const RESULT_COLUMNS = [
  "toolCallId",
  "ordinal",
  "text",
  "textEscaped",
  "textSha256",
  "textBytes",
  "contentSha256",
  "displayAsJson",
  "displayKind",
  "receivedAt",
  "late",
  "isError",
  "errorSource",
  "envelopeKind",
  "success",
  "confidence",
  "nextAction",
  "errorType",
  "errorMessage",
  "errorRetryable",
  "errorUserMessage",
  "metaToolName",
  "metaToolVersion",
  "metaTraceId",
  "metaDurationMs",
  "metaCached",
  "isMcp",
  "schemaStatus",
  "invisibleCount",
  "secretCount",
  "analysisJson",
  "deliveryId",
] as const;

const EVENT_COLUMNS = ["threadId", "kind", "toolCallId", "resultId", "step", "role", "text", "textEscaped", "dataJson", "rawJson", "source", "occurredAt"] as const;

const DELIVERY_COLUMNS = [
  "receivedAt",
  "outcome",
  "httpStatus",
  "reason",
  "groupId",
  "callKey",
  "toolCallId",
  "resultId",
  "contentType",
  "bodyBytes",
  "bodySha256",
  "rawBody",
  "rawBodyTruncated",
  "remoteAddress",
  "webhookId",
] as const;

type Row<Columns extends readonly string[]> = Record<Columns[number], SqlValue>;

function valuesOf<Columns extends readonly string[]>(columns: Columns, row: Row<Columns>): SqlValue[] {
  return columns.map((column: Columns[number]) => row[column]);
}

/**
 * Writes a whole thread inside the caller's transaction, in the records' order (so row ids keep the export's
 * order). Throws a unique violation when the group id is taken.
 */
export async function writeThread(tx: ModelClient, data: ThreadExport, onProgress?: WriteProgress): Promise<number> {
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

  const callIds = new Map<string, number>();
  for (const chunk of chunked(data.calls, (call) => length(call.arguments_text) + length(call.declaration_json))) {
    const rows = chunk.map((call) => valuesOf(CALL_COLUMNS, callRow(call, thread.id, data.groupId)));
    for (const statement of multiRowInserts("ToolCall", CALL_COLUMNS, rows, ["id", "callKey"])) {
      for (const row of await tx.$queryRaw<{ id: number | bigint; callKey: string }[]>(statement)) callIds.set(row.callKey, Number(row.id));
    }
    advance(chunk.length);
  }
  const callId = (callKey: string) => {
    const id = callIds.get(callKey);
    if (id === undefined) throw new Error(`call ${callKey} was not written`);
    return id;
  };

  const resultIds = new Map<string, number>();
  const callKeyOfRow = new Map([...callIds].map(([key, id]) => [id, key]));
  for (const chunk of chunked(data.results, (result) => result.text.length + result.analysis_json.length)) {
    const rows = chunk.map((result) => valuesOf(RESULT_COLUMNS, resultRow(result, callId(result.call_key))));
    for (const statement of multiRowInserts("ToolResult", RESULT_COLUMNS, rows, ["id", "toolCallId", "ordinal"])) {
      for (const row of await tx.$queryRaw<{ id: number | bigint; toolCallId: number | bigint; ordinal: number | bigint }[]>(statement)) {
        resultIds.set(refKey({ call_key: callKeyOfRow.get(Number(row.toolCallId)) ?? "", ordinal: Number(row.ordinal) }), Number(row.id));
      }
    }
    advance(chunk.length);
  }
  const resultId = (ref: ResultRef | null) => {
    if (ref === null) return null;
    const id = resultIds.get(refKey(ref));
    if (id === undefined) throw new Error(`result ${refKey(ref)} was not written`);
    return id;
  };

  for (const chunk of chunked(data.events, (event) => length(event.text) + length(event.data_json) + length(event.raw_json))) {
    const rows = chunk.map((event) => {
      const text = event.text === null ? null : encodeStoredText(event.text);
      return valuesOf(EVENT_COLUMNS, {
        threadId: thread.id,
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
  });
  const linked = data.results.filter((result) => result.delivery !== null);
  if (linked.length === 0) {
    for (const chunk of chunked(data.deliveries, (delivery) => length(delivery.raw_body_base64))) {
      for (const statement of multiRowInserts("Delivery", DELIVERY_COLUMNS, chunk.map((delivery) => valuesOf(DELIVERY_COLUMNS, deliveryRow(delivery))))) {
        await tx.$executeRaw(statement);
      }
      advance(chunk.length);
    }
  } else {
    // Results that name their delivery need its new id; one insert per delivery keeps index → id certain.
    const deliveryIds: number[] = [];
    for (const delivery of data.deliveries) {
      const [statement] = multiRowInserts("Delivery", DELIVERY_COLUMNS, [valuesOf(DELIVERY_COLUMNS, deliveryRow(delivery))], ["id"]);
      const [row] = statement === undefined ? [] : await tx.$queryRaw<{ id: number | bigint }[]>(statement);
      if (row === undefined) throw new Error("a delivery insert returned no id");
      deliveryIds.push(Number(row.id));
      advance(1);
    }
    for (const result of linked) {
      const id = resultIds.get(refKey(result));
      const deliveryId = result.delivery === null ? undefined : deliveryIds[result.delivery];
      if (id !== undefined && deliveryId !== undefined) await tx.toolResult.update({ where: { id }, data: { deliveryId }, select: { id: true } });
    }
  }
  return thread.id;
}

function callRow(call: CallRecord, threadId: number, groupId: string): Row<typeof CALL_COLUMNS> {
  const args = call.arguments_text === null ? null : encodeStoredText(call.arguments_text);
  return {
    threadId,
    groupId,
    callKey: call.call_key,
    callId: call.call_id,
    toolName: call.tool_name,
    argumentsText: args?.stored ?? null,
    argumentsEscaped: args?.escaped ?? false,
    argumentsJson: call.arguments_json,
    argumentsError: call.arguments_error,
    declarationJson: call.declaration_json,
    outputSchemaJson: call.output_schema_json,
    vendor: call.vendor,
    step: call.step,
    status: call.status,
    subscription: call.subscription,
    requestedAt: date(call.requested_at),
    completedAt: dateOrNull(call.completed_at),
    deadlineAt: dateOrNull(call.deadline_at),
    timedOutAt: dateOrNull(call.timed_out_at),
    resultCount: call.result_count,
    lastResultAt: dateOrNull(call.last_result_at),
    registrationSha256: call.registration_sha256,
  };
}

function resultRow(result: ResultRecord, toolCallId: number): Row<typeof RESULT_COLUMNS> {
  const text = encodeStoredText(result.text);
  return {
    toolCallId,
    ordinal: result.ordinal,
    text: text.stored,
    textEscaped: text.escaped,
    textSha256: result.text_sha256,
    textBytes: result.text_bytes,
    contentSha256: result.content_sha256,
    displayAsJson: result.display_as_json,
    displayKind: result.display_kind,
    receivedAt: date(result.received_at),
    late: result.late,
    isError: result.is_error,
    errorSource: result.error_source,
    envelopeKind: result.envelope_kind,
    success: result.success,
    confidence: result.confidence,
    nextAction: result.next_action,
    errorType: result.error_type,
    errorMessage: result.error_message,
    errorRetryable: result.error_retryable,
    errorUserMessage: result.error_user_message,
    metaToolName: result.meta_tool_name,
    metaToolVersion: result.meta_tool_version,
    metaTraceId: result.meta_trace_id,
    metaDurationMs: result.meta_duration_ms,
    metaCached: result.meta_cached,
    isMcp: result.is_mcp,
    schemaStatus: result.schema_status,
    invisibleCount: result.invisible_count,
    secretCount: result.secret_count,
    analysisJson: result.analysis_json,
    deliveryId: null,
  };
}

