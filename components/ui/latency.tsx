// The one way a call's time is shown: two different measurements, each with its name, never one passed off as the
// other — "tool-reported" is the envelope's meta.durationMs (what the tool says it took), "observed" is request to
// result as Toolscope saw it. A call with neither (pending, or imported without timing) reads "—".
import { formatDuration } from "./format-time.ts";

export const LATENCY_NAMES = {
  reported: { label: "tool-reported", title: "meta.durationMs: how long the tool says it took" },
  observed: { label: "observed", title: "From the request to the result, as Toolscope saw it" },
} as const;

export function Latency({ reportedMs, observedMs }: { reportedMs: number | null; observedMs: number | null }) {
  if (reportedMs === null && observedMs === null)
    return (
      <span className="muted" title="No timing: no result yet, or a trace without times" data-testid="latency">
        —
      </span>
    );
  const parts = [
    { kind: "reported" as const, ms: reportedMs },
    { kind: "observed" as const, ms: observedMs },
  ].filter((part): part is { kind: "reported" | "observed"; ms: number } => part.ms !== null);
  return (
    <span className="latency" data-testid="latency">
      {parts.map((part, index) => (
        <span key={part.kind} title={LATENCY_NAMES[part.kind].title} data-latency={part.kind}>
          {index > 0 ? " · " : null}
          {formatDuration(part.ms)} <span className="muted small">{LATENCY_NAMES[part.kind].label}</span>
        </span>
      ))}
    </span>
  );
}
