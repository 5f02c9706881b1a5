// What a replay changed so the vendor accepts the history (a placeholder first user turn, a reused call id made
// unique, an error flag spelled into the text): shown as a warning, because the request differs from the recording.
import type { Adjustment } from "@/lib/replay/render-history.ts";

export function ReplayAdjustments({ adjustments }: { adjustments: Adjustment[] }) {
  if (adjustments.length === 0) return null;
  return (
    <div className="notice notice-warn small" role="note" data-testid="replay-adjustments">
      <strong>Changed so the API accepts it:</strong>
      <ul>
        {adjustments.map((adjustment, position) => (
          <li key={position}>
            {adjustment.index === null ? "Before event 1" : `Event ${adjustment.index + 1}`}: {adjustment.change}
          </li>
        ))}
      </ul>
    </div>
  );
}
