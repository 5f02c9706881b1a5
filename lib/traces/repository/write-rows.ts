// The column lists of writeThread's multi-row INSERTs and the export records mapped onto them (stored texts
// encoded, ISO strings back to dates).
import "server-only";
import type { SqlValue } from "../../db/sql.ts";
import { encodeStoredText } from "../../results/text-codec.ts";
import type { CallRecord, ResultRecord } from "../export-format.ts";

const date = (iso: string) => new Date(iso);
const dateOrNull = (iso: string | null) => (iso === null ? null : new Date(iso));

export const CALL_COLUMNS = [
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

export const RESULT_COLUMNS = [
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

export const EVENT_COLUMNS = [
  "threadId",
  "kind",
  "toolCallId",
  "resultId",
  "step",
  "role",
  "text",
  "textEscaped",
  "dataJson",
  "rawJson",
  "source",
  "occurredAt",
] as const;

export const DELIVERY_COLUMNS = [
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
  "importedAt",
  "importedBy",
] as const;

export type Row<Columns extends readonly string[]> = Record<Columns[number], SqlValue>;

export function callRow(call: CallRecord, threadId: number, groupId: string): Row<typeof CALL_COLUMNS> {
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

export function resultRow(result: ResultRecord, toolCallId: number): Row<typeof RESULT_COLUMNS> {
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
