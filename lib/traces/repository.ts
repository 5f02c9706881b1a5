// Prisma access for whole-thread operations: writing an imported thread, reading one for export, replay and compare.
// Rows leave as plain records (ISO dates, decoded text); row ids never leave except as opaque cursors.
import type { ModelClient } from "../db/client.ts";
import { multiRowInserts, type SqlValue } from "../db/sql.ts";
import { decodeStoredText, encodeStoredText } from "../results/text-codec.ts";
import type { CallRecord, DeliveryRecord, ResultRecord, ResultRef, ThreadExport, ThreadRecord } from "./export-format.ts";

// ---------------------------------------------------------------- threads

export type ThreadRow = { id: number; groupId: string; record: ThreadRecord };

export async function findThread(client: ModelClient, groupId: string): Promise<ThreadRow | null> {
  const row = await client.thread.findUnique({
    where: { groupId },
    select: { id: true, groupId: true, title: true, vendor: true, createdAt: true, lastActivityAt: true },
  });
  if (row === null) return null;
  return {
    id: row.id,
    groupId: row.groupId,
    record: { kind: "thread", title: row.title, vendor: row.vendor, created_at: row.createdAt.toISOString(), last_activity_at: row.lastActivityAt.toISOString() },
  };
}

export type ThreadListItem = { groupId: string; title: string | null; vendor: string | null; lastActivityAt: string };

export async function listRecentThreads(client: ModelClient, limit: number): Promise<ThreadListItem[]> {
  const rows = await client.thread.findMany({
    orderBy: [{ lastActivityAt: "desc" }, { id: "desc" }],
    take: limit,
    select: { groupId: true, title: true, vendor: true, lastActivityAt: true },
  });
  return rows.map((row) => ({ groupId: row.groupId, title: row.title, vendor: row.vendor, lastActivityAt: row.lastActivityAt.toISOString() }));
}

/** The data of the thread's first `import` event: what a vendor import recorded about its input. */
export async function findImportEventData(client: ModelClient, threadId: number, kind: string): Promise<string | null> {
  const row = await client.event.findFirst({ where: { threadId, kind }, orderBy: { id: "asc" }, select: { dataJson: true } });
  return row?.dataJson ?? null;
}

// ---------------------------------------------------------------- writing a whole thread

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

// ---------------------------------------------------------------- reading a whole thread, page by page

/**
 * The highest row ids when an export starts. Pages never read past them, so rows that arrive during a long
 * export are left out consistently. Read in dependency order (deliveries, events, results, calls): anything
 * under a bound only references rows that existed before it, so everything it names is under their bounds.
 */
export type ExportBounds = { delivery: number; event: number; result: number; call: number };

export async function readExportBounds(client: ModelClient, threadId: number, groupId: string): Promise<ExportBounds> {
  const delivery = await client.delivery.aggregate({ where: { groupId }, _max: { id: true } });
  const event = await client.event.aggregate({ where: { threadId }, _max: { id: true } });
  const result = await client.toolResult.aggregate({ where: { toolCall: { threadId } }, _max: { id: true } });
  const call = await client.toolCall.aggregate({ where: { threadId }, _max: { id: true } });
  return { delivery: delivery._max.id ?? 0, event: event._max.id ?? 0, result: result._max.id ?? 0, call: call._max.id ?? 0 };
}

export type Page<T> = { rows: T[]; cursor: number | null };

function page<T extends { id: number }, R>(rows: T[], limit: number, map: (row: T) => R): Page<R> {
  const last = rows.at(-1);
  return { rows: rows.map(map), cursor: rows.length === limit && last !== undefined ? last.id : null };
}

