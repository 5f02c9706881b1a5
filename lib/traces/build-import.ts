// Turns a canonical trace (lib/formats) into the records of one Toolscope thread: the same records an export
// holds, so vendor imports and Toolscope imports share one writer and an imported transcript exports losslessly.
import type { CanonicalEvent, CanonicalTrace, FormatName, ImportIssue, ToolCallEvent, ToolDeclaration, ToolResultEvent } from "../formats/canonical.ts";
import { isRecord } from "../formats/json-fields.ts";
import { describeArguments } from "../events/service.ts";
import { analysisColumns } from "../ingest/result-columns.ts";
import { analyzeResult } from "../results/analyze.ts";
import { sha256Hex } from "../results/hash.ts";
import { IMPORT_EVENT, IMPORT_ISSUE_EVENT, IMPORT_SOURCE } from "./event-kinds.ts";
import type { CallRecord, EventRecord, ResultRecord, ThreadExport } from "./export-format.ts";

export type ImportCounts = { events: number; calls: number; results: number; issues: number };

export type ImportMetadata = {
  format: FormatName;
  name: string | null;
  inputSha256: string;
  counts: ImportCounts;
  declarations: ToolDeclaration[];
};

export type BuildImportOptions = {
  groupId: string;
  name: string | null;
  inputSha256: string;
  importedAt: Date;
};

// Vendor error signals that the result text itself does not show, as ToolResult.errorSource values.
const ERROR_SOURCE_OF_SIGNAL = { "vendor-flag": "vendor_flag", "error-key": "error_key", "error-prefix": "error_prefix" } as const;

