// A model turn as a waterfall bar: where it starts and ends, and the line's accessible label (model, tokens,
// how long it took, why it stopped). Pure, client-safe.
import { formatDuration } from "@/components/ui/format-time.ts";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import type { ModelTurnBrief } from "@/lib/model-turns/schemas.ts";
import { formatTurnTokens } from "./format-usage.ts";

export type TurnSpan = { start: number; end: number };

/** Start and end (ms since epoch); a turn with no finish time is drawn as long as its duration says, else a sliver. */
export function turnSpan(turn: ModelTurnBrief): TurnSpan {
  const start = Date.parse(turn.startedAt);
  const end =
    turn.finishedAt !== null ? Date.parse(turn.finishedAt) : turn.durationMs !== null ? start + turn.durationMs : start;
  return { start, end: Math.max(start, end, start + (turn.durationMs ?? 0)) };
}

export function turnName(turn: ModelTurnBrief): string {
  return turn.model === null ? "model" : presentUntrustedText(turn.model);
}

export function turnBarLabel(turn: ModelTurnBrief, offsetMs: number): string {
  const took = turn.durationMs === null ? "duration unknown" : `took ${formatDuration(turn.durationMs)}`;
  const stop = turn.stopReason === null ? "" : `, stopped: ${presentUntrustedText(turn.stopReason)}`;
  const failed = turn.status === "failed" ? ", failed" : "";
  return `model turn ${turnName(turn)}: starts at +${formatDuration(offsetMs)}, ${took}, ${formatTurnTokens(turn)}${stop}${failed}`;
}
