// renderHistoryTail renders the same end of the request as rendering the whole history, in every encoding, at
// every kind of step: results next to their calls (a bounded window) and results far from their calls (the window
// grows until it holds them), with a system prompt and the opening turn before the window. A huge turn (100+ calls)
// the window reaches into is rendered in part: exactly the head, the calls the window's results answer and the
// window, with the rest of the turn counted as left out.
import { describe, expect, it } from "vitest";
import type { CanonicalEvent } from "../formats/canonical";
import { isRecord } from "../formats/json-fields";
import { renderHistory, type ReplayVendor } from "./render-history";
import { pairing, partialExpectation } from "../testing/replay-requests";
import { jsonTail } from "./json-tail";
import { HISTORY_ARRAY_KEY, PARTIAL_TURN_CALLS, renderHistoryTail, type RenderedTail } from "./render-window";

const VENDORS: ReplayVendor[] = ["anthropic", "openai-chat", "openai-responses", "gemini"];
const SHOWN = 20;

function message(role: "system" | "user" | "assistant", text: string, step: number): CanonicalEvent {
  return { kind: "message", role, text, step, raw: text, path: `m${step}` };
}
function call(id: string, step: number): CanonicalEvent {
  return {
    kind: "tool_call",
    callId: id,
    name: "get_weather",
    input: "json",
    argumentsText: JSON.stringify({ city: id }),
    syntheticId: false,
    step,
    raw: null,
    path: `c${id}`,
  };
}
function result(id: string, step: number): CanonicalEvent {
  return {
    kind: "tool_result",
    callId: id,
    text: `sunny in ${id}`,
    isError: id.endsWith("7"),
    step,
    raw: null,
    path: `r${id}`,
  };
}

/** Turns of two parallel calls answered right away, with model text between: results stay near their calls. */
function agentTurns(turns: number): CanonicalEvent[] {
  const events = [message("system", "Be brief.", 0), message("user", "Weather everywhere?", 0)];
  for (let t = 0; t < turns; t++) {
    events.push(
      call(`a${t}`, t),
      call(`b${t}`, t),
      result(`b${t}`, t),
      result(`a${t}`, t),
      message("assistant", `Turn ${t} done.`, t),
    );
    if (t % 5 === 4) events.push(message("user", `Go on after ${t}.`, t));
  }
  return events;
}

/** Turns of `perTurn` parallel calls answered right away (bench:replay-step's "turns" shape, smaller). */
function wideTurns(turns: number, perTurn: number): CanonicalEvent[] {
  const events = [message("user", "Weather everywhere?", 0)];
  for (let t = 0; t < turns; t++) {
    for (let i = 0; i < perTurn; i++) events.push(call(`t${t}c${i}`, t));
    for (let i = 0; i < perTurn; i++) events.push(result(`t${t}c${i}`, t));
    events.push(message("assistant", `Turn ${t} done.`, t));
  }
  return events;
}

/** Every call first, then results for some of them: each result answers a call far back. */
function callsThenResults(calls: number): CanonicalEvent[] {
  const events = [message("user", "Fan out.", 0)];
  for (let i = 0; i < calls; i++) events.push(call(`c${i}`, i));
  for (let i = 0; i < calls; i += 3) events.push(result(`c${i}`, calls + i));
  return events;
}

/**
 * bench:ui's shape, small: one turn of `calls` calls (reasoning and a line of assistant text among them), then
 * results in reverse call order — the last one answers the turn's first call — with every seventh call left
 * pending, then the model's closing text.
 */
function wideTurn(calls: number): CanonicalEvent[] {
  const events = [message("system", "Be brief.", 0), message("user", "Fan out.", 0)];
  for (let i = 0; i < calls; i++) {
    if (i % 50 === 0) events.push({ kind: "reasoning", text: `next ${i}`, step: 0, raw: null, path: `t${i}` });
    if (i === 300) events.push(message("assistant", "Half way.", 0));
    events.push(call(`w${i}`, 0));
  }
  for (let i = calls - 1; i >= 0; i--) if (i % 7 !== 3) events.push(result(`w${i}`, 1));
  events.push(message("assistant", "All done.", 2));
  return events;
}

function tail(request: unknown, vendor: ReplayVendor): unknown {
  if (!isRecord(request)) return request;
  const items = request[HISTORY_ARRAY_KEY[vendor]];
  return { ...request, [HISTORY_ARRAY_KEY[vendor]]: Array.isArray(items) ? items.slice(-SHOWN) : items };
}