function json(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

function declarationJson(declaration: ToolDeclaration | undefined): string | null {
  if (declaration === undefined) return null;
  // The live API's declaration shape ({name, description, inputSchema, outputSchema}); the vendor's own tool
  // object stays in the import event's declarations.
  const { raw: _raw, ...shape } = declaration;
  return JSON.stringify(shape);
}

/**
 * What a tool would have posted as the result text. For MCP that is the CallToolResult itself (as a tool
 * relaying an MCP reply posts it), so MCP analysis, isError and outputSchema validation run on it like on a
 * live result; every other vendor's result text is the canonical text.
 */
function storedResultText(format: FormatName, event: ToolResultEvent): string {
  if (format !== "mcp") return event.text;
  const message = isRecord(event.raw) && isRecord(event.raw.message) ? event.raw.message : event.raw;
  return isRecord(message) && isRecord(message.result) ? JSON.stringify(message.result) : event.text;
}

type CallSlot = { record: CallRecord; firstResultIsError: boolean | null };

export function buildImport(trace: CanonicalTrace, options: BuildImportOptions): { data: ThreadExport; metadata: ImportMetadata } {
  const at = options.importedAt.toISOString();
  const declarations = new Map(trace.declarations.map((declaration) => [declaration.name, declaration]));
  const calls: CallRecord[] = [];
  const slotsById = new Map<string, CallSlot[]>();
  const callKeys = new Set<string>();
  const results: ResultRecord[] = [];
  const timeline: Omit<EventRecord, "index">[] = [];
  const errored = new Set<CallRecord>();
  const orphanIssues = new Map(trace.issues.filter((issue) => issue.message.startsWith("result for unknown call")).map((issue) => [issue.path, issue.message]));

  const eventRow = (event: CanonicalEvent, fields: Partial<Omit<EventRecord, "index" | "kind">> & { type: string }): Omit<EventRecord, "index"> => ({
    kind: "event",
    type: fields.type,
    call_key: fields.call_key ?? null,
    result: fields.result ?? null,
    step: event.step,
    role: fields.role ?? null,
    text: fields.text ?? null,
    data_json: fields.data_json ?? null,
    raw_json: json(event.raw),
    source: IMPORT_SOURCE,
    occurred_at: at,
  });

  const addCall = (event: ToolCallEvent): CallRecord => {
    // A repeated vendor id cannot share the (group, id) key: the repeat gets a suffixed key and keeps its id in the event.
    let callKey = event.callId;
    for (let n = 1; callKeys.has(callKey); n += 1) callKey = `${event.callId}#dup-${n}`;
    callKeys.add(callKey);
    const declaration = declarations.get(event.name);
    const described = event.input === "text" ? { json: null, error: null } : describeArguments(event.argumentsText);
    const record: CallRecord = {
      kind: "call",
      call_key: callKey,
      call_id: null,
      tool_name: event.name,
      arguments_text: event.argumentsText,
      arguments_json: described.json,
      arguments_error: event.argumentsError ?? described.error,
      declaration_json: declarationJson(declaration),
      output_schema_json: json(declaration?.outputSchema),
      vendor: trace.format,
      step: event.step,
      status: "pending",
      subscription: null,
      requested_at: at,
      completed_at: null,
      deadline_at: null,
      timed_out_at: null,
      result_count: 0,
      last_result_at: null,
      registration_sha256: sha256Hex(JSON.stringify([trace.format, event.callId, event.name, event.argumentsText])),
    };
    calls.push(record);
    const slots = slotsById.get(event.callId) ?? [];
    slots.push({ record, firstResultIsError: null });
    slotsById.set(event.callId, slots);
    return record;
  };

  const addResult = (event: ToolResultEvent, slot: CallSlot): ResultRecord => {
    const text = storedResultText(trace.format, event);
    const declaration = declarations.get(slot.record.tool_name);
    const analysis = analyzeResult({ text, outputSchema: declaration?.outputSchema });
    const columns = analysisColumns(analysis);
    const vendorSource = event.isError && event.errorSignal !== undefined ? ERROR_SOURCE_OF_SIGNAL[event.errorSignal] : event.isError ? "vendor_flag" : null;
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
      received_at: at,
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
    results.push(record);
    slot.record.result_count += 1;
    slot.record.last_result_at = at;
    slot.record.completed_at ??= at;
    if (slot.firstResultIsError === null) slot.firstResultIsError = isError;
    return record;
  };

  for (const event of trace.events) {
    switch (event.kind) {
      case "message": {
        timeline.push(eventRow(event, { type: "message", role: event.role, text: event.text, data_json: json({ path: event.path, content: event.content }) }));
        break;
      }
      case "reasoning": {
        timeline.push(eventRow(event, { type: "reasoning", role: "assistant", text: event.text, data_json: json({ path: event.path, redacted: event.redacted }) }));
        break;
      }
      case "tool_call": {
        const record = addCall(event);
        const data = { path: event.path, callId: event.callId, itemId: event.itemId, syntheticId: event.syntheticId, input: event.input, argumentsError: event.argumentsError };
        timeline.push(eventRow(event, { type: "tool_call", call_key: record.call_key, data_json: json(data) }));
        break;
      }
      case "tool_result": {
        const slots = slotsById.get(event.callId);
        // The oldest call with this id still waiting; a second result for an answered call is kept as its next result.
        const slot = slots?.find((candidate) => candidate.record.result_count === 0) ?? slots?.[0];
        const common = {
          path: event.path,
          callId: event.callId,
          name: event.name,
          isError: event.isError,
          errorSignal: event.errorSignal,
          content: event.content,
          structuredContent: event.structuredContent,
        };
        if (slot === undefined) {
          const issue = orphanIssues.get(event.path) ?? `result for unknown call ${event.callId}`;
          timeline.push(eventRow(event, { type: "tool_result", text: event.text, data_json: json({ ...common, issue }) }));
          break;
        }
        const result = addResult(event, slot);
        // The canonical text is kept only where the stored result text differs from it (MCP).
        const data = result.text === event.text ? common : { ...common, text: event.text };
        timeline.push(eventRow(event, { type: "tool_result", call_key: slot.record.call_key, result: { call_key: result.call_key, ordinal: result.ordinal }, data_json: json(data) }));
        break;
      }
      case "error": {
        const slot = event.callId === undefined ? undefined : slotsById.get(event.callId)?.[0];
        if (slot !== undefined && slot.record.result_count === 0) errored.add(slot.record);
        timeline.push(eventRow(event, { type: "error", call_key: slot?.record.call_key ?? null, text: event.message, data_json: json({ layer: event.layer, path: event.path, callId: event.callId }) }));
        break;
      }
    }
  }

  for (const slots of slotsById.values()) {
    for (const slot of slots) {
      if (slot.firstResultIsError !== null) slot.record.status = slot.firstResultIsError ? "errored" : "completed";
      else if (errored.has(slot.record)) {
        // A call that failed at the protocol layer (or was cancelled) will never get a result.
        slot.record.status = "errored";
        slot.record.completed_at = at;
      }
    }
  }

  const counts: ImportCounts = { events: trace.events.length, calls: calls.length, results: results.length, issues: trace.issues.length };
  const metadata: ImportMetadata = { format: trace.format, name: options.name, inputSha256: options.inputSha256, counts, declarations: trace.declarations };
  const importEvent: Omit<EventRecord, "index"> = {
    kind: "event",
    type: IMPORT_EVENT,
    call_key: null,
    result: null,
    step: null,
    role: null,
    text: null,
    data_json: JSON.stringify(metadata),
    raw_json: null,
    source: IMPORT_SOURCE,
    occurred_at: at,
  };
  const issueEvents = trace.issues.map((issue: ImportIssue): Omit<EventRecord, "index"> => ({
    kind: "event",
    type: IMPORT_ISSUE_EVENT,
    call_key: null,
    result: null,
    step: null,
    role: null,
    text: issue.message,
    data_json: JSON.stringify({ path: issue.path, message: issue.message }),
    raw_json: json(issue.raw),
    source: IMPORT_SOURCE,
    occurred_at: at,
  }));
  const events = [importEvent, ...timeline, ...issueEvents].map((event, index): EventRecord => ({ ...event, index }));
  const data: ThreadExport = {
    groupId: options.groupId,
    thread: { kind: "thread", title: options.name, vendor: trace.format, created_at: at, last_activity_at: at },
    calls,
    results,
    events,
    deliveries: [],
  };
  return { data, metadata };
}
