// Mapped calls, results and timeline items → the rows the callback and events paths write, with the same
// invariants: arguments kept verbatim (+ parsed JSON), results analysed by lib/results analyzeResult, text
// stored through the text codec, call status from its result. Also the per-trace bookkeeping (TraceState).
import "server-only";
import { describeArguments } from "../events/service.ts";
import { firstResultColumns, NO_RESULT_COLUMNS } from "../results/call-columns.ts";
import { analysisColumns } from "../ingest/result-columns.ts";
import { analyzeResult } from "../results/analyze.ts";
import { sha256Hex } from "../results/hash.ts";
import { encodeStoredText } from "../results/text-codec.ts";
import { identifierProblem, TOOL_NAME_MAX } from "../ingest/schemas.ts";
import type { MappedCall, MappedItem } from "./map-trace.ts";
import type { CallRow, EventRow, ResultRow } from "./repository.ts";

export const OTEL_SOURCE = "otel";

/** What a trace's last mapping wrote: read back when the trace (or an earlier one in its thread) changes. */
export type TraceState = {
  items: { key: string; digest: string; eventId: number }[];
  calls: { key: string; digest: string }[];
  conversation: string[];
  lastStep: number | null;
  threadSource: string;
};

export function parseTraceState(json: string): TraceState {
  const value: unknown = JSON.parse(json);
  if (
    typeof value !== "object" ||
    value === null ||
    !("items" in value) ||
    !("calls" in value) ||
    !Array.isArray(value.items) ||
    !Array.isArray(value.calls)
  ) {
    throw new Error("corrupt OtelTrace.stateJson");
  }
  const state = value as TraceState;
  return state;
}

export function analyzedResult(call: MappedCall): { row: Omit<ResultRow, "toolCallId">; isError: boolean } | null {
  const result = call.result;
  if (result === null) return null;
  const analysis = analyzeResult({ text: result.text, outputSchema: call.declaration?.outputSchema });
  const columns = analysisColumns(analysis);
  const isError = columns.isError || result.isError;
  const stored = encodeStoredText(result.text);
  return {
    isError,
    row: {
      ordinal: 0,
      text: stored.stored,
      textEscaped: stored.escaped,
      textSha256: sha256Hex(result.text),
      textBytes: Buffer.byteLength(result.text, "utf8"),
      // The callback's duplicate key ([text, display_as, call_id]): a runtime re-posting this text is a duplicate.
      contentSha256: sha256Hex(JSON.stringify([result.text, null, null])),
      displayAsJson: null,
      receivedAt: result.receivedAt,
      late: false,
      ...columns,
      isError,
      errorSource: columns.errorSource ?? (isError ? result.errorSource : null),
    },
  };
}

/** A mapped result's row, as analyzedResult returns it (the call's explorer columns are derived from it). */
type AnalyzedRow = NonNullable<ReturnType<typeof analyzedResult>>["row"];

export function callRow(call: MappedCall, threadId: number, groupId: string, result: AnalyzedRow | null): CallRow {
  const resultIsError = result === null ? null : Boolean(result.isError);
  const args = describeArguments(call.argumentsText ?? undefined);
  const encodedArgs = args.text === null ? null : encodeStoredText(args.text);
  const declaration =
    call.declaration === null
      ? null
      : {
          name: call.declaration.name,
          description: call.declaration.description,
          inputSchema: call.declaration.inputSchema,
          outputSchema: call.declaration.outputSchema,
        };
  const done = resultIsError !== null;
  return {
    threadId,
    groupId,
    callKey: call.callKey,
    callId: null,
    toolName: storableToolName(call.toolName),
    argumentsText: encodedArgs?.stored ?? null,
    argumentsEscaped: encodedArgs?.escaped ?? false,
    argumentsJson: args.json,
    argumentsError: args.error,
    declarationJson: declaration === null ? null : JSON.stringify(declaration),
    outputSchemaJson:
      call.declaration?.outputSchema === undefined ? null : JSON.stringify(call.declaration.outputSchema),
    vendor: call.vendor,
    step: call.step,
    status: resultIsError === null ? "pending" : resultIsError ? "errored" : "completed",
    requestedAt: call.requestedAt,
    completedAt: done ? (call.completedAt ?? call.requestedAt) : null,
    resultCount: done ? 1 : 0,
    lastResultAt: done ? (call.result?.receivedAt ?? null) : null,
    registrationSha256: call.digest,
    // The explorer columns the result insert's trigger would write: set here, the trigger skips the call.
    ...(result === null
      ? NO_RESULT_COLUMNS
      : firstResultColumns(
          {
            envelopeKind: nullableString(result.envelopeKind),
            success: nullableBoolean(result.success),
            isError: Boolean(result.isError),
            errorSource: nullableString(result.errorSource),
            errorType: nullableString(result.errorType),
            confidence: nullableNumber(result.confidence),
            nextAction: nullableString(result.nextAction),
            late: Boolean(result.late),
            metaDurationMs: nullableNumber(result.metaDurationMs),
            receivedAt: result.receivedAt instanceof Date ? result.receivedAt : new Date(String(result.receivedAt)),
          },
          call.requestedAt,
        )),
  };
}

export function eventRow(item: MappedItem, threadId: number, callId: number | null, resultId: number | null): EventRow {
  const text = item.text === null ? null : encodeStoredText(item.text);
  return {
    threadId,
    kind: item.kind,
    toolCallId: callId,
    resultId,
    step: item.step,
    role: item.role,
    text: text?.stored ?? null,
    textEscaped: text?.escaped ?? false,
    dataJson: item.dataJson,
    source: OTEL_SOURCE,
    occurredAt: item.occurredAt,
  };
}

const nullableString = (value: unknown): string | null => (typeof value === "string" ? value : null);
const nullableNumber = (value: unknown): number | null => (typeof value === "number" ? value : null);
const nullableBoolean = (value: unknown): boolean | null => (typeof value === "boolean" ? value : null);

/**
 * A span's tool name as the column takes it: names are indexed (the explorer's filters, Insights), so one past
 * what every other way in accepts (identifierProblem with TOOL_NAME_MAX) is cut, marked with "…"; the span keeps it whole.
 */
export function storableToolName(name: string): string {
  if (identifierProblem(name, TOOL_NAME_MAX) === null) return name;
  let cut = [...name.replaceAll("\u0000", "")].slice(0, TOOL_NAME_MAX - 1).join("");
  while (cut.length > 0 && identifierProblem(`${cut}…`, TOOL_NAME_MAX) !== null) cut = [...cut].slice(0, -8).join("");
  return `${cut}…`;
}
