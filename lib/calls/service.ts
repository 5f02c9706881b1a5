// The call/result detail: one call with its newest results re-analysed (display choice, envelope, MCP,
// output-schema validation, flags), the deliveries that reached it, and single bodies on demand.
// Large values are cut here (texts at TEXT_HEAD_LIMIT, JSON trees at JSON_VALUE_LIMIT) so a 5 MB
// result never travels to the browser unasked.
import "server-only";
import { maskDto, SecretMasker } from "../audit/mask.ts";
import { getDatabase, type Database } from "../db/client.ts";
import { hasInexactNumbers, prettyJsonLossless } from "../formats/lossless-json.ts";
import { AppError } from "../http/app-error.ts";
import { analyzeResult } from "../results/analyze.ts";
import { decodeStoredText } from "../results/text-codec.ts";
import {
  countDeliveries,
  countResults,
  findCall,
  findCallEvents,
  findDeliveries,
  findDeliveryBody,
  findNewestResults,
  findResultEvents,
  findResultText,
  type CallRow,
  type ResultRow,
} from "./repository.ts";
import {
  TEXT_HEAD_LIMIT,
  type CallDetail,
  type CallInfo,
  type EnvelopeView,
  type JsonPreview,
  type MaskedResultText,
  type McpView,
  type ResultDetail,
  type TextHead,
} from "./schemas.ts";
import { resultContentOf } from "./result-content.ts";
import { textBytes } from "./text-bytes.ts";
import { safeCutIndex } from "./untrusted-text.ts";

/** Results shown on the page; a long subscription shows its newest ones. */
export const MAX_RESULTS_SHOWN = 25;
export const MAX_DELIVERIES_SHOWN = 200;
/** A JSON value whose compact text is longer than this is shown as cut pretty text instead of a tree. */
export const JSON_VALUE_LIMIT = 100_000;

export function textHead(text: string, limit = TEXT_HEAD_LIMIT): TextHead {
  const cut = safeCutIndex(text, limit);
  return { head: cut === text.length ? text : text.slice(0, cut), complete: cut === text.length, length: text.length };
}

export function jsonPreview(value: unknown, limit = JSON_VALUE_LIMIT): JsonPreview {
  let compact: string | undefined;
  try {
    compact = JSON.stringify(value);
  } catch {
    compact = undefined;
  }
  if (compact === undefined) return { kind: "text", text: String(value), truncated: false };
  if (compact.length <= limit) return { kind: "value", value };
  const pretty = JSON.stringify(value, null, 2);
  return { kind: "text", text: pretty.slice(0, safeCutIndex(pretty, limit)), truncated: true };
}

