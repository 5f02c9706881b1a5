"use client";
// The thread header's model figures, kept live with the counts beside them (same summary poll): model turns,
// tokens in / out / cached / reasoning, and the cost at the server's price table — "unknown model", never $0,
// for a model the table does not know.
import { queryKeys } from "@/components/providers/query-keys.ts";
import { useLiveQuery } from "@/components/ui/use-live-query.ts";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import type { ThreadSummary } from "@/lib/threads/schemas.ts";
import { formatThreadCost } from "./format-usage.ts";
import "./model-turns.css";

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <span className="figure" data-testid={testId}>
      <span className="figure-value">{value}</span> <span className="figure-label">{label}</span>
    </span>
  );
}

const count = (value: number) => value.toLocaleString("en-US");

export function ThreadUsage({ initial }: { initial: ThreadSummary }) {
  const { data } = useLiveQuery<ThreadSummary>({
    queryKey: queryKeys.threadSummary(initial.groupId),
    path: `/api/threads/${encodeURIComponent(initial.groupId)}/summary`,
    initialData: initial,
  });
  if (data.modelTurns === 0) return null;
  const { usage, cost } = data;
  const unknown = cost.unknownModels.map((model) => presentUntrustedText(model)).join(", ");
  const costTitle = `Price table of ${cost.priceTable.asOf}. ${cost.priceTable.source}${unknown ? ` No price for: ${unknown}.` : ""}`;
  return (
    <div className="figures mt-usage" role="group" aria-label="Model turns and tokens" data-testid="thread-usage">
      <Figure
        label={data.modelTurns === 1 ? "model turn" : "model turns"}
        value={count(data.modelTurns)}
        testId="usage-turns"
      />
      <Figure label="tokens in" value={count(usage.inputTokens)} testId="usage-input" />
      <Figure label="out" value={count(usage.outputTokens)} testId="usage-output" />
      <Figure label="cached" value={count(usage.cachedInputTokens)} testId="usage-cached" />
      <Figure label="reasoning" value={count(usage.reasoningTokens)} testId="usage-reasoning" />
      <span className="figure" title={costTitle} data-testid="usage-cost">
        <span className="figure-value">{formatThreadCost(cost, data.modelTurns)}</span>{" "}
        <span className="figure-label">cost{unknown && cost.usd !== null ? ` (no price: ${unknown})` : ""}</span>
      </span>
    </div>
  );
}
