// Compact badges summarising a result (display choice, error, envelope confidence, next action, flags),
// shared by the timeline rows and the result detail headers.
import { confidenceBand } from "@/lib/results/envelope.ts";

export type ResultBadgeFacts = {
  displayKind: string;
  isError: boolean;
  errorSource: string | null;
  confidence: number | null;
  nextAction: string | null;
  late: boolean;
  isMcp: boolean;
  schemaStatus: string | null;
  invisibleCount: number;
  secretCount: number;
};

const BAND_LABEL = { high: "high", medium: "uncertain", low: "low" } as const;

export function ConfidenceChip({ confidence }: { confidence: number }) {
  const band = confidenceBand(confidence);
  return (
    <span className={`conf-chip conf-${band.band}`} title={`Confidence ${confidence} (${BAND_LABEL[band.band]}): ${band.suggestion}`}>
      <span className="conf-chip-bar" aria-hidden="true">
        <span style={{ width: `${Math.max(0, Math.min(1, confidence)) * 100}%` }} />
      </span>
      {confidence.toFixed(2)}
    </span>
  );
}

export function ResultBadges({ result, resultCount }: { result: ResultBadgeFacts; resultCount?: number }) {
  return (
    <span className="result-badges">
      {result.displayKind !== "raw" ? <span className="chip">{result.displayKind}</span> : null}
      {result.isMcp ? <span className="chip">MCP</span> : null}
      {result.isError ? (
        <span className="badge badge-bad" title={result.errorSource ? `error signalled by ${result.errorSource.replace("_", " ")}` : undefined}>
          error
        </span>
      ) : null}
      {result.confidence !== null ? <ConfidenceChip confidence={result.confidence} /> : null}
      {result.nextAction && result.nextAction !== "continue" ? <span className="chip chip-warn">{result.nextAction.replace("_", " ")}</span> : null}
      {result.schemaStatus === "invalid" || result.schemaStatus === "schema_error" ? <span className="chip chip-bad">schema {result.schemaStatus.replace("_", " ")}</span> : null}
      {result.late ? <span className="chip chip-warn">late</span> : null}
      {result.invisibleCount > 0 ? (
        <span className="chip chip-warn" title={`${result.invisibleCount} invisible or bidi control characters`}>
          hidden chars
        </span>
      ) : null}
      {result.secretCount > 0 ? (
        <span className="chip chip-warn" title={`${result.secretCount} credential-looking strings (masked)`}>
          secrets
        </span>
      ) : null}
      {resultCount !== undefined && resultCount > 1 ? <span className="chip">×{resultCount.toLocaleString("en-US")}</span> : null}
    </span>
  );
}
