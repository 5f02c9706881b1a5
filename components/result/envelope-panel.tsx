// The result envelope (seed: tool-result-envelope): success, confidence as a bar in the seed's bands with
// the suggested action, nextAction, error, sources (only http(s) URLs are links), meta, data — and, for a
// partial or invalid envelope, exactly what is wrong.
import type { EnvelopeView } from "@/lib/calls/schemas.ts";
import { safeHttpUrl } from "@/lib/calls/safe-links.ts";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import { trustedBand, type Verdict } from "@/lib/results/verdict.ts";
import { wrongValueProblem, type EnvelopeSource } from "@/lib/results/envelope.ts";
import { ExternalLink } from "@/components/ui/external-link.tsx";
import { DurationText } from "./duration-text.tsx";
import { JsonView } from "./json-tree.tsx";

const BAND_NAMES = { high: "high", medium: "medium — uncertain", low: "low" } as const;

/**
 * The confidence as a bar with the seed's band edges. The band comes from the one verdict (lib/results/verdict):
 * an invalid envelope's value is shown as claimed, but gets no band. What to do about it is said once, in the
 * verdict at the top of the call page, not here.
 */
export function ConfidenceMeter({ confidence, band }: { confidence: number; band: Verdict["band"] }) {
  const width = `${Math.max(0, Math.min(1, confidence)) * 100}%`;
  const name = band === null ? "not trusted" : BAND_NAMES[band];
  return (
    <div className="confidence-meter" data-band={band ?? "untrusted"}>
      <div className="confidence-row">
        <div
          className={`meter meter-${band ?? "untrusted"}`}
          role="meter"
          aria-label="Confidence"
          aria-valuemin={0}
          aria-valuemax={1}
          aria-valuenow={Math.max(0, Math.min(1, confidence))}
          aria-valuetext={`${confidence} (${name})`}
        >
          <span style={{ width }} />
          <i className="meter-tick" style={{ left: "50%" }} aria-hidden="true" />
          <i className="meter-tick" style={{ left: "80%" }} aria-hidden="true" />
        </div>
        <strong className="mono" data-testid="confidence-value">
          {confidence.toFixed(2)}
        </strong>
        <span
          className={`badge badge-${band === "high" ? "ok" : band === "medium" ? "warn" : band === "low" ? "bad" : "neutral"}`}
          data-testid="confidence-band"
        >
          {name}
        </span>
      </div>
    </div>
  );
}

function Source({ source, revealSecrets }: { source: EnvelopeSource; revealSecrets: boolean }) {
  const url = source.url === undefined ? null : safeHttpUrl(source.url);
  const name = source.label ?? source.id ?? source.url ?? "(unnamed source)";
  return (
    <li className="source">
      {source.type ? <span className="chip">{source.type}</span> : null}{" "}
      <ExternalLink url={source.url ?? ""}>{presentUntrustedText(name, { revealSecrets })}</ExternalLink>
      {source.id && source.label ? (
        <span className="mono small muted"> {presentUntrustedText(source.id, { revealSecrets })}</span>
      ) : null}
      {source.url !== undefined && url === null ? (
        <span className="small muted">
          {" "}
          <span className="mono">{presentUntrustedText(source.url, { revealSecrets })}</span> (not an http(s) link,
          shown as text)
        </span>
      ) : null}
      {url ? <span className="mono small muted source-url"> {url}</span> : null}
    </li>
  );
}

/** A field that reads as absent: "missing" when the tool left it out, "invalid" (and why) when it sent a wrong value. */
function Absent({ problems, field, missing }: { problems: readonly string[]; field: string; missing: string }) {
  const wrong = wrongValueProblem(problems, field);
  if (wrong === null) return <span className="muted">{missing}</span>;
  return (
    <span data-testid={`envelope-${field}-invalid`}>
      <span className="badge badge-bad">invalid</span> <span className="small mono">{wrong}</span>
    </span>
  );
}

function yesNo(value: boolean | undefined): string {
  return value === undefined ? "—" : value ? "yes" : "no";
}

