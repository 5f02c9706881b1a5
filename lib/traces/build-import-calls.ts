// The ToolCall and ToolResult records of an import: one call per canonical call (a repeated vendor id gets a
// `#dup-n` key), results analysed like live ones, statuses settled from first results and protocol errors.
import type { FormatName, ToolCallEvent, ToolDeclaration, ToolResultEvent } from "../formats/canonical.ts";
import { isRecord } from "../formats/json-fields.ts";
import { parseJsonLossless, stringifyJsonLossless } from "../formats/lossless-json.ts";
import { analysisColumns } from "../ingest/result-columns.ts";
import { analyzeResult } from "../results/analyze.ts";
import { sha256Hex } from "../results/hash.ts";
import type { CallRecord, ResultRecord } from "./export-format.ts";

// Vendor error signals that the result text itself does not show, as ToolResult.errorSource values.
const ERROR_SOURCE_OF_SIGNAL = {
  "vendor-flag": "vendor_flag",
  "error-key": "error_key",
  "error-prefix": "error_prefix",
} as const;

type CallSlot = { record: CallRecord; firstResultIsError: boolean | null; errored: boolean };

function declarationJson(declaration: ToolDeclaration | undefined): string | null {
  if (declaration === undefined) return null;
  // The live API's declaration shape ({name, title?, description, inputSchema, outputSchema, annotations?}); the
  // vendor's own tool object stays in the import event's declarations.
  const { raw: _raw, ...shape } = declaration;
  return stringifyJsonLossless(shape);
}

// JSON arguments as stored for queries: re-serialised with every number's digits; text input is not JSON.
function argumentsJson(event: ToolCallEvent): { json: string | null; error: string | null } {
  if (event.input === "text") return { json: null, error: null };
  try {
    return { json: stringifyJsonLossless(parseJsonLossless(event.argumentsText)), error: null };
  } catch (error) {
    return { json: null, error: error instanceof SyntaxError ? error.message : "not JSON" };
  }
}

/**
 * What a tool would have posted as the result text. For MCP that is the CallToolResult itself (as a tool
 * relaying an MCP reply posts it), so MCP analysis, isError and outputSchema validation run on it like on a
 * live result; every other vendor's result text is the canonical text.
 */
function storedResultText(format: FormatName, event: ToolResultEvent): string {
  if (format !== "mcp") return event.text;
  const message = isRecord(event.raw) && isRecord(event.raw.message) ? event.raw.message : event.raw;
  return isRecord(message) && isRecord(message.result) ? stringifyJsonLossless(message.result) : event.text;
}

export class CallLedger {
  readonly calls: CallRecord[] = [];
  readonly results: ResultRecord[] = [];
  private readonly slotsById = new Map<string, CallSlot[]>();
  private readonly callKeys = new Set<string>();
  private readonly declarations: Map<string, ToolDeclaration>;

  constructor(
    private readonly format: FormatName,
    declarations: readonly ToolDeclaration[],
    private readonly at: string,
  ) {
    this.declarations = new Map(declarations.map((declaration) => [declaration.name, declaration]));
  }

  addCall(event: ToolCallEvent): CallRecord {
    // A repeated vendor id cannot share the (group, id) key: the repeat gets a suffixed key and keeps its id in the event.
    let callKey = event.callId;
    for (let n = 1; this.callKeys.has(callKey); n += 1) callKey = `${event.callId}#dup-${n}`;
    this.callKeys.add(callKey);
    const declaration = this.declarations.get(event.name);
    const described = argumentsJson(event);
    const record: CallRecord = {
      kind: "call",
      call_key: callKey,
      call_id: null,
      tool_name: event.name,
      arguments_text: event.argumentsText,
      arguments_json: described.json,
      arguments_error: event.argumentsError ?? described.error,
      declaration_json: declarationJson(declaration),
      output_schema_json:
        declaration?.outputSchema === undefined ? null : stringifyJsonLossless(declaration.outputSchema),
      vendor: this.format,
      step: event.step,
      status: "pending",
      subscription: null,
      requested_at: this.at,
      completed_at: null,
      deadline_at: null,
      timed_out_at: null,
      result_count: 0,
      last_result_at: null,
      registration_sha256: sha256Hex(JSON.stringify([this.format, event.callId, event.name, event.argumentsText])),
    };
    this.calls.push(record);
    const slots = this.slotsById.get(event.callId) ?? [];
    slots.push({ record, firstResultIsError: null, errored: false });
    this.slotsById.set(event.callId, slots);
    return record;
  }

