// renderHistoryTail renders the same end of the request as rendering the whole history, in every encoding, at
// every kind of step: results next to their calls (a bounded window) and results far from their calls (the window
// grows until it holds them), with a system prompt and the opening turn before the window.
import { describe, expect, it } from "vitest";
import type { CanonicalEvent } from "../formats/canonical";
import { isRecord } from "../formats/json-fields";
import { renderHistory, type ReplayVendor } from "./render-history";
import { HISTORY_ARRAY_KEY, renderHistoryTail } from "./render-window";

const VENDORS: ReplayVendor[] = ["anthropic", "openai-chat", "openai-responses", "gemini"];
const SHOWN = 20;

function message(role: "system" | "user" | "assistant", text: string, step: number): CanonicalEvent {
  return { kind: "message", role, text, step, raw: text, path: `m${step}` };
}
function call(id: string, step: number): CanonicalEvent {
  return { kind: "tool_call", callId: id, name: "get_weather", input: "json", argumentsText: JSON.stringify({ city: id }), syntheticId: false, step, raw: null, path: `c${id}` };
}
function result(id: string, step: number): CanonicalEvent {
  return { kind: "tool_result", callId: id, text: `sunny in ${id}`, isError: id.endsWith("7"), step, raw: null, path: `r${id}` };
}

/** Turns of two parallel calls answered right away, with model text between: results stay near their calls. */
function agentTurns(turns: number): CanonicalEvent[] {
  const events = [message("system", "Be brief.", 0), message("user", "Weather everywhere?", 0)];
  for (let t = 0; t < turns; t++) {
    events.push(call(`a${t}`, t), call(`b${t}`, t), result(`b${t}`, t), result(`a${t}`, t), message("assistant", `Turn ${t} done.`, t));
    if (t % 5 === 4) events.push(message("user", `Go on after ${t}.`, t));
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

function tail(request: unknown, vendor: ReplayVendor): unknown {
  if (!isRecord(request)) return request;
  const items = request[HISTORY_ARRAY_KEY[vendor]];
  return { ...request, [HISTORY_ARRAY_KEY[vendor]]: Array.isArray(items) ? items.slice(-SHOWN) : items };
}

describe.each(VENDORS)("renderHistoryTail into %s", (vendor) => {
  const histories = { "agent turns": agentTurns(400), "calls then results": callsThenResults(600) };

  it.each(Object.keys(histories))("ends exactly as the whole request (%s), at every step tried", (name) => {
    const events = histories[name as keyof typeof histories];
    for (const step of [0, 1, 7, 100, 1001, Math.floor(events.length / 2), events.length - 3, events.length]) {
      const whole = renderHistory(events, step, vendor);
      const part = renderHistoryTail(events, step, vendor, [], { minItems: SHOWN });
      expect(tail(part.request, vendor)).toEqual(tail(whole.request, vendor));
      expect(part.pendingCallIds).toEqual(whole.pendingCallIds);
      if (part.renderedFrom === null) expect(part.request).toEqual(whole.request);
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
    expect(part.adjustments.filter((a) => a.index === null || a.index >= from)).toEqual(whole.adjustments.filter((a) => a.index === null || a.index >= from));
    expect(part.adjustments.filter((a) => a.index === null)).toEqual(whole.adjustments.filter((a) => a.index === null));
    expect(part.skipped.filter((s) => s.index >= from)).toEqual(whole.skipped.filter((s) => s.index >= from));
  });
});
