import { describe, expect, it } from "vitest";
import { barLabel, barOutcome } from "./waterfall-bar.ts";

const line = { tool: "check_visa", callKey: "call_7", offsetMs: 0, durationMs: 30_000 };

describe("barOutcome", () => {
  it("gives timed-out calls their own tone and a word, apart from errored ones", () => {
    expect(barOutcome("timed_out", false)).toEqual({ tone: "timeout", word: "timed out" });
    expect(barOutcome("errored", false)).toEqual({ tone: "bad", word: "errored" });
    expect(barOutcome("cancelled", false)).toEqual({ tone: "cancelled", word: "cancelled" });
  });

  it("leaves a finished or still-open call wordless (the stripes mark open ones)", () => {
    expect(barOutcome("completed", false)).toEqual({ tone: "ok", word: null });
    expect(barOutcome("pending", true)).toEqual({ tone: "open", word: null });
    expect(barOutcome("auth_required", true)).toEqual({ tone: "open", word: "needs auth" });
  });
});

describe("barLabel", () => {
  it("says how the call ended", () => {
    expect(barLabel({ ...line, status: "timed_out", open: false })).toBe(
      "check_visa call_7: starts at +0 ms, timed out after 30.0 s",
    );
    expect(barLabel({ ...line, status: "errored", open: false, durationMs: 2000 })).toBe(
      "check_visa call_7: starts at +0 ms, errored after 2.00 s",
    );
    expect(barLabel({ ...line, status: "completed", open: false, offsetMs: 1500, durationMs: 768 })).toBe(
      "check_visa call_7: starts at +1.50 s, took 768 ms",
    );
    expect(barLabel({ ...line, status: "pending", open: true })).toBe(
      "check_visa call_7: starts at +0 ms, running for 30.0 s",
    );
    expect(barLabel({ ...line, status: "auth_required", open: true })).toBe(
      "check_visa call_7: starts at +0 ms, running for 30.0 s (needs auth)",
    );
  });
});