export async function readCallPage(client: ModelClient, threadId: number, bound: number, after: number, limit: number): Promise<Page<{ id: number; record: CallRecord }>> {
  const rows = await client.toolCall.findMany({
    where: { threadId, id: { gt: after, lte: bound } },
    orderBy: { id: "asc" },
    take: limit,
    select: {
      id: true,
      callKey: true,
      callId: true,
      toolName: true,
      argumentsText: true,
      argumentsEscaped: true,
      argumentsJson: true,
      argumentsError: true,
      declarationJson: true,
      outputSchemaJson: true,
      vendor: true,
      step: true,
      status: true,
      subscription: true,
      requestedAt: true,
      completedAt: true,
      deadlineAt: true,
      timedOutAt: true,
      resultCount: true,
      lastResultAt: true,
      registrationSha256: true,
    },
  });
  return page(rows, limit, (row) => ({
    id: row.id,
    record: {
      kind: "call",
      call_key: row.callKey,
      call_id: row.callId,
      tool_name: row.toolName,
      arguments_text: row.argumentsText === null ? null : decodeStoredText(row.argumentsText, row.argumentsEscaped),
      arguments_json: row.argumentsJson,
      arguments_error: row.argumentsError,
      declaration_json: row.declarationJson,
      output_schema_json: row.outputSchemaJson,
      vendor: row.vendor,
      step: row.step,
      status: row.status,
      subscription: row.subscription,
      requested_at: row.requestedAt.toISOString(),
      completed_at: row.completedAt?.toISOString() ?? null,
      deadline_at: row.deadlineAt?.toISOString() ?? null,
      timed_out_at: row.timedOutAt?.toISOString() ?? null,
      result_count: row.resultCount,
      last_result_at: row.lastResultAt?.toISOString() ?? null,
      registration_sha256: row.registrationSha256,
    },
  }));
}

/** Results reference their call by row id here; the service turns that into the call's key. */
export async function readResultPage(
  client: ModelClient,
  threadId: number,
  bound: number,
  after: number,
  limit: number,
): Promise<Page<{ id: number; toolCallId: number; deliveryId: number | null; record: Omit<ResultRecord, "call_key" | "delivery"> }>> {
  const rows = await client.toolResult.findMany({
    where: { toolCall: { threadId }, id: { gt: after, lte: bound } },
    orderBy: { id: "asc" },
    take: limit,
    select: {
      id: true,
      toolCallId: true,
      deliveryId: true,
      ordinal: true,
      text: true,
      textEscaped: true,
      textSha256: true,
      textBytes: true,
      contentSha256: true,
      displayAsJson: true,
      displayKind: true,
      receivedAt: true,
      late: true,
      isError: true,
      errorSource: true,
      envelopeKind: true,
      success: true,
      confidence: true,
      nextAction: true,
      errorType: true,
      errorMessage: true,
      errorRetryable: true,
      errorUserMessage: true,
      metaToolName: true,
      metaToolVersion: true,
      metaTraceId: true,
      metaDurationMs: true,
      metaCached: true,
      isMcp: true,
      schemaStatus: true,
      invisibleCount: true,
      secretCount: true,
      analysisJson: true,
    },
  });
  return page(rows, limit, (row) => ({
    id: row.id,
    toolCallId: row.toolCallId,
    deliveryId: row.deliveryId,
    record: {
      kind: "result",
      ordinal: row.ordinal,
      text: decodeStoredText(row.text, row.textEscaped),
      text_sha256: row.textSha256,
      text_bytes: row.textBytes,
      content_sha256: row.contentSha256,
      display_as_json: row.displayAsJson,
      display_kind: row.displayKind,
      received_at: row.receivedAt.toISOString(),
      late: row.late,
      is_error: row.isError,
      error_source: row.errorSource,
      envelope_kind: row.envelopeKind,
      success: row.success,
      confidence: row.confidence,
      next_action: row.nextAction,
      error_type: row.errorType,
      error_message: row.errorMessage,
      error_retryable: row.errorRetryable,
      error_user_message: row.errorUserMessage,
      meta_tool_name: row.metaToolName,
      meta_tool_version: row.metaToolVersion,
      meta_trace_id: row.metaTraceId,
      meta_duration_ms: row.metaDurationMs,
      meta_cached: row.metaCached,
      is_mcp: row.isMcp,
      schema_status: row.schemaStatus,
      invisible_count: row.invisibleCount,
      secret_count: row.secretCount,
      analysis_json: row.analysisJson,
    },
  }));
}

