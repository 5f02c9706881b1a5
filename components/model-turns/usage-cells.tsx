// The threads list's model columns: tokens in / out over the thread's model turns, and their cost
// ("unknown model" when the price table knows none of them, "≥ $x" when it knows only some).
import type { ThreadUsageBrief } from "@/lib/model-turns/schemas.ts";
import { formatThreadCost } from "./format-usage.ts";

export function TokensCell({ usage }: { usage: ThreadUsageBrief | null }) {
  if (usage === null)
    return (
      <span className="muted" aria-label="no model turns">
        –
      </span>
    );
  const { inputTokens, outputTokens } = usage.usage;
  return (
    <span
      className="nowrap"
      title={`${usage.modelTurns.toLocaleString("en-US")} model turns`}
      data-testid="thread-tokens"
    >
      {inputTokens.toLocaleString("en-US")} in · {outputTokens.toLocaleString("en-US")} out
    </span>
  );
}

export function CostCell({ usage }: { usage: ThreadUsageBrief | null }) {
  if (usage === null)
    return (
      <span className="muted" aria-label="no model turns">
        –
      </span>
    );
  return (
    <span className="nowrap" data-testid="thread-cost">
      {formatThreadCost({ usd: usage.costUsd, complete: usage.costComplete }, usage.modelTurns)}
    </span>
  );
}
