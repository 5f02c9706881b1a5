// Fork edits on a real transcript (the Anthropic parallel-weather fixture): each kind of edit lands where the
// model will see it, and each bad edit names its path.
import { describe, expect, it } from "vitest";
import type { CanonicalEvent } from "../formats/canonical.ts";
import { parseTranscriptText } from "../formats/detect.ts";
import { loadFixtureText } from "../formats/fixtures/load-fixture.ts";
import { renderHistory } from "../replay/render-history.ts";
import { applyForkEdits, ForkEditError } from "./edits.ts";

const trace = parseTranscriptText(loadFixtureText("openai-chat-parallel.json"));
const events = trace.events;
const calls = events.flatMap((event, index) => (event.kind === "tool_call" ? [{ event, index }] : []));
const results = events.flatMap((event, index) => (event.kind === "tool_result" ? [{ event, index }] : []));
const firstCall = calls[0];
const firstResult = results[0];
if (firstCall === undefined || firstResult === undefined) throw new Error("fixture without calls");
const lastResultIndex = Math.max(...results.map((result) => result.index));
const step = lastResultIndex + 1;

function resultText(history: readonly CanonicalEvent[], callId: string): string | undefined {
  const result = history.find((event) => event.kind === "tool_result" && event.callId === callId);
  return result?.kind === "tool_result" ? result.text : undefined;
}

function editError(run: () => unknown): ForkEditError {
  try {
    run();
  } catch (error) {
    if (error instanceof ForkEditError) return error;
    throw error;
  }
  throw new Error("expected a ForkEditError");
}

describe("fork edits", () => {
  it("keeps the first N events unchanged without edits", () => {
    const history = applyForkEdits(events, step, []);
    expect(history.events).toEqual(events.slice(0, step));
    expect(history.pendingCallIds).toEqual([]);
  });

  it("replaces a result's text, and the rendered request carries it", () => {
    const history = applyForkEdits(events, step, [
      { call: firstCall.event.callId, text: "Error: the weather service is down" },
    ]);
    expect(resultText(history.events, firstCall.event.callId)).toBe("Error: the weather service is down");
    const edited = history.events.find(
      (event) => event.kind === "tool_result" && event.callId === firstCall.event.callId,
    );
    expect(edited).toMatchObject({ isError: true, errorSignal: "error-prefix" });
    const request = JSON.stringify(renderHistory(history.events, history.events.length, "openai-chat").request);
    expect(request).toContain("Error: the weather service is down");
    expect(history.editedCalls).toEqual(new Set([firstCall.event.callId]));
  });

  it("merges envelope fields into a JSON result and keeps its layout", () => {
    const withEnvelope = events.map((event) =>
      event.kind === "tool_result" && event.callId === firstCall.event.callId
        ? { ...event, text: JSON.stringify({ success: true, confidence: 0.9, data: { t: 21 } }, null, 2) }
        : event,
    );
    const history = applyForkEdits(withEnvelope, step, [
      {
        call: firstCall.event.callId,
        envelope: { success: false, confidence: 0.2, error: { type: "timeout", message: "slow" } },
      },
    ]);
    const text = resultText(history.events, firstCall.event.callId) ?? "";
    expect(JSON.parse(text)).toEqual({
      success: false,
      confidence: 0.2,
      data: { t: 21 },
      error: { type: "timeout", message: "slow" },
    });
    expect(text).toContain('\n  "success": false');
    const notJson = editError(() =>
      applyForkEdits(events, step, [
        { call: firstCall.event.callId, text: "plain words" },
        { call: firstCall.event.callId, envelope: { success: false } },
      ]),
    );
    expect(notJson.path).toBe("edits[0].text");
    expect(notJson.message).toMatch(/not a JSON object/);
  });

  it("edits a call's arguments (invalid JSON is kept verbatim and flagged)", () => {
    const history = applyForkEdits(events, step, [
      { call: firstCall.event.callId, arguments: '{"location":"Oslo"}' },
      { call: calls[1]?.event.callId ?? "", arguments: "{oops" },
    ]);
    const [first, second] = history.events.filter((event) => event.kind === "tool_call");
    expect(first).toMatchObject({ argumentsText: '{"location":"Oslo"}', arguments: { location: "Oslo" } });
    expect(second?.kind === "tool_call" ? second.argumentsError : null).toMatch(/invalid JSON/);
    expect(second?.kind === "tool_call" ? second.arguments : "absent").toBeUndefined();
  });

  it("drops a message, drops a call with its result, and inserts messages where asked", () => {
    const history = applyForkEdits(events, step, [
      { drop: firstCall.index },
      { insert: { after: -1, role: "system", text: "Answer in French." } },
      { insert: { after: 0, role: "user", text: "Also: is it windy?" } },
    ]);
    expect(history.events[0]).toMatchObject({ kind: "message", role: "system", text: "Answer in French." });
    expect(history.events[2]).toMatchObject({ kind: "message", role: "user", text: "Also: is it windy?" });
    expect(
      history.events.some(
        (event) =>
          (event.kind === "tool_call" || event.kind === "tool_result") && event.callId === firstCall.event.callId,
      ),
    ).toBe(false);
    expect(history.events.length).toBe(step - 2 + 2);
  });

  it("answers a call that is pending at the step with a given text, and lists calls still pending", () => {
    const atCalls = firstResult.index;
    expect(applyForkEdits(events, atCalls, []).pendingCallIds.length).toBeGreaterThan(0);
    const pendingIds = applyForkEdits(events, atCalls, []).pendingCallIds;
    const history = applyForkEdits(
      events,
      atCalls,
      pendingIds.map((call) => ({ call, text: `answer for ${call}` })),
    );
    expect(history.pendingCallIds).toEqual([]);
    expect(
      history.events.slice(-pendingIds.length).map((event) => (event.kind === "tool_result" ? event.text : null)),
    ).toEqual(pendingIds.map((call) => `answer for ${call}`));
  });

  it("names the path of every bad edit", () => {
    expect(editError(() => applyForkEdits(events, step, [{ call: "nope", text: "x" }])).message).toBe(
      `edits[0].call: no call "nope" in the first ${step} events`,
    );
    expect(editError(() => applyForkEdits(events, 2, [{ drop: 5 }])).path).toBe("edits[0].drop");
    expect(editError(() => applyForkEdits(events, 2, [{ insert: { after: 4, role: "user", text: "x" } }])).path).toBe(
      "edits[0].insert.after",
    );
    expect(editError(() => applyForkEdits(events, events.length + 1, [])).path).toBe("step");
  });
});
