// Owns the one verdict on a result: what it says about itself (envelope valid or not, success, confidence band,
// nextAction, error) reduced to a tone, the action to take, and one line of advice. The call header, the thread
// row, the calls explorer and Insights all read it, so they cannot disagree (issue 13). Client-safe, pure.
//
// Rules, strongest first:
// 1. No result yet → "waiting". A result without an envelope → "error" when something signalled one, else
//    "no envelope" (nothing to judge confidence by).
// 2. An invalid envelope's signals are not trusted: its confidence gets no band (the claimed value is still
//    shown), its nextAction is quoted, not followed; the advice is to fix the tool's envelope.
// 3. A failure (success:false, an error object, or any other error signal) is "failed" whatever the confidence: the confidence bands
//    describe a successful answer (seed §1: success says the call ran, confidence says whether to trust it).
// 4. The envelope's own nextAction is the action. Confidence never overrides it; when the two disagree
//    (continue at 0.3) the verdict says so in `conflicts` and takes the more careful tone.
// 5. Without a nextAction, the confidence band suggests one (seed §2: ≥0.8 continue, 0.5–0.8 continue but mark
//    uncertain, <0.5 ask the user or a human).
import { confidenceBand, NEXT_ACTIONS, type ConfidenceBand, type NextAction } from "./envelope.ts";

export type VerdictInput = {
  /** False when the call has no result yet. */
  hasResult: boolean;
  /** "valid" | "partial" | "invalid", or null when the result is no envelope. */
  envelopeKind: string | null;
  success: boolean | null;
  confidence: number | null;
  nextAction: string | null;
  /** Any error signal (MCP isError, envelope failure, "Error: " prefix). */
  isError: boolean;
};

export type VerdictTone = "ok" | "warn" | "bad" | "neutral";
export type VerdictState = "waiting" | "no_envelope" | "error" | "invalid" | "failed" | "ok" | "uncertain" | "low";

export type Verdict = {
  state: VerdictState;
  tone: VerdictTone;
  /** Two or three words for a badge. */
  label: string;
  /** The seed's band of a trusted confidence; null when there is none or it is not trusted. */
  band: ConfidenceBand["band"] | null;
  /** The action to take, and who said so. */
  action: NextAction | null;
  actionFrom: "envelope" | "confidence" | null;
  /** One sentence: what to do. Printed once per page. */
  advice: string;
  /** Where the envelope's own signals disagree (each a sentence). */
  conflicts: string[];
};

export const ACTION_ADVICE: Record<NextAction, string> = {
  continue: "Continue: the tool says its result can be used.",
  retry: "Retry the call.",
  ask_user: "Ask the user for more information before going on.",
  human_review: "Hand it to a person to review before going on.",
  stop: "Stop: do not go on with this result.",
};

export const BAND_ADVICE: Record<ConfidenceBand["band"], string> = {
  high: "Reliable enough to continue generating or acting on it.",
  medium: "Mark the answer as uncertain; look it up further if it matters.",
  low: "Do not rely on it: ask the user for more information or hand over to a human.",
};

export const ACTION_LABELS: Record<NextAction, string> = {
  continue: "continue",
  retry: "retry",
  ask_user: "ask the user",
  human_review: "human review",
  stop: "stop",
};

function asAction(value: string | null): NextAction | null {
  return NEXT_ACTIONS.find((action) => action === value) ?? null;
}

/** A confidence the verdict may band: a finite number in 0..1 from an envelope that is not invalid. */
export function trustedBand(input: Pick<VerdictInput, "envelopeKind" | "confidence">): ConfidenceBand["band"] | null {
  const c = input.confidence;
  if (c === null || !Number.isFinite(c) || c < 0 || c > 1) return null;
  if (input.envelopeKind !== "valid" && input.envelopeKind !== "partial") return null;
  return confidenceBand(c).band;
}

