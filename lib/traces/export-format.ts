// Toolscope's lossless JSONL thread format: the record types, their zod validation, and the one serializer.
//
// One JSON value per line, in this order:
//   {"kind":"toolscope-export","version":1,"group_id":…}   header (format detection keys on it)
//   {"kind":"thread",…}                                      the Thread row
//   {"kind":"call",…}*        ToolCall rows, in id order       (referenced by call_key)
//   {"kind":"result",…}*      ToolResult rows, in id order     (referenced by {call_key, ordinal})
//   {"kind":"event",…}*       Event rows, in timeline order    (referenced by index)
//   {"kind":"delivery",…}*    Delivery rows of the group, in arrival order (referenced by index)
//   {"kind":"end","counts":{…}}                              trailer: a file without it was cut short
// References only point backwards, so a reader can write rows as it reads them. Database row ids are never
// written (they differ between databases). Text columns are written decoded (lib/results/text-codec):
// JSON escapes NUL and lone surrogates, so the line is plain UTF-8 and the text comes back exactly.
// Nothing time-dependent (no "exported at") is written: exporting the same thread twice gives the same bytes.
import { z } from "zod";
import { ID_MAX, identifierProblem, INT32_MAX, isoInstant } from "../ingest/schemas.ts";
import { storableText } from "../results/text-codec.ts";

export const EXPORT_KIND = "toolscope-export";
export const EXPORT_VERSION = 1;

// What the columns hold on both databases, so a crafted or damaged file is a 422 naming its line and field, not a
// write PostgreSQL refuses (a 500) after SQLite would have taken it: instants in year 1 or later, integers within
// INTEGER, keys and indexed names within what an index entry holds (identifierProblem).
const iso = isoInstant();
const isoOrNull = iso.nullable();
/** The three texts stored through the text codec (results' text, calls' arguments, events' text): exact, NUL included. */
const codecText = z.string();
/**
 * Every other text column stores its text as it is, and PostgreSQL refuses NUL: on the way in NUL is written out as
 * `\u0000` and a lone surrogate as U+FFFD (storableText), as every writer does — Toolscope's exports never hold them
 * there; inside a JSON text the spelled-out escape still reads back as the same value.
 */
const text = z.string().transform(storableText);
const textOrNull = text.nullable();
const int32 = z
  .number()
  .int()
  .min(-INT32_MAX - 1)
  .max(INT32_MAX, { message: `must be at most ${INT32_MAX}` });
const count = int32.min(0);
const intOrNull = int32.nullable();
/** A call key or tool name (fork tool names take ID_MAX characters too). */
const identifierText = z.string().superRefine((value, context) => {
  const problem = value === "" ? "empty" : identifierProblem(value, ID_MAX);
  if (problem !== null) context.addIssue({ code: "custom", message: `not a storable identifier: ${problem}` });
});
const key = identifierText;
/** An indexed free-form name (vendor, error type): at most what an index entry beside a tool name holds. */
const indexedTextOrNull = z
  .string()
  .refine((value) => new TextEncoder().encode(value).length <= 1024, {
    message: "must be at most 1024 bytes in UTF-8 (it is indexed)",
  })
  .transform(storableText)
  .nullable();

export const resultRefSchema = z.strictObject({ call_key: key, ordinal: count });
export type ResultRef = z.infer<typeof resultRefSchema>;

export const headerRecordSchema = z.strictObject({
  kind: z.literal(EXPORT_KIND),
  version: z.literal(EXPORT_VERSION, { error: `version must be ${EXPORT_VERSION}` }),
  group_id: key,
});

export const threadRecordSchema = z.strictObject({
  kind: z.literal("thread"),
  title: textOrNull,
  vendor: indexedTextOrNull,
  created_at: iso,
  last_activity_at: iso,
});

export const callRecordSchema = z.strictObject({
  kind: z.literal("call"),
  call_key: key,
  call_id: textOrNull,
  tool_name: identifierText,
  arguments_text: codecText.nullable(),
  arguments_json: textOrNull,
  arguments_error: textOrNull,
  declaration_json: textOrNull,
  output_schema_json: textOrNull,
  vendor: indexedTextOrNull,
  step: intOrNull,
  status: text,
  subscription: textOrNull,
  requested_at: iso,
  completed_at: isoOrNull,
  deadline_at: isoOrNull,
  timed_out_at: isoOrNull,
  result_count: count,
  last_result_at: isoOrNull,
  registration_sha256: text,
});

