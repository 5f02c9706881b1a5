// Test helpers for replay requests rendered in part (lib/replay/render-window's partial turns): what such a
// request must hold, stated from the events, and the pairing of results with calls in a vendor request.
import type { CanonicalEvent } from "../formats/canonical";
import { isRecord } from "../formats/json-fields";
import { HISTORY_ARRAY_KEY } from "../replay/render-window";
import type { ReplayVendor } from "../replay/history";

/**
 * What a partly rendered turn must be, stated from the events: the head (system messages and the opening item),
 * the calls that results from `from` on answer, and every event from `from` to the step.
 */
export function partialExpectation(events: readonly CanonicalEvent[], step: number, from: number) {
  const answeredLater = new Set(
    events.slice(from, step).flatMap((event) => (event.kind === "tool_result" ? [event.callId] : [])),
  );
  const opening = events.findIndex((event) => !(event.kind === "message" && event.role === "system"));
  const kept = events
    .slice(0, from)
    .filter(
      (event, index) =>
        (event.kind === "message" && event.role === "system") ||
        index === opening ||
        (event.kind === "tool_call" && answeredLater.has(event.callId)),
    );
  // The turn: the run of model output around the first kept call (or the one running into `from`).
  const isOutput = (event: CanonicalEvent | undefined) =>
    event !== undefined &&
    (event.kind === "tool_call" ||
      event.kind === "reasoning" ||
      (event.kind === "message" && event.role === "assistant"));
  const firstKeptCall = events.findIndex(
    (event, index) => index < from && event.kind === "tool_call" && answeredLater.has(event.callId),
  );
  let first = firstKeptCall >= 0 ? firstKeptCall : from - 1;
  while (first > 0 && isOutput(events[first - 1])) first -= 1;
  let last = first;
  while (last + 1 < step && isOutput(events[last + 1])) last += 1;
  const turn = events.slice(first, last + 1);
  const before = events.slice(first, Math.min(from, last + 1));
  const callsBefore = before.filter((event) => event.kind === "tool_call").length;
  const shownBefore = before.filter(
    (event) => event.kind === "tool_call" && (answeredLater.has(event.callId) || events.indexOf(event) === opening),
  ).length;
  return {
    events: [...kept, ...events.slice(from, step)],
    turn: {
      first,
      calls: turn.filter((event) => event.kind === "tool_call").length,
      shownCalls: turn.filter((event) => event.kind === "tool_call").length - (callsBefore - shownBefore),
      omittedCalls: callsBefore - shownBefore,
      omittedOther:
        before.filter((event) => event.kind !== "tool_call").length -
        (opening >= first && opening < from && events[opening]?.kind !== "tool_call" ? 1 : 0),
    },
  };
}

/** The call ids a request holds and the ids its results answer, in order, and whether each result sits where its vendor wants it. */
export function pairing(
  request: unknown,
  vendor: ReplayVendor,
): { calls: string[]; results: string[]; misplaced: string[] } {
  const out = { calls: [] as string[], results: [] as string[], misplaced: [] as string[] };
  const items = isRecord(request) ? request[HISTORY_ARRAY_KEY[vendor]] : undefined;
  if (!Array.isArray(items)) return out;
  const records = items.filter(isRecord);
  const blocks = (item: Record<string, unknown>, key: string) =>
    Array.isArray(item[key]) ? item[key].filter(isRecord) : [];
  records.forEach((item, position) => {
    const previous = records[position - 1];
    if (vendor === "anthropic") {
      for (const block of blocks(item, "content")) {
        if (block.type === "tool_use") out.calls.push(String(block.id));
        if (block.type !== "tool_result") continue;
        out.results.push(String(block.tool_use_id));
        if (!(
          previous !== undefined &&
          blocks(previous, "content").some((b) => b.type === "tool_use" && b.id === block.tool_use_id)
        ))
          out.misplaced.push(String(block.tool_use_id));
      }
    } else if (vendor === "gemini") {
      for (const part of blocks(item, "parts")) {
        const fn = isRecord(part.functionCall) ? part.functionCall : undefined;
        const response = isRecord(part.functionResponse) ? part.functionResponse : undefined;
        if (fn !== undefined) out.calls.push(String(fn.id));
        if (response === undefined) continue;
        out.results.push(String(response.id));
        if (!(
          previous !== undefined &&
          blocks(previous, "parts").some((p) => isRecord(p.functionCall) && p.functionCall.id === response.id)
        ))
          out.misplaced.push(String(response.id));
      }
    } else if (vendor === "openai-chat") {
      for (const toolCall of blocks(item, "tool_calls")) out.calls.push(String(toolCall.id));
      if (item.role !== "tool") return;
      out.results.push(String(item.tool_call_id));
      let k = position - 1;
      while (k >= 0 && records[k]?.role === "tool") k -= 1;
      const assistant = records[k];
      if (!(
        assistant !== undefined && blocks(assistant, "tool_calls").some((toolCall) => toolCall.id === item.tool_call_id)
      ))
        out.misplaced.push(String(item.tool_call_id));
    } else {
      if (item.type === "function_call") out.calls.push(String(item.call_id));
      if (item.type !== "function_call_output") return;
      out.results.push(String(item.call_id));
      if (!out.calls.includes(String(item.call_id))) out.misplaced.push(String(item.call_id));
    }
  });
  return out;
}