const CAREFUL: Record<NextAction, number> = { continue: 0, retry: 1, ask_user: 2, human_review: 2, stop: 3 };
const BAND_ACTION: Record<ConfidenceBand["band"], NextAction> = {
  high: "continue",
  medium: "continue",
  low: "ask_user",
};

function conflictsOf(action: NextAction, band: ConfidenceBand["band"] | null, confidence: number | null): string[] {
  if (band === null || confidence === null) return [];
  const suggested = BAND_ACTION[band];
  if (CAREFUL[action] >= CAREFUL[suggested]) return [];
  return [
    `nextAction says “${ACTION_LABELS[action]}” but confidence ${confidence} is in the ${band} band (${BAND_ADVICE[band]})`,
  ];
}

function successVerdict(input: VerdictInput, band: ConfidenceBand["band"] | null): Verdict {
  const stated = asAction(input.nextAction);
  const action = stated ?? (band === null ? null : BAND_ACTION[band]);
  const conflicts = stated ? conflictsOf(stated, band, input.confidence) : [];
  const careful = action !== null && action !== "continue";
  // The band sets the tone; a careful action or a conflict never lets it read as plain "ok".
  const state: VerdictState =
    band === "low" ? "low" : band === "medium" || careful || conflicts.length > 0 ? "uncertain" : "ok";
  const tone: VerdictTone =
    state === "low" || action === "stop"
      ? "bad"
      : state === "uncertain"
        ? "warn"
        : band === null && action === null
          ? "neutral"
          : "ok";
  const parts = [action ? ACTION_ADVICE[action] : "No nextAction or confidence to go by."];
  if (band === "medium" || band === "low") parts.push(BAND_ADVICE[band]);
  const label = action ? ACTION_LABELS[action] : state === "ok" ? "ok" : state;
  return {
    state,
    tone,
    label,
    band,
    action,
    actionFrom: stated ? "envelope" : action ? "confidence" : null,
    advice: parts.join(" "),
    conflicts,
  };
}

export function deriveVerdict(input: VerdictInput): Verdict {
  const none = { band: null, action: null, actionFrom: null, conflicts: [] } as const;
  if (!input.hasResult)
    return {
      ...none,
      state: "waiting",
      tone: "neutral",
      label: "no result",
      advice: "No result has arrived yet.",
      conflicts: [],
    };
  if (input.envelopeKind === null) {
    return input.isError
      ? {
          ...none,
          state: "error",
          tone: "bad",
          label: "error",
          advice: "The result reports an error; there is no envelope to say what to do next.",
          conflicts: [],
        }
      : {
          ...none,
          state: "no_envelope",
          tone: "neutral",
          label: "no envelope",
          advice: "No envelope: nothing says how far to trust this result.",
          conflicts: [],
        };
  }
  const stated = asAction(input.nextAction);
  if (input.envelopeKind === "invalid") {
    const quoted = stated
      ? ` It asks to ${ACTION_LABELS[stated]}, but an invalid envelope's signals are not followed.`
      : "";
    return {
      ...none,
      state: "invalid",
      tone: "bad",
      label: "invalid envelope",
      advice: `The envelope is invalid: do not act on its confidence or nextAction; fix the tool's envelope.${quoted}`,
      conflicts: [],
    };
  }
  const band = trustedBand(input);
  if (input.success === false || input.isError) {
    const conflicts = [
      ...(input.success === true ? ["the envelope says success but the result is flagged as an error"] : []),
      ...(stated === "continue" ? ["nextAction says “continue” but the call failed"] : []),
    ];
    return {
      state: "failed",
      tone: "bad",
      label: stated ? `failed · ${ACTION_LABELS[stated]}` : "failed",
      band: null,
      action: stated,
      actionFrom: stated ? "envelope" : null,
      advice:
        stated && stated !== "continue"
          ? `The call failed. ${ACTION_ADVICE[stated]}`
          : "The call failed; the envelope gives no next step to follow.",
      conflicts,
    };
  }
  return successVerdict(input, band);
}
