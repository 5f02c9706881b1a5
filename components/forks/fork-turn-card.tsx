// One model turn of a fork: what streamed in (or arrived), the calls it asked for, its usage, or the provider's
// error exactly as sent. Model text is untrusted: secrets masked, invisible characters shown.
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import { revealInvisible } from "@/lib/results/flags.ts";
import type { TurnView, UsageView } from "@/lib/forks/schemas.ts";
import { TimeAgo } from "@/components/ui/time-ago.tsx";

const TURN_BADGE: Record<TurnView["status"], string> = {
  streaming: "badge-pending",
  completed: "badge-ok",
  failed: "badge-bad",
  cancelled: "badge-warn",
};

export function UsageFigures({ usage, label }: { usage: UsageView; label: string }) {
  const figure = (value: number | null) => (value === null ? "—" : value.toLocaleString("en-US"));
  return (
    <div className="fork-usage-row">
      <span className="fork-usage-label" aria-hidden="true">
        Tokens
      </span>
      <dl className="fork-usage" aria-label={label}>
        <div>
          <dt>input</dt>
          <dd>{figure(usage.inputTokens)}</dd>
        </div>
        <div>
          <dt>output</dt>
          <dd>{figure(usage.outputTokens)}</dd>
        </div>
        <div>
          <dt>total</dt>
          <dd>{figure(usage.totalTokens)}</dd>
        </div>
        {usage.cachedInputTokens ? (
          <div>
            <dt>cached input</dt>
            <dd>{figure(usage.cachedInputTokens)}</dd>
          </div>
        ) : null}
        {usage.reasoningTokens ? (
          <div>
            <dt>reasoning</dt>
            <dd>{figure(usage.reasoningTokens)}</dd>
          </div>
        ) : null}
      </dl>
    </div>
  );
}

export function TurnCard({ turn }: { turn: TurnView }) {
  const { live } = turn;
  return (
    <article className="card fork-turn" data-testid="fork-turn" aria-label={`Model turn ${turn.ordinal}`}>
      <div className="fork-turn-head">
        <h3>Turn {turn.ordinal}</h3>
        <span className={`badge ${TURN_BADGE[turn.status]}`} data-testid="fork-turn-status">
          {turn.status === "streaming" ? "streaming…" : turn.status}
        </span>
        <span className="small muted">
          started <TimeAgo iso={turn.startedAt} />
          {turn.stopReason !== null ? ` · stop reason ${turn.stopReason}` : ""} · {turn.historyEvents} events sent (
          {turn.requestBytes.toLocaleString("en-US")} bytes)
        </span>
      </div>
      {live.reasoning !== "" ? (
        <details className="fork-reasoning">
          <summary>Reasoning ({live.reasoning.length.toLocaleString("en-US")} characters)</summary>
          <pre className="raw">{presentUntrustedText(live.reasoning)}</pre>
        </details>
      ) : null}
      {live.text !== "" || turn.status === "streaming" ? (
        <pre
          className="raw fork-answer"
          data-testid="fork-turn-text"
          aria-live={turn.status === "streaming" ? "polite" : undefined}
        >
          {presentUntrustedText(live.text)}
          {turn.status === "streaming" ? (
            <span className="fork-caret" aria-hidden="true">
              ▍
            </span>
          ) : null}
        </pre>
      ) : null}
      {live.calls.length > 0 ? (
        <ul className="fork-turn-calls small">
          {live.calls.map((call, index) => (
            <li key={index} className="mono">
              {presentUntrustedText(`${call.name}(${call.arguments})`)}
            </li>
          ))}
        </ul>
      ) : null}
      {turn.error !== null ? (
        <div className="fork-error" role="alert" data-testid="fork-turn-error">
          <strong>
            {turn.error.httpStatus === null
              ? "The provider did not answer:"
              : `The provider answered HTTP ${turn.error.httpStatus}:`}
          </strong>
          <pre className="raw">{revealInvisible(turn.error.text)}</pre>
        </div>
      ) : null}
      {turn.skipped.length > 0 ? (
        <details className="small">
          <summary>{turn.skipped.length} events left out of this encoding</summary>
          <ul>
            {turn.skipped.map((item) => (
              <li key={item.index}>
                Event {item.index + 1}: {presentUntrustedText(item.reason)}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {turn.status === "completed" ? (
        <UsageFigures usage={turn.usage} label={`Tokens of turn ${turn.ordinal}`} />
      ) : null}
    </article>
  );
}
