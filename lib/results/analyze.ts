// Owns the one-call "understand a result" analysis shared by ingestion and pages (client-safe: no node-only imports).

import { chooseDisplay } from "./display";
import type { DisplayChoice } from "./display";
import { analyzeEnvelopeValue, envelopeSignalsError } from "./envelope";
import type { EnvelopeAnalysis } from "./envelope";
import { scanFlags } from "./flags";
import type { ResultFlags } from "./flags";
import { parseJsonText } from "./json-value";
import { analyzeMcpValue } from "./mcp";
import type { McpAnalysis } from "./mcp";
import { validateStructuredContent } from "./output-schema";
import type { SchemaValidation } from "./output-schema";

export type ResultInput = {
  /** The result text exactly as received. */
  text: string;
  /** The callback's `display_as`, as received (anything: it is judged, not trusted). */
  displayAs?: unknown;
  /** The tool declaration's outputSchema, when the runtime registered one. */
  outputSchema?: unknown;
};

/** Which signal made the result an error; listed strongest (most structured) first. */
export type ErrorSource = "mcp" | "envelope" | "error_prefix";

/**
 * What the schema was checked against: MCP `structuredContent` when the text is a CallToolResult; otherwise
 * the text parsed as JSON (the callback seed: runtimes MAY parse text as JSON when the schema says structured);
 * "none" when there was nothing to check (no schema, or a non-JSON text — which then fails a declared schema).
 */
export type SchemaTarget = "structuredContent" | "text_json" | "none";

export type ResultAnalysis = {
  envelope: EnvelopeAnalysis;
  /** Where the envelope was found: the text itself, or an MCP result's structuredContent. */
  envelopeLocation: "text" | "structuredContent" | null;
  mcp: McpAnalysis;
  schemaValidation: SchemaValidation;
  schemaTarget: SchemaTarget;
  flags: ResultFlags;
  display: DisplayChoice;
  isError: boolean;
  /** errorSources[0], or null when the result is not an error. */
  errorSource: ErrorSource | null;
  errorSources: ErrorSource[];
};

/**
 * Pure and deterministic in its input; the result is plain JSON (no classes, no functions, no Dates).
 * The text is parsed at most once and the parsed value shared by every analysis.
 * Values are copied out of the text (envelope.data, structuredContent, content blocks): the analysis of a
 * 5 MB structured result is itself megabytes, which whoever stores it should know.
 */
export function analyzeResult({ text, displayAs, outputSchema }: ResultInput): ResultAnalysis {
  const hasSchema = outputSchema !== undefined && outputSchema !== null;
  // Envelope and MCP need a JSON object; only a declared schema makes any other JSON value interesting.
  const parsed = parseJsonText(text, !hasSchema);
  const value = parsed.ok ? parsed.value : undefined;

  const mcp = analyzeMcpValue(value);
  let envelope = analyzeEnvelopeValue(value);
  let envelopeLocation: ResultAnalysis["envelopeLocation"] = envelope.kind === "none" ? null : "text";
  if (envelope.kind === "none" && mcp.kind === "mcp" && mcp.structuredContent !== undefined) {
    // An MCP tool that adopts the envelope puts it where structured data belongs.
    envelope = analyzeEnvelopeValue(mcp.structuredContent);
    if (envelope.kind !== "none") envelopeLocation = "structuredContent";
  }

  const flags = scanFlags(text);
  const errorSources: ErrorSource[] = [];
  if (mcp.kind === "mcp" && mcp.isError) errorSources.push("mcp");
  if (envelopeSignalsError(envelope)) errorSources.push("envelope");
  if (flags.errorPrefix) errorSources.push("error_prefix");
  const isError = errorSources.length > 0;

  let schemaTarget: SchemaTarget = "none";
  let structured: unknown = undefined;
  if (hasSchema && mcp.kind === "mcp") {
    schemaTarget = "structuredContent";
    structured = mcp.structuredContent;
  } else if (hasSchema && parsed.ok) {
    schemaTarget = "text_json";
    structured = value;
  }

  return {
    envelope,
    envelopeLocation,
    mcp,
    schemaValidation: validateStructuredContent(outputSchema, structured, isError),
    schemaTarget,
    flags,
    display: chooseDisplay(displayAs),
    isError,
    errorSource: errorSources[0] ?? null,
    errorSources,
  };
}
