// Compact badges summarising a result (display choice, error, envelope confidence, next action, flags),
// shared by the timeline rows and the result detail headers. Confidence and action come from the one verdict
// (lib/results/verdict): an invalid envelope's or a failed call's confidence gets no band colour.
import { BAND_ADVICE, deriveVerdict, type Verdict } from "@/lib/results/verdict.ts";

export type ResultBadgeFacts = {
  displayKind: string;
  isError: boolean;
  errorSource: string | null;
  envelopeKind: string | null;
  success: boolean | null;
  confidence: number | null;
  nextAction: string | null;
  late: boolean;
  isMcp: boolean;
  schemaStatus: string | null;
  invisibleCount: number;
  secretCount: number;
};

const BAND_LABEL = { high: "high", medium: "uncertain", low: "low" } as const;

/** A confidence as a short bar: coloured by its band when the verdict trusts it, grey and struck through when not. */
export function ConfidenceChip({ confidence, band }: { confidence: number; band: Verdict["band"] }) {
  const title =
    band === null
      ? `Confidence ${confidence}: not trusted (invalid envelope, failed call or outside 0–1)`
      : `Confidence ${confidence} (${BAND_LABEL[band]}): ${BAND_ADVICE[band]}`;
  return (
    <span className={`conf-chip conf-${band ?? "untrusted"}`} title={title} data-band={band ?? "untrusted"}>
      <span className="conf-chip-bar" aria-hidden="true">
        <span style={{ width: `${Math.max(0, Math.min(1, confidence)) * 100}%` }} />
      </span>
      {band === null ? <s>{confidence.toFixed(2)}</s> : confidence.toFixed(2)}
      <span className="sr-only">{band === null ? " (not trusted)" : ` (${BAND_LABEL[band]})`}</span>
    </span>
  );
}

export function ResultBadges({ result, resultCount }: { result: ResultBadgeFacts; resultCount?: number }) {
  const verdict = deriveVerdict({ hasResult: true, ...result });
  return (
    <span className="result-badges">
      {result.displayKind !== "raw" ? <span className="chip">{result.displayKind}</span> : null}
      {result.isMcp ? <span className="chip">MCP</span> : null}
      {result.isError ? (
        <span
          className="badge badge-bad"
          title={result.errorSource ? `error signalled by ${result.errorSource.replace("_", " ")}` : undefined}
        >
          error
        </span>
      ) : null}
      {result.envelopeKind === "invalid" ? <span className="chip chip-bad">invalid envelope</span> : null}
      {result.confidence !== null ? <ConfidenceChip confidence={result.confidence} band={verdict.band} /> : null}
      {result.nextAction && result.nextAction !== "continue" ? (
        <span className="chip chip-warn">{result.nextAction.replace("_", " ")}</span>
      ) : null}
      {result.schemaStatus === "invalid" || result.schemaStatus === "schema_error" ? (
        <span className="chip chip-bad">schema {result.schemaStatus.replace("_", " ")}</span>
      ) : null}
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
      {resultCount !== undefined && resultCount > 1 ? (
        <span className="chip">×{resultCount.toLocaleString("en-US")}</span>
      ) : null}
    </span>
  );
}