export type EventRow = {
  id: number;
  kind: string;
  toolCallId: number | null;
  resultId: number | null;
  step: number | null;
  role: string | null;
  text: string | null;
  dataJson: string | null;
  rawJson: string | null;
  source: string;
  occurredAt: string;
};

export async function readEventPage(client: ModelClient, threadId: number, bound: number, after: number, limit: number): Promise<Page<EventRow>> {
  const rows = await client.event.findMany({
    where: { threadId, id: { gt: after, lte: bound } },
    orderBy: { id: "asc" },
    take: limit,
    select: {
      id: true,
      kind: true,
      toolCallId: true,
      resultId: true,
      step: true,
      role: true,
      text: true,
      textEscaped: true,
      dataJson: true,
      rawJson: true,
      source: true,
      occurredAt: true,
    },
  });
  return page(rows, limit, ({ textEscaped, ...row }) => ({
    ...row,
    text: row.text === null ? null : decodeStoredText(row.text, textEscaped),
    occurredAt: row.occurredAt.toISOString(),
  }));
}

/** Deliveries reference calls and results by row id here; the service maps them to keys. */
export async function readDeliveryPage(
  client: ModelClient,
  groupId: string,
  bound: number,
  after: number,
  limit: number,
): Promise<Page<{ id: number; toolCallId: number | null; resultId: number | null; record: Omit<DeliveryRecord, "index" | "tool_call" | "result"> }>> {
  const rows = await client.delivery.findMany({
    where: { groupId, id: { gt: after, lte: bound } },
    orderBy: { id: "asc" },
    take: limit,
    select: {
      id: true,
      receivedAt: true,
      outcome: true,
      httpStatus: true,
      reason: true,
      callKey: true,
      toolCallId: true,
      resultId: true,
      contentType: true,
      bodyBytes: true,
      bodySha256: true,
      rawBody: true,
      rawBodyTruncated: true,
      remoteAddress: true,
      webhookId: true,
    },
  });
  return page(rows, limit, (row) => ({
    id: row.id,
    toolCallId: row.toolCallId,
    resultId: row.resultId,
    record: {
      kind: "delivery",
      received_at: row.receivedAt.toISOString(),
      outcome: row.outcome,
      http_status: row.httpStatus,
      reason: row.reason,
      call_key: row.callKey,
      content_type: row.contentType,
      body_bytes: row.bodyBytes,
      body_sha256: row.bodySha256,
      raw_body_base64: row.rawBody === null ? null : Buffer.from(row.rawBody).toString("base64"),
      raw_body_truncated: row.rawBodyTruncated,
      remote_address: row.remoteAddress,
      webhook_id: row.webhookId,
    },
  }));
}

/** Position of a delivery among the group's deliveries (null when it is not one of them). */
export async function findDeliveryPosition(client: ModelClient, groupId: string, deliveryId: number): Promise<number | null> {
  const exists = await client.delivery.count({ where: { groupId, id: deliveryId } });
  if (exists === 0) return null;
  return client.delivery.count({ where: { groupId, id: { lt: deliveryId } } });
}

// ---------------------------------------------------------------- replay and compare

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

export async function readCalls(client: ModelClient, threadId: number, limit?: number): Promise<TimelineCall[]> {
  const rows = await client.toolCall.findMany({
    where: { threadId },
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
  for (let after = 0; ; ) {
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

export async function countCalls(client: ModelClient, threadId: number): Promise<number> {
  return client.toolCall.count({ where: { threadId } });
}