function parseJson(text: string | null): { ok: true; value: unknown } | { ok: false } {
  if (text === null) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function readString(value: unknown, key: string): string | null {
  if (typeof value !== "object" || value === null || !Object.hasOwn(value, key)) return null;
  const field: unknown = Reflect.get(value, key);
  return typeof field === "string" ? field : null;
}

function readOwnValue(value: unknown, key: string): { present: true; value: unknown } | { present: false } {
  if (typeof value !== "object" || value === null || Array.isArray(value) || !Object.hasOwn(value, key))
    return { present: false };
  return { present: true, value: Reflect.get(value, key) };
}

function errorLayer(dataJson: string | null): string | null {
  const parsed = parseJson(dataJson);
  return parsed.ok ? readString(parsed.value, "layer") : null;
}

function readAnnotations(value: unknown): Record<string, unknown> | null {
  const annotations = readOwnValue(value, "annotations");
  if (
    !annotations.present ||
    typeof annotations.value !== "object" ||
    annotations.value === null ||
    Array.isArray(annotations.value)
  )
    return null;
  return Object.fromEntries(Object.entries(annotations.value));
}

// Arguments whose numbers a double cannot hold are shown as text with their digits, never as a rounded tree.
function formattedArguments(argumentsText: string | null, parsed: ReturnType<typeof parseJson>): JsonPreview | null {
  if (argumentsText !== null && hasInexactNumbers(argumentsText)) {
    const pretty = prettyJsonLossless(argumentsText);
    if (pretty !== null)
      return {
        kind: "text",
        text: pretty.slice(0, safeCutIndex(pretty, JSON_VALUE_LIMIT)),
        truncated: pretty.length > JSON_VALUE_LIMIT,
      };
  }
  return parsed.ok ? jsonPreview(parsed.value) : null;
}

function toCallInfo(row: CallRow): CallInfo {
  const argumentsText = row.argumentsText === null ? null : decodeStoredText(row.argumentsText, row.argumentsEscaped);
  const parsedArguments = parseJson(row.argumentsJson);
  const declaration = parseJson(row.declarationJson);
  const outputSchema = parseJson(row.outputSchemaJson);
  const inputSchema = declaration.ok ? readOwnValue(declaration.value, "inputSchema") : { present: false as const };
  return {
    id: row.id,
    groupId: row.groupId,
    callKey: row.callKey,
    callId: row.callId,
    toolName: row.toolName,
    vendor: row.vendor,
    step: row.step,
    status: row.status,
    subscription: row.subscription,
    requestedAt: row.requestedAt,
    completedAt: row.completedAt,
    deadlineAt: row.deadlineAt,
    timedOutAt: row.timedOutAt,
    lastResultAt: row.lastResultAt,
    resultCount: row.resultCount,
    arguments: {
      raw: argumentsText === null ? null : textHead(argumentsText),
      formatted: formattedArguments(argumentsText, parsedArguments),
      parseError: row.argumentsError,
    },
    declaration: declaration.ok
      ? {
          description: readString(declaration.value, "description"),
          title: readString(declaration.value, "title"),
          annotations: readAnnotations(declaration.value),
          inputSchema: inputSchema.present ? jsonPreview(inputSchema.value) : null,
          value: jsonPreview(declaration.value),
        }
      : null,
    outputSchema: outputSchema.ok ? jsonPreview(outputSchema.value) : null,
  };
}

/**
 * What says the result is an error: the signals its text carries (envelope, MCP isError, the "Error: " prefix) and
 * the one recorded with it when it arrived, which the text alone cannot show (`span_status`, `vendor_flag`,
 * `error_key`): an errored OTel span or an imported is_error result is an error on the page too.
 */
function recordedErrorSources(fromText: readonly string[], row: Pick<ResultRow, "isError" | "errorSource">): string[] {
  if (!row.isError || row.errorSource === null || fromText.includes(row.errorSource)) return [...fromText];
  return [...fromText, row.errorSource];
}

function toResultDetail(row: ResultRow, outputSchema: unknown, content: ResultDetail["content"] = null): ResultDetail {
  const text = decodeStoredText(row.text, row.textEscaped);
  const displayAs = parseJson(row.displayAsJson);
  const analysis = analyzeResult({ text, displayAs: displayAs.ok ? displayAs.value : undefined, outputSchema });

  let envelope: EnvelopeView | null = null;
  if (analysis.envelope.kind !== "none") {
    const found = analysis.envelope.envelope;
    envelope = {
      kind: analysis.envelope.kind,
      problems: analysis.envelope.problems,
      location: analysis.envelopeLocation,
      success: found.success ?? null,
      confidence: found.confidence ?? null,
      nextAction: found.nextAction ?? null,
      error: found.error ?? null,
      source: found.source ?? null,
      meta: found.meta ?? null,
      data: Object.hasOwn(found, "data") ? jsonPreview(found.data) : null,
    };
  }

  let mcp: McpView | null = null;
  if (analysis.mcp.kind === "mcp") {
    mcp = {
      content: analysis.mcp.content,
      isError: analysis.mcp.isError,
      problems: analysis.mcp.problems,
      warnings: analysis.mcp.warnings,
      structuredContent:
        analysis.mcp.structuredContent === undefined ? null : jsonPreview(analysis.mcp.structuredContent),
    };
  }

  const flags = analysis.flags;
  return {
    id: row.id,
    ordinal: row.ordinal,
    receivedAt: row.receivedAt,
    late: row.late,
    textSha256: row.textSha256,
    textBytes: row.textBytes,
    isError: analysis.isError || row.isError,
    errorSources: recordedErrorSources(analysis.errorSources, row),
    text: textHead(text),
    display: analysis.display,
    envelope,
    mcp,
    schema: analysis.schemaValidation,
    schemaTarget: analysis.schemaTarget,
    flags: {
      errorPrefix: flags.errorPrefix,
      invisibleCount: flags.invisibleCount,
      invisibleCodePoints: [...new Set(flags.invisible.map((found) => found.codePoint))].slice(0, 12),
      secretCount: flags.secretCount,
      secretKinds: [...new Set(flags.secrets.map((secret) => secret.kind))],
    },
    content: mcp === null ? content : null,
  };
}

async function requireCall(db: Database, callRowId: number): Promise<CallRow> {
  const call = await findCall(db.client, callRowId);
  if (!call) throw new AppError("not_found", `No tool call with id ${callRowId}`);
  return call;
}

/** GET /api/calls/{id}?view=call and the timeline's expanded row: the call alone, secrets masked. */
export async function getCallInfo(options: { callRowId: number; database?: Database }): Promise<CallInfo> {
  const db = options.database ?? (await getDatabase());
  return maskDto(toCallInfo(await requireCall(db, options.callRowId))).value;
}

/** GET /api/calls/{id} and the /calls/{id} page: the call, its newest results analysed, its deliveries; secrets masked. */
export async function getCallDetail(options: { callRowId: number; database?: Database }): Promise<CallDetail> {
  const db = options.database ?? (await getDatabase());
  const call = await requireCall(db, options.callRowId);
  const [results, resultTotal, deliveries, deliveryTotal, events] = await Promise.all([
    findNewestResults(db.client, call.id, MAX_RESULTS_SHOWN),
    countResults(db.client, call.id),
    findDeliveries(db.client, call.id, MAX_DELIVERIES_SHOWN),
    countDeliveries(db.client, call.id),
    findCallEvents(db.client, call.id),
  ]);
  const schema = parseJson(call.outputSchemaJson);
  const contents = resultContentOf(
    await findResultEvents(
      db.client,
      results.map((row) => row.id),
    ),
    call.vendor,
  );
  // Analysed on the exact text (flags count what is there), then every string masked before it leaves.
  const { value, secrets } = maskDto({
    call: toCallInfo(call),
    results: results.map((row) =>
      toResultDetail(row, schema.ok ? schema.value : undefined, contents.get(row.id) ?? null),
    ),
    resultsOmitted: Math.max(0, resultTotal - results.length),
    deliveries,
    deliveriesOmitted: Math.max(0, deliveryTotal - deliveries.length),
    events: events.map((event) => ({
      id: event.id,
      kind: event.kind,
      occurredAt: event.occurredAt,
      text: event.text === null ? null : decodeStoredText(event.text, event.textEscaped),
      layer: event.kind === "error" ? errorLayer(event.dataJson) : null,
      source: event.source,
    })),
  });
  return { ...value, secrets };
}

/** GET /api/results/{id}/text: the exact bytes the stored sha256 covers. */
export async function getResultText(options: {
  resultId: number;
  database?: Database;
}): Promise<{ id: number; bytes: Uint8Array; sha256: string }> {
  const db = options.database ?? (await getDatabase());
  const row = await findResultText(db.client, options.resultId);
  if (!row) throw new AppError("not_found", `No result with id ${options.resultId}`);
  return { id: row.id, bytes: textBytes(decodeStoredText(row.text, row.textEscaped)), sha256: row.textSha256 };
}

/**
 * GET /api/results/{id}/masked-text: a result's whole text as pages show it (secrets masked, with the list for
 * reveals) — for "show all" and the timeline; the exact bytes stay on /api/results/{id}/text.
 */
export async function getMaskedResultText(options: {
  resultId: number;
  database?: Database;
}): Promise<MaskedResultText> {
  const db = options.database ?? (await getDatabase());
  const row = await findResultText(db.client, options.resultId);
  if (!row) throw new AppError("not_found", `No result with id ${options.resultId}`);
  const masker = new SecretMasker();
  const text = masker.text(decodeStoredText(row.text, row.textEscaped));
  return { id: row.id, text, secrets: masker.secrets };
}

/** GET /api/calls/{id}/deliveries/{deliveryId}/body: a delivery's raw bytes exactly as received. */
export async function getDeliveryBody(options: {
  callRowId: number;
  deliveryId: number;
  database?: Database;
}): Promise<{ bytes: Uint8Array; truncated: boolean; bodyBytes: number }> {
  const db = options.database ?? (await getDatabase());
  const row = await findDeliveryBody(db.client, options.callRowId, options.deliveryId);
  if (!row) throw new AppError("not_found", `No delivery ${options.deliveryId} for call ${options.callRowId}`);
  return { bytes: row.rawBody ?? new Uint8Array(0), truncated: row.rawBodyTruncated, bodyBytes: row.bodyBytes };
}
