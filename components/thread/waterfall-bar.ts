// What one waterfall bar says besides its colour: a word for how the call ended (timed out, errored, cancelled)
// and the line's accessible label. Colour alone told a timed-out call from an errored one by nothing at all (both
// were red), and a colour never reaches a screen reader or a reader who cannot tell red from amber.
import { formatDuration } from "@/components/ui/format-time.ts";

/** How a bar is drawn: its colour class and, when the call did not simply finish or is still open, a word. */
export type BarOutcome = { tone: "ok" | "bad" | "timeout" | "open" | "cancelled"; word: string | null };

export function barOutcome(status: string, open: boolean): BarOutcome {
  if (status === "timed_out") return { tone: "timeout", word: "timed out" };
  if (status === "errored") return { tone: "bad", word: "errored" };
  if (status === "cancelled") return { tone: "cancelled", word: "cancelled" };
  if (status === "auth_required") return { tone: "open", word: "needs auth" };
  if (open || status === "pending") return { tone: "open", word: null };
  return { tone: "ok", word: null };
}

/** The line's accessible label: tool, call key, start offset and how long it ran, ending with how it ended. */
export function barLabel(options: {
  tool: string;
  callKey: string;
  status: string;
  open: boolean;
  offsetMs: number;
  durationMs: number;
}): string {
  const { tool, callKey, status, open, offsetMs, durationMs } = options;
  const { word } = barOutcome(status, open);
  const ran = open
    ? `running for ${formatDuration(durationMs)}`
    : word
      ? `${word} after ${formatDuration(durationMs)}`
      : `took ${formatDuration(durationMs)}`;
  return `${tool} ${callKey}: starts at +${formatDuration(offsetMs)}, ${ran}${open && word ? ` (${word})` : ""}`;
}