describe.each(VENDORS)("renderHistoryTail into %s", (vendor) => {
  const histories = { "agent turns": agentTurns(400), "calls then results": callsThenResults(600) };

  it.each(Object.keys(histories))(
    "ends exactly as the whole request (%s), at every step tried, a huge turn but for what it leaves out",
    (name) => {
      const events = histories[name as keyof typeof histories];
      let partial = 0;
      for (const step of [0, 1, 7, 100, 1001, Math.floor(events.length / 2), events.length - 3, events.length]) {
        const whole = renderHistory(events, step, vendor);
        const part = renderHistoryTail(events, step, vendor, [], { minItems: SHOWN });
        expect(part.pendingCallIds).toEqual(whole.pendingCallIds);
        if (part.partialTurn !== null) {
          partial += 1;
          expectPartial(events, step, part);
          continue;
        }
        expect(tail(part.request, vendor)).toEqual(tail(whole.request, vendor));
        if (part.renderedFrom === null) expect(part.request).toEqual(whole.request);
      }
      // Agent turns of two calls never make a huge turn; 600 calls in one turn do, past the first window.
      expect(partial).toBe(name === "agent turns" ? 0 : 4);
    },
  );

  function expectPartial(events: readonly CanonicalEvent[], step: number, part: RenderedTail) {
    // The window is the last 8 × SHOWN items (every event here is one), rendered after the head and the kept calls.
    const at = Math.min(step, events.length);
    const from = at - 8 * SHOWN;
    expect(part.renderedFrom).toBe(from);
    const expected = partialExpectation(events, at, from);
    expect(part.request).toEqual(renderHistory(expected.events, expected.events.length, vendor).request);
    expect(part.partialTurn).toEqual(expected.turn);
    const { calls, results, misplaced } = pairing(part.request, vendor);
    expect(misplaced).toEqual([]);
    expect(results.every((id) => calls.includes(id))).toBe(true);
  }

  it("renders a huge turn in part: inside it, after it with every call pending, and where the last result answers its first call", () => {
    const events = wideTurn(600);
    const firstCall = events.findIndex((event) => event.kind === "tool_call");
    const lastCall = events.findLastIndex((event) => event.kind === "tool_call");
    const answerToFirst = events.findIndex((event) => event.kind === "tool_result" && event.callId === "w0");
    const middleOfResults = lastCall + 250;
    for (const step of [firstCall + 400, lastCall + 1, middleOfResults, answerToFirst + 1, events.length]) {
      const whole = renderHistory(events, step, vendor);
      const part = renderHistoryTail(events, step, vendor, [], { minItems: SHOWN });
      expect(part.partialTurn, `step ${step}`).not.toBeNull();
      expectPartial(events, step, part);
      // Pending calls are the whole history's: those of the turn left out of the request are still listed.
      expect(part.pendingCallIds).toEqual(whole.pendingCallIds);
    }
    // Inside the turn: nothing answered yet, the turn's calls from the window on are shown, the rest counted.
    const inside = renderHistoryTail(events, firstCall + 400, vendor, [], { minItems: SHOWN });
    const windowCalls = events
      .slice(firstCall + 400 - 8 * SHOWN, firstCall + 400)
      .filter((event) => event.kind === "tool_call").length;
    expect(windowCalls).toBe(156);
    expect(inside.partialTurn).toEqual({
      first: firstCall - 1,
      calls: 392,
      shownCalls: windowCalls,
      omittedCalls: 392 - windowCalls,
      omittedOther: 5,
    });
    expect(pairing(inside.request, vendor).calls).toHaveLength(windowCalls);
    expect(inside.pendingCallIds).toHaveLength(392);
    // Where the last result answers the turn's first call, that call is shown, and a pending call of the turn
    // (w3: every seventh from it is never answered) is listed as pending but not in the request.
    const last = renderHistoryTail(events, answerToFirst + 1, vendor, [], { minItems: SHOWN });
    const shown = pairing(last.request, vendor);
    expect(shown.calls).toContain("w0");
    expect(shown.results.at(-1)).toBe("w0");
    expect(shown.calls).not.toContain("w3");
    expect(last.pendingCallIds).toContain("w3");
    expect(last.partialTurn).toMatchObject({
      calls: 600,
      shownCalls: shown.calls.length,
      omittedCalls: 600 - shown.calls.length,
    });
    expect(shown.calls.length).toBe(8 * SHOWN);
  });

  it("stops growing the window once its end holds the characters shown", () => {
    const events = wideTurns(60, 50);
    const minChars = 20_000;
    const whole = renderHistory(events, events.length, vendor);
    const byItems = renderHistoryTail(events, events.length, vendor, [], { minItems: SHOWN });
    const byChars = renderHistoryTail(events, events.length, vendor, [], { minItems: SHOWN, minChars });
    // The last characters shown are the whole request's, from a window no longer (for vendors that make a turn's
    // calls one item and its results another: shorter) than the one holding SHOWN items.
    expect(jsonTail(byChars.request, minChars).text.slice(-minChars)).toBe(
      jsonTail(whole.request, minChars).text.slice(-minChars),
    );
    expect(byChars.renderedFrom ?? 0).toBeGreaterThanOrEqual(byItems.renderedFrom ?? 0);
    if (vendor === "anthropic" || vendor === "gemini")
      expect(byChars.renderedFrom ?? 0).toBeGreaterThan(byItems.renderedFrom ?? 0);
    expect(byChars.pendingCallIds).toEqual(whole.pendingCallIds);
  });

  it("renders a turn under the threshold whole, however its results come back", () => {
    const events = wideTurn(PARTIAL_TURN_CALLS - 1);
    for (const step of [events.length - 40, events.length]) {
      const part = renderHistoryTail(events, step, vendor, [], { minItems: SHOWN });
      expect(part.partialTurn).toBeNull();
      expect(part.request).toEqual(renderHistory(events, step, vendor).request);
    }
  });

  it("renders a bounded window when results stay near their calls", () => {
    const events = agentTurns(2000);
    const part = renderHistoryTail(events, events.length, vendor, [], { minItems: SHOWN });
    expect(part.renderedFrom).toBeGreaterThan(events.length - 1000);
    // The system prompt and the opening turn are rendered as in the whole request (no placeholder turn either),
    // and the adjustments listed are the whole request's from the window on.
    const whole = renderHistory(events, events.length, vendor);
    const from = part.renderedFrom ?? 0;
    expect(part.adjustments.filter((a) => a.index === null || a.index >= from)).toEqual(
      whole.adjustments.filter((a) => a.index === null || a.index >= from),
    );
    expect(part.adjustments.filter((a) => a.index === null)).toEqual(whole.adjustments.filter((a) => a.index === null));
    expect(part.skipped.filter((s) => s.index >= from)).toEqual(whole.skipped.filter((s) => s.index >= from));
  });
});
