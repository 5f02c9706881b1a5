// The column sets several repositories read, named once: a call's identity, arguments and timings, a result's
// text, a delivery's audit fields. A repository spreads what it needs and adds its own columns, so a DTO that
// gains a column gains it everywhere the shape is read. (Only repositories import this: it names Prisma columns.)
import type { DeliverySelect, ToolCallSelect, ToolResultSelect } from "./generated/sqlite/models.ts";

/** Which call: row id, thread, key, the vendor's id, tool, vendor, step. */
export const CALL_IDENTITY = {
  id: true,
  groupId: true,
  callKey: true,
  callId: true,
  toolName: true,
  vendor: true,
  step: true,
} as const satisfies ToolCallSelect;

/** What the call was asked: arguments (stored text and its parse), declaration, output schema. */
export const CALL_ARGUMENTS = {
  argumentsText: true,
  argumentsEscaped: true,
  argumentsJson: true,
  argumentsError: true,
  declarationJson: true,
  outputSchemaJson: true,
} as const satisfies ToolCallSelect;

/** Where the call stands: status, subscription, result count and the clock fields. */
export const CALL_STATE = {
  status: true,
  subscription: true,
  requestedAt: true,
  completedAt: true,
  deadlineAt: true,
  timedOutAt: true,
  lastResultAt: true,
  resultCount: true,
} as const satisfies ToolCallSelect;

/** A result's stored text (escaped form flag, hash, size). */
export const RESULT_TEXT = {
  id: true,
  text: true,
  textEscaped: true,
  textSha256: true,
  textBytes: true,
} as const satisfies ToolResultSelect;

/** What analysis found in a result: display kind, error signals, envelope fields, _meta, MCP, schema, flags. */
export const RESULT_ANALYSIS = {
  displayKind: true,
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
} as const satisfies ToolResultSelect;

/** A delivery's audit fields without its body and without the call it was routed to. */
export const DELIVERY_AUDIT = {
  id: true,
  receivedAt: true,
  outcome: true,
  httpStatus: true,
  reason: true,
  resultId: true,
  contentType: true,
  bodyBytes: true,
  bodySha256: true,
  rawBodyTruncated: true,
  remoteAddress: true,
  webhookId: true,
  importedAt: true,
  importedBy: true,
} as const satisfies DeliverySelect;