  /** The oldest call with this id still waiting; a second result for an answered call is kept as its next result. */
  slotFor(callId: string): CallSlot | undefined {
    const slots = this.slotsById.get(callId);
    return slots?.find((candidate) => candidate.record.result_count === 0) ?? slots?.[0];
  }

  /** A protocol error (or a cancellation) settles a call that has no result yet. */
  markErrored(callId: string): CallRecord | undefined {
    const slot = this.slotsById.get(callId)?.[0];
    if (slot !== undefined && slot.record.result_count === 0) slot.errored = true;
    return slot?.record;
  }

  addResult(event: ToolResultEvent, slot: CallSlot): ResultRecord {
    const text = storedResultText(this.format, event);
    const declaration = this.declarations.get(slot.record.tool_name);
    const columns = analysisColumns(analyzeResult({ text, outputSchema: declaration?.outputSchema }));
    const vendorSource =
      event.isError && event.errorSignal !== undefined
        ? ERROR_SOURCE_OF_SIGNAL[event.errorSignal]
        : event.isError
          ? "vendor_flag"
          : null;
    const isError = columns.isError || event.isError;
    const record: ResultRecord = {
      kind: "result",
      call_key: slot.record.call_key,
      ordinal: slot.record.result_count,
      text,
      text_sha256: sha256Hex(text),
      text_bytes: Buffer.byteLength(text, "utf8"),
      // The callback's duplicate key ([text, display_as, call_id]), so a live redelivery of the same text is a duplicate.
      content_sha256: sha256Hex(JSON.stringify([text, null, null])),
      display_as_json: null,
      display_kind: columns.displayKind,
      received_at: this.at,
      late: false,
      is_error: isError,
      error_source: columns.errorSource ?? (isError ? vendorSource : null),
      envelope_kind: columns.envelopeKind,
      success: columns.success,
      confidence: columns.confidence,
      next_action: columns.nextAction,
      error_type: columns.errorType,
      error_message: columns.errorMessage,
      error_retryable: columns.errorRetryable,
      error_user_message: columns.errorUserMessage,
      meta_tool_name: columns.metaToolName,
      meta_tool_version: columns.metaToolVersion,
      meta_trace_id: columns.metaTraceId,
      meta_duration_ms: columns.metaDurationMs,
      meta_cached: columns.metaCached,
      is_mcp: columns.isMcp,
      schema_status: columns.schemaStatus,
      invisible_count: columns.invisibleCount,
      secret_count: columns.secretCount,
      analysis_json: columns.analysisJson,
      delivery: null,
    };
    this.results.push(record);
    slot.record.result_count += 1;
    slot.record.last_result_at = this.at;
    slot.record.completed_at ??= this.at;
    if (slot.firstResultIsError === null) slot.firstResultIsError = isError;
    return record;
  }

  /** Status from the first result (completed / errored), errored when a protocol error settled it, else pending. */
  settle(): void {
    for (const slots of this.slotsById.values()) {
      for (const slot of slots) {
        if (slot.firstResultIsError !== null) slot.record.status = slot.firstResultIsError ? "errored" : "completed";
        else if (slot.errored) {
          slot.record.status = "errored";
          slot.record.completed_at = this.at;
        }
      }
    }
  }
}
