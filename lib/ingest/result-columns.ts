// Maps a result analysis (lib/results) to the queryable columns of ToolResult plus a compact summary.
// The summary leaves out what can be recomputed from the stored text (envelope data, MCP block bodies,
// diff patches), so a 5 MB result is not stored twice.
import type { ResultAnalysis } from "../results/analyze.ts";
import { storableText } from "../results/text-codec.ts";

export type ResultSummary = {
  envelope: { kind: string; problems: string[]; location: string | null; sourceCount: number } | null;
  mcp: {
    blockTypes: string[];
    isError: boolean;
    hasStructuredContent: boolean;
    problems: string[];
    warnings: string[];
  } | null;
  schema: ResultAnalysis["schemaValidation"];
  schemaTarget: ResultAnalysis["schemaTarget"];
  display: { kind: string; index: number | null; skipped: number };
  flags: { errorPrefix: boolean; invisibleCount: number; secretKinds: string[] };
  errorSources: string[];
};

export function summarizeAnalysis(analysis: ResultAnalysis): ResultSummary {
  const envelope = analysis.envelope;
  const mcp = analysis.mcp;
  const display = analysis.display;
  return {
    envelope:
      envelope.kind === "none"
        ? null
        : {
            kind: envelope.kind,
            problems: envelope.problems,
            location: analysis.envelopeLocation,
            sourceCount: Array.isArray(envelope.envelope.source) ? envelope.envelope.source.length : 0,
          },
    mcp:
      mcp.kind === "none"
        ? null
        : {
            blockTypes: mcp.content.map((block) => block.type),
            isError: mcp.isError,
            hasStructuredContent: mcp.structuredContent !== undefined,
            problems: mcp.problems,
            warnings: mcp.warnings,
          },
    schema: analysis.schemaValidation,
    schemaTarget: analysis.schemaTarget,
    display: { kind: display.kind, index: "index" in display ? display.index : null, skipped: display.skipped.length },
    flags: {
      errorPrefix: analysis.flags.errorPrefix,
      invisibleCount: analysis.flags.invisibleCount,
      secretKinds: [...new Set(analysis.flags.secrets.map((s) => s.kind))],
    },
    errorSources: analysis.errorSources,
  };
}

/**
 * An envelope string copied into a column of its own: PostgreSQL refuses NUL in text (every write of the result
 * failed there, a 503 the sender retried for ever, while SQLite stored it), so NUL is written out as `\u0000` and
 * lone surrogates become U+FFFD, alike on both databases. The result's text keeps the exact value.
 */
const column = (value: string | undefined): string | null => (value === undefined ? null : storableText(value));

export function analysisColumns(analysis: ResultAnalysis) {
  const envelope = analysis.envelope.kind === "none" ? null : analysis.envelope.envelope;
  const error = envelope?.error ?? null;
  return {
    displayKind: analysis.display.kind,
    isError: analysis.isError,
    errorSource: analysis.errorSource,
    envelopeKind: analysis.envelope.kind === "none" ? null : analysis.envelope.kind,
    success: envelope?.success ?? null,
    confidence:
      typeof envelope?.confidence === "number" && Number.isFinite(envelope.confidence) ? envelope.confidence : null,
    nextAction: envelope?.nextAction ?? null,
    errorType: column(error?.type),
    errorMessage: column(error?.message),
    errorRetryable: error?.retryable ?? null,
    errorUserMessage: column(error?.userMessage),
    metaToolName: column(envelope?.meta?.toolName),
    metaToolVersion: column(envelope?.meta?.toolVersion),
    metaTraceId: column(envelope?.meta?.traceId),
    metaDurationMs:
      typeof envelope?.meta?.durationMs === "number" && Number.isFinite(envelope.meta.durationMs)
        ? envelope.meta.durationMs
        : null,
    metaCached: envelope?.meta?.cached ?? null,
    isMcp: analysis.mcp.kind === "mcp",
    schemaStatus: analysis.schemaValidation.status,
    invisibleCount: analysis.flags.invisibleCount,
    secretCount: analysis.flags.secretCount,
    analysisJson: JSON.stringify(summarizeAnalysis(analysis)),
  };
}