export const resultRecordSchema = z.strictObject({
  kind: z.literal("result"),
  call_key: key,
  ordinal: count,
  text: codecText,
  text_sha256: text,
  text_bytes: count,
  content_sha256: text,
  display_as_json: textOrNull,
  display_kind: text,
  received_at: iso,
  late: z.boolean(),
  is_error: z.boolean(),
  error_source: textOrNull,
  envelope_kind: textOrNull,
  success: z.boolean().nullable(),
  confidence: z.number().nullable(),
  next_action: textOrNull,
  error_type: indexedTextOrNull,
  error_message: textOrNull,
  error_retryable: z.boolean().nullable(),
  error_user_message: textOrNull,
  meta_tool_name: textOrNull,
  meta_tool_version: textOrNull,
  meta_trace_id: textOrNull,
  meta_duration_ms: z.number().nullable(),
  meta_cached: z.boolean().nullable(),
  is_mcp: z.boolean(),
  schema_status: textOrNull,
  invisible_count: int32,
  secret_count: int32,
  analysis_json: text,
  delivery: intOrNull.describe("index of the delivery record this result came from"),
});

export const eventRecordSchema = z.strictObject({
  kind: z.literal("event"),
  index: count,
  type: text,
  call_key: z.string().nullable(),
  result: resultRefSchema.nullable(),
  step: intOrNull,
  role: textOrNull,
  text: codecText.nullable(),
  data_json: textOrNull,
  raw_json: textOrNull,
  source: text,
  occurred_at: iso,
});

export const deliveryRecordSchema = z.strictObject({
  kind: z.literal("delivery"),
  index: count,
  received_at: iso,
  outcome: text,
  http_status: int32,
  reason: textOrNull,
  call_key: textOrNull,
  tool_call: z.string().nullable().describe("call_key of the call the delivery was routed to"),
  result: resultRefSchema.nullable(),
  content_type: textOrNull,
  body_bytes: count,
  body_sha256: textOrNull,
  raw_body_base64: z.base64().nullable(),
  raw_body_truncated: z.boolean(),
  remote_address: textOrNull,
  webhook_id: textOrNull,
});

export const exportCountsSchema = z.strictObject({
  calls: z.number().int().min(0),
  results: z.number().int().min(0),
  events: z.number().int().min(0),
  deliveries: z.number().int().min(0),
});

export const endRecordSchema = z.strictObject({ kind: z.literal("end"), counts: exportCountsSchema });

export type HeaderRecord = z.infer<typeof headerRecordSchema>;
export type ThreadRecord = z.infer<typeof threadRecordSchema>;
export type CallRecord = z.infer<typeof callRecordSchema>;
export type ResultRecord = z.infer<typeof resultRecordSchema>;
export type EventRecord = z.infer<typeof eventRecordSchema>;
export type DeliveryRecord = z.infer<typeof deliveryRecordSchema>;
export type ExportCounts = z.infer<typeof exportCountsSchema>;
export type EndRecord = z.infer<typeof endRecordSchema>;

/** A whole thread as records: what an import writes and an export reads. */
export type ThreadExport = {
  groupId: string;
  thread: ThreadRecord;
  calls: CallRecord[];
  results: ResultRecord[];
  events: EventRecord[];
  deliveries: DeliveryRecord[];
};

/** True for the header line (or a value whose first item is it): how detection recognises a Toolscope export. */
export function isExportHeader(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    "kind" in value &&
    value.kind === EXPORT_KIND
  );
}

export type ExportRecord =
  HeaderRecord | ThreadRecord | CallRecord | ResultRecord | EventRecord | DeliveryRecord | EndRecord;

// Keys are written in the schema's order whatever order the record was built in, so equal rows give equal bytes.
const KEY_ORDER: Record<ExportRecord["kind"], string[]> = {
  [EXPORT_KIND]: Object.keys(headerRecordSchema.shape),
  thread: Object.keys(threadRecordSchema.shape),
  call: Object.keys(callRecordSchema.shape),
  result: Object.keys(resultRecordSchema.shape),
  event: Object.keys(eventRecordSchema.shape),
  delivery: Object.keys(deliveryRecordSchema.shape),
  end: Object.keys(endRecordSchema.shape),
};

/** One record as one JSONL line (with its newline). */
export function serializeRecord(record: ExportRecord): string {
  const values = new Map<string, unknown>(Object.entries(record));
  const ordered: Record<string, unknown> = {};
  for (const name of KEY_ORDER[record.kind]) ordered[name] = values.get(name);
  return `${JSON.stringify(ordered)}\n`;
}

export function headerRecord(groupId: string): HeaderRecord {
  return { kind: EXPORT_KIND, version: EXPORT_VERSION, group_id: groupId };
}

export function countsOf(data: Pick<ThreadExport, "calls" | "results" | "events" | "deliveries">): ExportCounts {
  return {
    calls: data.calls.length,
    results: data.results.length,
    events: data.events.length,
    deliveries: data.deliveries.length,
  };
}

/** The whole export of an in-memory thread, line by line. */
export function* exportLines(data: ThreadExport): Generator<string> {
  yield serializeRecord(headerRecord(data.groupId));
  yield serializeRecord(data.thread);
  for (const call of data.calls) yield serializeRecord(call);
  for (const result of data.results) yield serializeRecord(result);
  for (const event of data.events) yield serializeRecord(event);
  for (const delivery of data.deliveries) yield serializeRecord(delivery);
  yield serializeRecord({ kind: "end", counts: countsOf(data) });
}
