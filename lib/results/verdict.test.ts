// The verdict over every combination of what a result can say about itself: the contradictions of issue 13
// (invalid envelope rated high, success:false given the success hint, nextAction overridden by confidence,
// advice repeated) are checked as invariants over the whole table, plus exact rows for each reported case.
import { describe, expect, it } from "vitest";
import { NEXT_ACTIONS } from "./envelope.ts";
import { ACTION_ADVICE, BAND_ADVICE, deriveVerdict, trustedBand, type Verdict, type VerdictInput } from "./verdict.ts";

const KINDS = [null, "valid", "partial", "invalid"] as const;
const SUCCESS = [null, true, false] as const;
const CONFIDENCES = [null, 0, 0.3, 0.49, 0.5, 0.79, 0.8, 1, 1.4, -0.1, Number.NaN] as const;
const ACTIONS = [null, ...NEXT_ACTIONS, "bogus"] as const;

function* table(): Generator<VerdictInput> {
  for (const hasResult of [true, false])
    for (const envelopeKind of KINDS)
      for (const success of SUCCESS)
        for (const confidence of CONFIDENCES)
          for (const nextAction of ACTIONS)
            for (const isError of [false, true])
              yield { hasResult, envelopeKind, success, confidence, nextAction, isError };
}

const rows = [...table()];

describe("deriveVerdict over every combination", () => {
  it("covers the whole table", () => {
    expect(rows).toHaveLength(2 * 4 * 3 * 11 * 7 * 2);
  });

  type Invariant = [string, (input: VerdictInput, verdict: Verdict) => boolean];
  const invariants: Invariant[] = [
    ["no result is always waiting", (i, v) => !i.hasResult === (v.state === "waiting")],
    [
      "an invalid envelope is never banded, followed or rated ok",
      (i, v) =>
        i.envelopeKind !== "invalid" ||
        !i.hasResult ||
        (v.state === "invalid" && v.band === null && v.action === null && v.tone === "bad"),
    ],
    [
      "a confidence outside 0..1 never gets a band",
      (i, v) => i.confidence === null || (i.confidence >= 0 && i.confidence <= 1) || v.band === null,
    ],
    [
      "a failure is failed, whatever the confidence, with no success advice",
      (i, v) =>
        !i.hasResult ||
        i.envelopeKind === null ||
        i.envelopeKind === "invalid" ||
        !(i.success === false || i.isError) ||
        (v.state === "failed" &&
          v.tone === "bad" &&
          v.band === null &&
          !v.advice.includes(BAND_ADVICE.high) &&
          !v.advice.includes(ACTION_ADVICE.continue)),
    ],
    [
      "the envelope's nextAction is the action: confidence never overrides it",
      (i, v) =>
        !i.hasResult ||
        i.envelopeKind === null ||
        i.envelopeKind === "invalid" ||
        !NEXT_ACTIONS.some((a) => a === i.nextAction) ||
        (v.action === i.nextAction && v.actionFrom === "envelope"),
    ],
    [
      "tone ok only for a trusted, successful, non-conflicting result",
      (i, v) =>
        v.tone !== "ok" ||
        (i.hasResult &&
          (i.envelopeKind === "valid" || i.envelopeKind === "partial") &&
          i.success !== false &&
          !i.isError &&
          v.conflicts.length === 0),
    ],
    ["a low band is never ok", (_i, v) => v.band !== "low" || v.tone !== "ok"],
    [
      "advice names each sentence once",
      (_i, v) => {
        const sentences = v.advice.split(/(?<=[.!?])\s+/);
        return new Set(sentences).size === sentences.length;
      },
    ],
    [
      "the advice of the action is in the advice",
      (i, v) => v.action === null || v.state === "failed" || v.advice.includes(ACTION_ADVICE[v.action]),
    ],
  ];
  it.each(invariants)("%s", (_name, holds) => {
    const broken = rows.filter((input) => !holds(input, deriveVerdict(input)));
    expect(broken.slice(0, 3)).toEqual([]);
  });
});

describe("the cases reported in issue 13", () => {
  const base: VerdictInput = {
    hasResult: true,
    envelopeKind: "valid",
    success: true,
    confidence: 0.9,
    nextAction: "continue",
    isError: false,
  };

  it("an invalid envelope with confidence 1.4 is invalid, not high", () => {
    const v = deriveVerdict({ ...base, envelopeKind: "invalid", confidence: 1.4 });
    expect(v).toMatchObject({ state: "invalid", tone: "bad", band: null, action: null, label: "invalid envelope" });
    expect(v.advice).not.toContain("Reliable");
  });

  it("success:false is failed and follows its nextAction", () => {
    const v = deriveVerdict({ ...base, success: false, isError: true, confidence: 0.95, nextAction: "retry" });
    expect(v).toMatchObject({ state: "failed", tone: "bad", action: "retry", label: "failed · retry", band: null });
    expect(v.advice).toBe("The call failed. Retry the call.");
  });

  it("nextAction retry at low confidence stays retry (not 'ask the user')", () => {
    const v = deriveVerdict({ ...base, confidence: 0.2, nextAction: "retry" });
    expect(v).toMatchObject({ action: "retry", actionFrom: "envelope", band: "low", state: "low", tone: "bad" });
    expect(v.advice).toBe(`${ACTION_ADVICE.retry} ${BAND_ADVICE.low}`);
  });

  it("continue at 0.3 keeps the action and reports the conflict", () => {
    const v = deriveVerdict({ ...base, confidence: 0.3 });
    expect(v.action).toBe("continue");
    expect(v.tone).toBe("bad");
    expect(v.conflicts).toHaveLength(1);
  });

  it("without nextAction the band suggests one", () => {
    expect(deriveVerdict({ ...base, nextAction: null, confidence: 0.85 })).toMatchObject({
      action: "continue",
      actionFrom: "confidence",
      tone: "ok",
      state: "ok",
    });
    expect(deriveVerdict({ ...base, nextAction: null, confidence: 0.6 })).toMatchObject({
      action: "continue",
      actionFrom: "confidence",
      tone: "warn",
      state: "uncertain",
    });
    expect(deriveVerdict({ ...base, nextAction: null, confidence: 0.1 })).toMatchObject({
      action: "ask_user",
      actionFrom: "confidence",
      tone: "bad",
      state: "low",
    });
  });

  it("bands follow the seed's edges, lower bound inclusive, only for trusted envelopes", () => {
    expect([0.8, 0.79, 0.5, 0.49].map((confidence) => trustedBand({ envelopeKind: "valid", confidence }))).toEqual([
      "high",
      "medium",
      "medium",
      "low",
    ]);
    expect(trustedBand({ envelopeKind: "invalid", confidence: 0.9 })).toBeNull();
    expect(trustedBand({ envelopeKind: null, confidence: 0.9 })).toBeNull();
  });
});
