// One model turn's line in the thread waterfall: the model's name, a bar for how long the turn took, and its
// tokens — beside the calls' lines, on the same scale.
import { formatDuration } from "@/components/ui/format-time.ts";
import type { ModelTurnBrief } from "@/lib/model-turns/schemas.ts";
import { formatTurnTokens } from "./format-usage.ts";
import { turnBarLabel, turnName } from "./turn-bar.ts";
import "./model-turns.css";

export function TurnBarLine(props: {
  turn: ModelTurnBrief;
  index: number;
  top: number;
  minHeight: number;
  measureElement: (element: HTMLElement | null) => void;
  target: boolean;
  offsetMs: number;
  left: string;
  width: string;
}) {
  const { turn, offsetMs, index, top, minHeight, measureElement, target, left, width } = props;
  const label = turnBarLabel(turn, offsetMs);
  return (
    <div
      ref={measureElement}
      data-index={index}
      role="listitem"
      className={`wf-line wf-turn${target ? " wf-target" : ""}`}
      style={{ transform: `translateY(${top}px)`, minHeight }}
      data-testid="waterfall-turn"
      aria-label={label}
    >
      <span className="wf-name mono" title={label}>
        <span className="wf-step">model</span>
        {turnName(turn)}
      </span>
      <span className="wf-track" aria-hidden="true">
        <span
          className={`wf-bar ${turn.status === "failed" ? "wf-bad" : "wf-model"}`}
          style={{ left, width: `max(2px, ${width})` }}
          title={label}
        />
      </span>
      <span className="wf-figures small mono">
        <span className="wf-times">
          +{formatDuration(offsetMs)} · {turn.durationMs === null ? "—" : formatDuration(turn.durationMs)}
        </span>
        <span className="wf-word" data-testid="waterfall-turn-tokens">
          {formatTurnTokens(turn)}
        </span>
      </span>
    </div>
  );
}
