// Owns recognising the tool-result envelope (seeds/tool-result-envelope.zh.txt) in a result text and judging it.
//
// Hand-written rather than a zod schema on purpose: a zod parse is all-or-nothing, while the dashboard must keep
// every field it *could* read and tell "missing" (partial) apart from "present but wrong" (invalid), per field path.

import { describeValue, hasOwn, isJsonObject, parseJsonText, readOwn } from "./json-value";
import type { JsonObject } from "./json-value";

export const NEXT_ACTIONS = ["continue", "retry", "ask_user", "human_review", "stop"] as const;
export type NextAction = (typeof NEXT_ACTIONS)[number];

export const SOURCE_TYPES = ["document", "file", "api", "database", "user_input"] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

export const ENVELOPE_ERROR_TYPES = [
  "validation_error",
  "permission_denied",
  "timeout",
  "rate_limited",
  "not_found",
  "state_conflict",
  "unknown",
] as const;
export type EnvelopeErrorType = (typeof ENVELOPE_ERROR_TYPES)[number];

/**
 * Everything below is optional: an envelope keeps each field that had the declared JSON type. Fields a source
 * carries beyond the protocol's (the seed's own §3 example has `section`) are kept in `extra`.
 */
export type EnvelopeSource = {
  type?: SourceType;
  id?: string;
  label?: string;
  url?: string;
  extra?: Record<string, unknown>;
};

export type EnvelopeError = {
  /** One of ENVELOPE_ERROR_TYPES; a value outside the list (the seed's §6 "external_timeout") is kept and reported. */
  type?: EnvelopeErrorType | (string & {});
  message?: string;
  retryable?: boolean;
  userMessage?: string;
};

export type EnvelopeMeta = {
  toolName?: string;
  toolVersion?: string;
  traceId?: string;
  durationMs?: number;
  cached?: boolean;
};

export type Envelope = {
  success?: boolean;
  /** Present (possibly `null`) when the text had a `data` key; absent otherwise. */
  data?: unknown;
  /** Kept even when out of 0..1 so the page can show what the tool claimed next to the problem. */
  confidence?: number;
  /** A bare string is the seed's own first example ("knowledge_base"): kept, flagged as partial. */
  source?: EnvelopeSource[] | string;
  nextAction?: NextAction;
  error?: EnvelopeError | null;
  meta?: EnvelopeMeta;
};

export type EnvelopeAnalysis =
  { kind: "none" } | { kind: "valid" | "partial" | "invalid"; envelope: Envelope; problems: string[] };

const ENVELOPE_KEYS = ["success", "confidence", "nextAction", "error", "source", "meta", "data", "traceId"] as const;
// Keys that only an envelope would carry; `data`/`error`/`meta` alone are far too common in ordinary JSON.
const ANCHOR_KEYS = ["success", "nextAction", "confidence"] as const;

/** The longest error.type kept as a type (the protocol's are one word; tools invent others, never paragraphs). */
export const ERROR_TYPE_MAX = 128;

const NONE: EnvelopeAnalysis = { kind: "none" };

/** Parses `text` (JSON object only) and judges it as an envelope. Never throws. */
export function detectEnvelope(text: string): EnvelopeAnalysis {
  const parsed = parseJsonText(text, true);
  return parsed.ok ? analyzeEnvelopeValue(parsed.value) : NONE;
}

/**
 * Same as detectEnvelope for an already parsed value, so callers that parse once (analyzeResult) can share it.
 * Detection: a JSON object with at least two envelope keys, one of them success, nextAction or confidence.
 */
export function analyzeEnvelopeValue(value: unknown): EnvelopeAnalysis {
  if (!isJsonObject(value)) return NONE;
  let present = 0;
  for (const key of ENVELOPE_KEYS) if (hasOwn(value, key)) present += 1;
  if (present < 2 || !(ANCHOR_KEYS.some((key) => hasOwn(value, key)) || isTracedSource(value))) return NONE;

  const report = new ProblemReport();
  const envelope: Envelope = {};

  readSuccess(value, envelope, report);
  readData(value, envelope, report);
  readConfidence(value, envelope, report);
  readSource(value, envelope, report);
  readNextAction(value, envelope, report);
  readError(value, envelope, report);
  readMeta(value, envelope, report);
  readTopLevelTraceId(value, envelope, report);
  checkConsistency(envelope, report);

  return { kind: report.kind(), envelope, problems: report.problems };
}

