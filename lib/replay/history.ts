// The history cut shared by every replay renderer: which events are in, how results pair with calls, what is pending.
import type {
  CanonicalEvent,
  MessageEvent,
  ReasoningEvent,
  ToolCallEvent,
  ToolResultEvent,
} from "../formats/canonical";
import { isRecord, type JsonRecord } from "../formats/json-fields";

export type ReplayVendor = "anthropic" | "openai-chat" | "openai-responses" | "gemini";

// An event of the cut that a renderer left out, and why (timeline index = position in the events array).
export type SkippedEvent = { index: number; reason: string };

// `call` is set exactly on tool_result items: the earlier call in the cut that the result answers.
export type HistoryItem = {
  index: number;
  event: MessageEvent | ReasoningEvent | ToolCallEvent | ToolResultEvent;
  call?: ToolCallEvent;
};

export type PreparedHistory = {
  items: HistoryItem[];
  pendingCallIds: string[];
  skipped: SkippedEvent[];
};

/**
 * History "at step N" is the first N events of the timeline (events[0..N-1]): step 0 is the empty history,
 * step events.length the whole trace. N counts events, not model turns, so a replay can stop between two
 * parallel calls or between a call and its result.
 *
 * Vendor APIs reject results that answer nothing, so the cut keeps only results that pair with an earlier call
 * in the cut, once. A call settled by an error event (an MCP protocol error, a cancellation) gets an error result
 * carrying that message, because every vendor needs a result for each call. Calls with no result in the cut
 * stay in the history and are listed as pending.
 */
export function prepareHistory(events: readonly CanonicalEvent[], step: number): PreparedHistory {
  if (!Number.isInteger(step) || step < 0) throw new RangeError(`step must be a non-negative integer, got ${step}`);
  const cut = events.slice(0, step);
  const calls = new Map<string, ToolCallEvent>();
  const answered = new Set<string>();
  const items: HistoryItem[] = [];
  const skipped: SkippedEvent[] = [];

  cut.forEach((event, index) => {
    switch (event.kind) {
      case "message":
      case "reasoning":
        items.push({ index, event });
        return;
      case "tool_call":
        if (calls.has(event.callId)) {
          skipped.push({ index, reason: `duplicate call id ${event.callId}` });
          return;
        }
        calls.set(event.callId, event);
        items.push({ index, event });
        return;
      case "tool_result": {
        const call = calls.get(event.callId);
        if (call === undefined) skipped.push({ index, reason: `result for unknown call ${event.callId}` });
        else if (answered.has(event.callId)) skipped.push({ index, reason: `second result for call ${event.callId}` });
        else {
          answered.add(event.callId);
          items.push({ index, event, call });
        }
        return;
      }
      case "error": {
        const call = event.callId === undefined ? undefined : calls.get(event.callId);
        if (call === undefined || answered.has(call.callId)) {
          skipped.push({ index, reason: `${event.layer} error is not part of the model-visible history` });
          return;
        }
        answered.add(call.callId);
        const text = event.message.startsWith("Error") ? event.message : `Error: ${event.message}`;
        const result: ToolResultEvent = {
          kind: "tool_result",
          step: event.step,
          callId: call.callId,
          text,
          isError: true,
          raw: event.raw,
          path: event.path,
        };
        items.push({ index, event: result, call });
      }
    }
  });

  const pendingCallIds = [...calls.keys()].filter((callId) => !answered.has(callId));
  return { items, pendingCallIds, skipped };
}

// Anthropic and Gemini take tool input as a JSON object; text input, invalid JSON and non-object JSON are wrapped.
export function objectArguments(call: ToolCallEvent): JsonRecord {
  return call.input === "json" && isRecord(call.arguments) ? call.arguments : { input: call.argumentsText };
}
