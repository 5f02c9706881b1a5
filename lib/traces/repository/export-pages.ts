// Prisma access for reading a whole thread page by page (export): bounded by the ids present when it starts.
import "server-only";
import type { ModelClient } from "../../db/client.ts";
import {
  CALL_ARGUMENTS,
  CALL_IDENTITY,
  CALL_STATE,
  DELIVERY_AUDIT,
  RESULT_ANALYSIS,
  RESULT_TEXT,
} from "../../db/selects.ts";
import { decodeStoredText } from "../../results/text-codec.ts";
import type { CallRecord, DeliveryRecord, ResultRecord } from "../export-format.ts";

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
  return {
    delivery: delivery._max.id ?? 0,
    event: event._max.id ?? 0,
    result: result._max.id ?? 0,
    call: call._max.id ?? 0,
  };
}

export type Page<T> = { rows: T[]; cursor: number | null };

function page<T extends { id: number }, R>(rows: T[], limit: number, map: (row: T) => R): Page<R> {
  const last = rows.at(-1);
  return { rows: rows.map(map), cursor: rows.length === limit && last !== undefined ? last.id : null };
}

export async function readCallPage(
  client: ModelClient,
  threadId: number,
  bound: number,
  after: number,
  limit: number,
): Promise<Page<{ id: number; record: CallRecord }>> {
  const rows = await client.toolCall.findMany({
    where: { threadId, id: { gt: after, lte: bound } },
    orderBy: { id: "asc" },
    take: limit,
    select: { ...CALL_IDENTITY, ...CALL_STATE, ...CALL_ARGUMENTS, registrationSha256: true },
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
): Promise<
  Page<{
    id: number;
    toolCallId: number;
    deliveryId: number | null;
    record: Omit<ResultRecord, "call_key" | "delivery">;
  }>
> {
  const rows = await client.toolResult.findMany({
    where: { toolCall: { threadId }, id: { gt: after, lte: bound } },
    orderBy: { id: "asc" },
    take: limit,
    select: {
      ...RESULT_TEXT,
      toolCallId: true,
      deliveryId: true,
      ordinal: true,
      contentSha256: true,
      displayAsJson: true,
      receivedAt: true,
      late: true,
      ...RESULT_ANALYSIS,
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

/** The Event columns a timeline row holds (EventRow), and the mapping from them. */
export const EVENT_ROW_SELECT = {
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
} as const;

export function toEventRow({
  textEscaped,
  ...row
}: {
  id: number;
  kind: string;
  toolCallId: number | null;
  resultId: number | null;
  step: number | null;
  role: string | null;
  text: string | null;
  textEscaped: boolean;
  dataJson: string | null;
  rawJson: string | null;
  source: string;
  occurredAt: Date;
}): EventRow {
  return {
    ...row,
    text: row.text === null ? null : decodeStoredText(row.text, textEscaped),
    occurredAt: row.occurredAt.toISOString(),
  };
}

export async function readEventPage(
  client: ModelClient,
  threadId: number,
  bound: number,
  after: number,
  limit: number,
): Promise<Page<EventRow>> {
  const rows = await client.event.findMany({
    where: { threadId, id: { gt: after, lte: bound } },
    orderBy: { id: "asc" },
    take: limit,
    select: EVENT_ROW_SELECT,
  });
  return page(rows, limit, toEventRow);
}

/** Deliveries reference calls and results by row id here; the service maps them to keys. */
export async function readDeliveryPage(
  client: ModelClient,
  groupId: string,
  bound: number,
  after: number,
  limit: number,
): Promise<
  Page<{
    id: number;
    toolCallId: number | null;
    resultId: number | null;
    record: Omit<DeliveryRecord, "index" | "tool_call" | "result">;
  }>
> {
  const rows = await client.delivery.findMany({
    where: { groupId, id: { gt: after, lte: bound } },
    orderBy: { id: "asc" },
    take: limit,
    select: { ...DELIVERY_AUDIT, callKey: true, toolCallId: true, rawBody: true },
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
export async function findDeliveryPosition(
  client: ModelClient,
  groupId: string,
  deliveryId: number,
): Promise<number | null> {
  const exists = await client.delivery.count({ where: { groupId, id: deliveryId } });
  if (exists === 0) return null;
  return client.delivery.count({ where: { groupId, id: { lt: deliveryId } } });
}