// "partial" = something required is missing; "invalid" = something present has the wrong type or value.
// A text with both is "invalid": wrong values are the stronger signal that the producer is broken.
class ProblemReport {
  readonly problems: string[] = [];
  private missing = false;
  private wrong = false;

  addMissing(path: string, message = "missing"): void {
    this.missing = true;
    this.problems.push(`${path}: ${message}`);
  }

  addWrong(path: string, message: string): void {
    this.wrong = true;
    this.problems.push(`${path}: ${message}`);
  }

  kind(): "valid" | "partial" | "invalid" {
    if (this.wrong) return "invalid";
    return this.missing ? "partial" : "valid";
  }
}

/**
 * The seed's §3 fragment — `{"source": {type: "document", id, …}, "traceId": …}` — is an envelope's tracing part on
 * its own: a source typed with the protocol's vocabulary next to a traceId.
 */
function isTracedSource(object: JsonObject): boolean {
  if (!hasOwn(object, "traceId")) return false;
  const source = readOwn(object, "source");
  const first = Array.isArray(source) ? source[0] : source;
  return isJsonObject(first) && isOneOf(SOURCE_TYPES, readOwn(first, "type"));
}

// The seed's §3 shows traceId at the top level; the protocol keeps it in meta.traceId. Read it, and say where it belongs.
function readTopLevelTraceId(object: JsonObject, envelope: Envelope, report: ProblemReport): void {
  if (!hasOwn(object, "traceId")) return;
  const traceId = readOwn(object, "traceId");
  if (typeof traceId !== "string")
    return report.addWrong("traceId", `must be a string (got ${describeValue(traceId)})`);
  if (envelope.meta?.traceId === undefined) envelope.meta = { ...envelope.meta, traceId };
  report.addMissing("traceId", "belongs in meta.traceId (read from the top level)");
}

function isOneOf<T extends string>(options: readonly T[], value: unknown): value is T {
  return typeof value === "string" && options.some((option) => option === value);
}

function readSuccess(object: JsonObject, envelope: Envelope, report: ProblemReport): void {
  if (!hasOwn(object, "success")) return report.addMissing("success");
  const value = readOwn(object, "success");
  if (typeof value === "boolean") envelope.success = value;
  else report.addWrong("success", `must be a boolean (got ${describeValue(value)})`);
}

function readData(object: JsonObject, envelope: Envelope, report: ProblemReport): void {
  if (!hasOwn(object, "data")) return report.addMissing("data", "missing (use null when there is no data)");
  envelope.data = readOwn(object, "data");
}

function readConfidence(object: JsonObject, envelope: Envelope, report: ProblemReport): void {
  if (!hasOwn(object, "confidence")) return report.addMissing("confidence");
  const value = readOwn(object, "confidence");
  if (typeof value !== "number" || !Number.isFinite(value)) {
    return report.addWrong("confidence", `must be a number between 0 and 1 (got ${describeValue(value)})`);
  }
  envelope.confidence = value;
  if (value < 0 || value > 1) report.addWrong("confidence", `must be between 0 and 1 (got ${value})`);
}

function readSource(object: JsonObject, envelope: Envelope, report: ProblemReport): void {
  if (!hasOwn(object, "source")) return report.addMissing("source");
  const value = readOwn(object, "source");
  if (typeof value === "string") {
    envelope.source = value;
    return report.addMissing(
      "source",
      `a bare string (${describeValue(value)}) cannot be traced back; expected an array of {type, id}`,
    );
  }
  if (isJsonObject(value)) {
    // The seed's section 3 shows a single source object; read it as a one-element list but say so.
    envelope.source = [readSourceEntry(value, "source", report)];
    return report.addMissing("source", "expected an array of sources; a single source object was read as one");
  }
  if (!Array.isArray(value)) {
    return report.addWrong("source", `must be an array of {type, id} objects (got ${describeValue(value)})`);
  }
  const sources: EnvelopeSource[] = [];
  value.forEach((entry: unknown, index) => {
    const path = `source[${index}]`;
    if (isJsonObject(entry)) sources.push(readSourceEntry(entry, path, report));
    else report.addWrong(path, `must be an object {type, id} (got ${describeValue(entry)})`);
  });
  envelope.source = sources;
}

