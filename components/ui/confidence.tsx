// A confidence value as a short bar coloured by the seed's bands (lib/results confidenceBand: ≥0.8 continue,
// 0.5–0.8 flag as uncertain, <0.5 ask a human). Server-renderable.
import { confidenceBand, type ConfidenceBand } from "@/lib/results/envelope.ts";
import type { Tone } from "./bar-chart.tsx";
import { formatConfidence } from "./format.ts";

const BAND_TONE: Record<ConfidenceBand["band"], Tone> = { high: "ok", medium: "warn", low: "bad" };

export function bandTone(band: ConfidenceBand["band"]): Tone {
  return BAND_TONE[band];
}

export function ConfidenceMeter({ value }: { value: number }) {
  const { band, suggestion } = confidenceBand(value);
  const width = `${Math.max(2, Math.min(100, value * 100)).toFixed(1)}%`;
  return (
    <span className="confidence" title={`${band} confidence: ${suggestion}`} data-band={band}>
      <span className="confidence-track" aria-hidden="true">
        <span className={`confidence-fill bar-${bandTone(band)}`} style={{ width }} />
      </span>
      <span className="confidence-value">{formatConfidence(value)}</span>
      <span className="sr-only">({band} confidence)</span>
    </span>
  );
}
