// A model turn's row on the thread timeline: which model, tokens in/out/cached/reasoning, how long it took,
// why it stopped, what it cost. Model names and ids come from outside: shown as text, invisible characters revealed.
import { formatDuration } from "@/components/ui/format-time.ts";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import type { ModelTurnBrief } from "@/lib/model-turns/schemas.ts";
import { formatTurnTokens, formatUsd } from "./format-usage.ts";
import "./model-turns.css";

const SOURCE_LABELS: Record<string, string> = { otel: "OTLP", import: "imported", fork: "fork" };

export function ModelTurnRowBody({ turn, titleId }: { turn: ModelTurnBrief; titleId: string }) {
  const model = turn.model === null ? "model not named" : presentUntrustedText(turn.model);
  return (
    <div className="tl-head mt-row" data-testid="model-turn-row">
      <span className={`chip ${turn.status === "failed" ? "chip-bad" : "chip-accent"}`} id={titleId}>
        model turn
      </span>
      <span className="mono mt-model" data-testid="model-turn-model">
        {model}
      </span>
      <span className="mt-figures small" data-testid="model-turn-tokens">
        {formatTurnTokens(turn)}
      </span>
      <span className="mt-figures small mono" data-testid="model-turn-latency">
        {turn.durationMs === null ? "—" : formatDuration(turn.durationMs)}
      </span>
      {turn.stopReason !== null ? (
        <span className="chip chip-neutral" title="Stop reason">
          {presentUntrustedText(turn.stopReason)}
        </span>
      ) : null}
      {turn.status === "failed" ? <span className="chip chip-bad">failed</span> : null}
      <span className="mt-figures small" title="At the server's price table">
        {turn.costUsd === null ? "unknown model" : formatUsd(turn.costUsd)}
      </span>
      <span className="small muted">{SOURCE_LABELS[turn.source] ?? turn.source}</span>
      {turn.responseId !== null ? (
        <span className="small muted mono mt-response" title="Response id">
          {presentUntrustedText(turn.responseId)}
        </span>
      ) : null}
    </div>
  );
}