function readSourceEntry(entry: JsonObject, path: string, report: ProblemReport): EnvelopeSource {
  const source: EnvelopeSource = {};
  if (!hasOwn(entry, "type")) report.addMissing(`${path}.type`);
  else {
    const type = readOwn(entry, "type");
    if (isOneOf(SOURCE_TYPES, type)) source.type = type;
    else report.addWrong(`${path}.type`, `must be one of ${SOURCE_TYPES.join("|")} (got ${describeValue(type)})`);
  }
  const id = readRequiredString(entry, "id", path, report);
  if (id !== undefined) source.id = id;
  const label = readOptionalString(entry, "label", path, report);
  if (label !== undefined) source.label = label;
  const url = readOptionalString(entry, "url", path, report);
  if (url !== undefined) source.url = url;
  const extra = Object.fromEntries(
    Object.entries(entry).filter(([key]) => !["type", "id", "label", "url"].includes(key)),
  );
  if (Object.keys(extra).length > 0) source.extra = extra;
  return source;
}

function readNextAction(object: JsonObject, envelope: Envelope, report: ProblemReport): void {
  if (!hasOwn(object, "nextAction")) return report.addMissing("nextAction");
  const value = readOwn(object, "nextAction");
  // An unknown action is dropped from the envelope (nothing can act on it) but quoted in the problem.
  if (isOneOf(NEXT_ACTIONS, value)) envelope.nextAction = value;
  else report.addWrong("nextAction", `must be one of ${NEXT_ACTIONS.join("|")} (got ${describeValue(value)})`);
}

function readError(object: JsonObject, envelope: Envelope, report: ProblemReport): void {
  if (!hasOwn(object, "error")) return report.addMissing("error", "missing (use null when there is no error)");
  const value = readOwn(object, "error");
  if (value === null) {
    envelope.error = null;
    return;
  }
  if (typeof value === "string") {
    // `"error": "not found"` is the most common home-grown shape; its text is still the best message we have.
    envelope.error = { message: value };
    return report.addWrong(
      "error",
      `must be null or an object {type, message, retryable} (got ${describeValue(value)}; read as its message)`,
    );
  }
  if (!isJsonObject(value)) {
    return report.addWrong(
      "error",
      `must be null or an object {type, message, retryable} (got ${describeValue(value)})`,
    );
  }
  const error: EnvelopeError = {};
  if (!hasOwn(value, "type")) report.addMissing("error.type");
  else {
    const type = readOwn(value, "type");
    // The seed's own failure story uses "external_timeout", outside its enum: that is reported, not guessed at.
    if (isOneOf(ENVELOPE_ERROR_TYPES, type)) error.type = type;
    else if (typeof type === "string" && type.length > ERROR_TYPE_MAX) {
      // Not a type but a text (a stack trace, a whole message): the explorer and Insights group and index calls by
      // their error type, and PostgreSQL cannot index a few kilobytes. Left out, reported; the raw text keeps it.
      report.addWrong(
        "error.type",
        `must be one of ${ENVELOPE_ERROR_TYPES.join("|")} (got a ${type.length}-character string, longer than any type: left out)`,
      );
    } else {
      // Kept (a person should see what the tool said), still reported as outside the protocol's list.
      if (typeof type === "string") error.type = type;
      report.addWrong("error.type", `must be one of ${ENVELOPE_ERROR_TYPES.join("|")} (got ${describeValue(type)})`);
    }
  }
  const message = readRequiredString(value, "message", "error", report);
  if (message !== undefined) error.message = message;
  const retryable = readRequiredBoolean(value, "retryable", "error", report);
  if (retryable !== undefined) error.retryable = retryable;
  const userMessage = readOptionalString(value, "userMessage", "error", report);
  if (userMessage !== undefined) error.userMessage = userMessage;
  envelope.error = error;
}

