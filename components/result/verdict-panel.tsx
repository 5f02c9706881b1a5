// The top of the call page: the call's status and the one verdict on its newest result (lib/results/verdict) —
// confidence, nextAction, error — with its advice said once, and "replay at this step". Above any raw JSON.
import Link from "next/link";
import { replayHref } from "@/components/replay/trace-hrefs.ts";
import { VerdictBadge } from "@/components/explorer/verdict-badge.tsx";
import { StatusBadge } from "@/components/ui/status-badge.tsx";
import type { ResultDetail } from "@/lib/calls/schemas.ts";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import { explorerHref } from "@/lib/explorer/schemas.ts";
import { ACTION_LABELS, deriveVerdict } from "@/lib/results/verdict.ts";
import { NEXT_ACTIONS } from "@/lib/results/envelope.ts";

const BAND_NAMES = { high: "high", medium: "uncertain", low: "low" } as const;

/** Why a confidence gets no band: the verdict's own reasons, so the header never rates what it does not trust. */
function untrustedReason(state: string, confidence: number): string {
  if (state === "invalid") return "not trusted: invalid envelope";
  if (state === "failed" || state === "error") return "not banded: the call failed";
  return confidence < 0 || confidence > 1 ? "not trusted: outside 0–1" : "not trusted";
}

export function VerdictPanel({
  status,
  toolName,
  latest,
  resultCount,
  replay,
}: {
  status: string;
  toolName: string;
  latest: ResultDetail | null;
  resultCount: number;
  replay: { groupId: string; step: number } | null;
}) {
  const envelope = latest?.envelope ?? null;
  const verdict = deriveVerdict({
    hasResult: latest !== null,
    envelopeKind: envelope?.kind ?? null,
    success: envelope?.success ?? null,
    confidence: envelope?.confidence ?? null,
    nextAction: envelope?.nextAction ?? null,
    isError: latest?.isError ?? false,
  });
  const stated = NEXT_ACTIONS.find((action) => action === envelope?.nextAction);
  return (
    <section className="card verdict-panel" aria-labelledby="verdict-title" data-testid="verdict-panel">
      <div className="verdict-row">
        <h2 id="verdict-title" className="sr-only">
          Verdict
        </h2>
        <StatusBadge status={status} />
        <VerdictBadge verdict={verdict} />
        {resultCount > 1 && latest ? (
          <span className="small muted">newest of {resultCount.toLocaleString("en-US")} results</span>
        ) : null}
        {replay ? (
          <Link
            className="button button-small"
            href={replayHref(replay.groupId, { step: replay.step })}
            data-testid="replay-at-step"
          >
            Replay at this step ({replay.step.toLocaleString("en-US")})
          </Link>
        ) : null}
        <Link className="button button-small" href={explorerHref({ tool: toolName })}>
          All calls of this tool
        </Link>
      </div>
      <p className="verdict-advice" data-testid="verdict-advice">
        {verdict.advice}
      </p>
      {envelope ? (
        <dl className="verdict-facts">
          <div>
            <dt>confidence</dt>
            <dd className="mono" data-testid="verdict-confidence">
              {envelope.confidence === null
                ? "—"
                : verdict.band === null
                  ? `${envelope.confidence} (${untrustedReason(verdict.state, envelope.confidence)})`
                  : `${envelope.confidence} (${BAND_NAMES[verdict.band]})`}
            </dd>
          </div>
          <div>
            <dt>nextAction</dt>
            <dd data-testid="verdict-next-action">
              {stated ? ACTION_LABELS[stated] : envelope.nextAction === null ? "—" : "not a known action"}
            </dd>
          </div>
          <div>
            <dt>envelope</dt>
            <dd>{envelope.kind}</dd>
          </div>
          {envelope.error ? (
            <div>
              <dt>error</dt>
              <dd>
                {envelope.error.type ? (
                  <span className="chip chip-bad">{presentUntrustedText(envelope.error.type)}</span>
                ) : null}{" "}
                {envelope.error.message ? presentUntrustedText(envelope.error.message).slice(0, 300) : null}
              </dd>
            </div>
          ) : null}
        </dl>
      ) : null}
      {verdict.conflicts.length > 0 ? (
        <ul className="verdict-conflicts small" data-testid="verdict-conflicts">
          {verdict.conflicts.map((conflict) => (
            <li key={conflict}>{conflict}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
