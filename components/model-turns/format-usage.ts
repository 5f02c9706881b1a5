// How token counts and costs read on the page: "812 in · 37 out", "$0.0019", "unknown model". Pure, client-safe.
import type { TurnUsage } from "@/lib/model-turns/schemas.ts";

const tokens = (value: number) => value.toLocaleString("en-US");

/** "812 in · 37 out", plus cached and reasoning when the turn had any; "no token counts" when the source gave none. */
export function formatTurnTokens(usage: {
  inputTokens: number | null;
  outputTokens: number | null;
  cachedInputTokens: number | null;
  reasoningTokens: number | null;
}): string {
  if (usage.inputTokens === null && usage.outputTokens === null) return "no token counts";
  const parts = [`${usage.inputTokens === null ? "?" : tokens(usage.inputTokens)} in`];
  parts.push(`${usage.outputTokens === null ? "?" : tokens(usage.outputTokens)} out`);
  if (usage.cachedInputTokens) parts.push(`${tokens(usage.cachedInputTokens)} cached`);
  if (usage.reasoningTokens) parts.push(`${tokens(usage.reasoningTokens)} reasoning`);
  return parts.join(" · ");
}

/** USD with enough digits to tell small turns apart: $0.0019, $0.42, $12.30. */
export function formatUsd(usd: number): string {
  if (usd === 0) return "$0";
  if (usd < 0.0001) return "< $0.0001";
  if (usd < 1) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}

/** A thread's cost in a few words: "$0.0019", "≥ $0.0019 + unknown model", "unknown model". */
export function formatThreadCost(cost: { usd: number | null; complete: boolean }, turns: number): string {
  if (turns === 0) return "—";
  if (cost.usd === null) return "unknown model";
  return cost.complete ? formatUsd(cost.usd) : `≥ ${formatUsd(cost.usd)} + unknown model`;
}

export function totalTokens(usage: TurnUsage): number {
  return usage.inputTokens + usage.outputTokens;
}