function readMeta(object: JsonObject, envelope: Envelope, report: ProblemReport): void {
  if (!hasOwn(object, "meta")) return report.addMissing("meta");
  const value = readOwn(object, "meta");
  if (!isJsonObject(value)) return report.addWrong("meta", `must be an object (got ${describeValue(value)})`);
  const meta: EnvelopeMeta = {};
  const toolName = readRequiredString(value, "toolName", "meta", report);
  if (toolName !== undefined) meta.toolName = toolName;
  const toolVersion = readRequiredString(value, "toolVersion", "meta", report);
  if (toolVersion !== undefined) meta.toolVersion = toolVersion;
  const traceId = readRequiredString(value, "traceId", "meta", report);
  if (traceId !== undefined) meta.traceId = traceId;
  if (!hasOwn(value, "durationMs")) report.addMissing("meta.durationMs");
  else {
    const durationMs = readOwn(value, "durationMs");
    if (typeof durationMs === "number" && Number.isFinite(durationMs) && durationMs >= 0) meta.durationMs = durationMs;
    else report.addWrong("meta.durationMs", `must be a non-negative number (got ${describeValue(durationMs)})`);
  }
  const cached = readRequiredBoolean(value, "cached", "meta", report);
  if (cached !== undefined) meta.cached = cached;
  envelope.meta = meta;
}

// success says "the call ran" (seed §1); an error object contradicts success:true, and a failure without
// an error object leaves the agent guessing — the seed's own failure story (§6).
function checkConsistency(envelope: Envelope, report: ProblemReport): void {
  if (envelope.success === true && envelope.error !== undefined && envelope.error !== null) {
    report.addWrong("error", "must be null when success is true");
  }
  if (envelope.success === false && envelope.error === null) {
    report.addMissing("error", "should describe the failure when success is false");
  }
}

function readRequiredString(
  object: JsonObject,
  key: string,
  parent: string,
  report: ProblemReport,
): string | undefined {
  if (!hasOwn(object, key)) {
    report.addMissing(`${parent}.${key}`);
    return undefined;
  }
  return readOptionalString(object, key, parent, report);
}

function readOptionalString(
  object: JsonObject,
  key: string,
  parent: string,
  report: ProblemReport,
): string | undefined {
  if (!hasOwn(object, key)) return undefined;
  const value = readOwn(object, key);
  if (typeof value === "string") return value;
  report.addWrong(`${parent}.${key}`, `must be a string (got ${describeValue(value)})`);
  return undefined;
}

function readRequiredBoolean(
  object: JsonObject,
  key: string,
  parent: string,
  report: ProblemReport,
): boolean | undefined {
  if (!hasOwn(object, key)) {
    report.addMissing(`${parent}.${key}`);
    return undefined;
  }
  const value = readOwn(object, key);
  if (typeof value === "boolean") return value;
  report.addWrong(`${parent}.${key}`, `must be a boolean (got ${describeValue(value)})`);
  return undefined;
}

export type ConfidenceBand = { band: "high" | "medium" | "low"; suggestion: string };

/**
 * The seed's table (0.8–1.0 continue · 0.5–0.8 flag as uncertain · 0–0.5 ask for more / a human) shares its
 * endpoints; each band here includes its LOWER bound: c ≥ 0.8 → high, 0.5 ≤ c < 0.8 → medium, c < 0.5 → low.
 * So 0.8 is high and 0.5 is medium. NaN falls to low (fail safe); values above 1 are high — the envelope
 * analysis already reports them as invalid.
 */
export function confidenceBand(c: number): ConfidenceBand {
  if (c >= 0.8) return { band: "high", suggestion: "Reliable enough to continue generating or acting on it." };
  if (c >= 0.5) {
    return { band: "medium", suggestion: "Mark the answer as uncertain; look it up further if it matters." };
  }
  return { band: "low", suggestion: "Do not rely on it: ask the user for more information or hand over to a human." };
}

/** The envelope says the call failed: `success: false`, or any non-null `error` (even a malformed one). */
export function envelopeSignalsError(analysis: EnvelopeAnalysis): boolean {
  if (analysis.kind === "none") return false;
  const { success, error } = analysis.envelope;
  return success === false || (error !== undefined && error !== null);
}

/**
 * Why a top-level field of the envelope reads as absent although the tool sent one: the problem saying its value
 * was wrong (`"success: must be a boolean (got \"yes\")"` → `must be a boolean (got "yes")`); null when the field was
 * simply missing or had no problem. The page shows this instead of "missing" for a field that was present.
 */
export function wrongValueProblem(problems: readonly string[], field: string): string | null {
  const prefix = `${field}: `;
  for (const problem of problems) {
    if (!problem.startsWith(prefix)) continue;
    const message = problem.slice(prefix.length);
    if (message === "missing" || message.startsWith("missing ")) return null;
    return message;
  }
  return null;
}