// eslint-disable-next-line max-lines-per-function -- one definition list of the envelope's fields in the seed's order; the verdict rework (explorer) will split it
export function EnvelopePanel({ envelope, revealSecrets }: { envelope: EnvelopeView; revealSecrets: boolean }) {
  const { error, meta, source } = envelope;
  return (
    <section className="result-panel" aria-label="Result envelope" data-testid="envelope-panel">
      <h3 className="result-panel-title">
        Envelope{" "}
        <span
          className={`badge badge-${envelope.kind === "valid" ? "ok" : envelope.kind === "partial" ? "warn" : "bad"}`}
          data-testid="envelope-kind"
        >
          {envelope.kind}
        </span>
        {envelope.location === "structuredContent" ? <span className="chip">in MCP structuredContent</span> : null}
      </h3>
      {envelope.problems.length > 0 ? (
        <div
          className={`notice ${envelope.kind === "invalid" ? "notice-bad" : "notice-warn"}`}
          role="note"
          data-testid="envelope-problems"
        >
          <strong>{envelope.kind === "invalid" ? "This envelope is invalid:" : "This envelope is incomplete:"}</strong>
          <ul className="problems">
            {envelope.problems.map((problem) => (
              <li key={problem} className="mono">
                {presentUntrustedText(problem, { revealSecrets })}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <dl className="kv">
        <dt>success</dt>
        <dd>
          {envelope.success === null ? (
            <Absent problems={envelope.problems} field="success" missing="missing" />
          ) : envelope.success ? (
            <span className="badge badge-ok">true</span>
          ) : (
            <span className="badge badge-bad">false</span>
          )}{" "}
          <span className="small muted">means the call ran, not that the answer is right</span>
        </dd>
        <dt>confidence</dt>
        <dd>
          {envelope.confidence === null ? (
            <Absent problems={envelope.problems} field="confidence" missing="missing" />
          ) : (
            <ConfidenceMeter
              confidence={envelope.confidence}
              band={
                envelope.success === false
                  ? null
                  : trustedBand({ envelopeKind: envelope.kind, confidence: envelope.confidence })
              }
            />
          )}
        </dd>
        <dt>nextAction</dt>
        <dd>
          {envelope.nextAction ? (
            <span className={`chip ${envelope.nextAction === "continue" ? "" : "chip-warn"}`}>
              {envelope.nextAction}
            </span>
          ) : (
            <Absent problems={envelope.problems} field="nextAction" missing="—" />
          )}
        </dd>
        {error ? (
          <>
            <dt>error</dt>
            <dd>
              <dl className="kv kv-nested">
                <dt>type</dt>
                <dd>{error.type ? <span className="chip chip-bad">{error.type}</span> : "—"}</dd>
                <dt>message</dt>
                <dd>{error.message ? presentUntrustedText(error.message, { revealSecrets }) : "—"}</dd>
                <dt>retryable</dt>
                <dd>{yesNo(error.retryable)}</dd>
                <dt>userMessage</dt>
                <dd>{error.userMessage ? presentUntrustedText(error.userMessage, { revealSecrets }) : "—"}</dd>
              </dl>
            </dd>
          </>
        ) : null}
        <dt>sources</dt>
        <dd>
          {source === null ? (
            <span className="muted">—</span>
          ) : typeof source === "string" ? (
            <span>{presentUntrustedText(source, { revealSecrets })}</span>
          ) : source.length === 0 ? (
            <span className="muted">none</span>
          ) : (
            <ul className="sources" data-testid="envelope-sources">
              {source.map((item, index) => (
                <Source key={index} source={item} revealSecrets={revealSecrets} />
              ))}
            </ul>
          )}
        </dd>
        {meta ? (
          <>
            <dt>meta</dt>
            <dd>
              <dl className="kv kv-nested">
                <dt>tool</dt>
                <dd className="mono">
                  {meta.toolName ? presentUntrustedText(meta.toolName, { revealSecrets }) : "—"}
                  {meta.toolVersion ? ` ${presentUntrustedText(meta.toolVersion, { revealSecrets })}` : ""}
                </dd>
                <dt>traceId</dt>
                <dd className="mono">{meta.traceId ? presentUntrustedText(meta.traceId, { revealSecrets }) : "—"}</dd>
                <dt>durationMs</dt>
                <dd data-testid="envelope-duration">
                  {meta.durationMs === undefined ? (
                    "—"
                  ) : (
                    <>
                      <DurationText ms={meta.durationMs} /> <span className="muted small">tool-reported</span>
                    </>
                  )}
                </dd>
                <dt>cached</dt>
                <dd>{yesNo(meta.cached)}</dd>
              </dl>
            </dd>
          </>
        ) : null}
      </dl>
      {envelope.data ? (
        <div className="result-panel-section">
          <h4>data</h4>
          <JsonView preview={envelope.data} label="Envelope data" revealSecrets={revealSecrets} />
        </div>
      ) : null}
    </section>
  );
}
