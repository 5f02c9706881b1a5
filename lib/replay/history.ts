// The history cut shared by every replay renderer: which events are in, how results pair with calls, what is pending.
import type {
  CanonicalEvent,
  ContentBlock,
  FormatName,
  MessageEvent,
  ReasoningEvent,
  ToolCallEvent,
  ToolResultEvent,
} from "../formats/canonical";
import { isRecord, parseJson, type JsonRecord } from "../formats/json-fields";

export type ReplayVendor = "anthropic" | "openai-chat" | "openai-responses" | "gemini";

/**
 * An event of the cut that a renderer left out, or a part of it (`part`: index into its content blocks) that was
 * not sent in its own form, and why (timeline index = position in the events array).
 */
export type SkippedEvent = { index: number; reason: string; part?: number };

/** A change a renderer made so the vendor accepts the history: a placeholder turn, an id made unique, an error flag spelled out. */
export type Adjustment = { index: number | null; change: string };

export type RenderOptions = {
  /**
   * The format the events were read from (an imported thread's format). Replaying into the same format puts back
   * what the canonical model does not hold: item fields (cache_control, item ids, status), block options
   * (detail, citations), declarations as written. Null or absent for live threads.
   */
  sourceFormat?: FormatName | null;
};

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
  adjustments: Adjustment[];
};

/**
 * History "at step N" is the first N events of the timeline (events[0..N-1]): step 0 is the empty history,
 * step events.length the whole trace. N counts events, not model turns, so a replay can stop between two
 * parallel calls or between a call and its result.
 *
 * Vendor APIs reject results that answer nothing, so the cut keeps only results that pair with an earlier call
 * in the cut, once. Ids are turn-scoped: a call id used again after its call was answered names a new call (local
 * OpenAI-compatible servers emit call_0 in every turn), and later results pair with the newest call of that id.
 * A call settled by an error event (an MCP protocol error, a cancellation) gets an error result carrying that
 * message, because every vendor needs a result for each call. Calls with no result in the cut stay in the
 * history and are listed as pending.
 */
export function prepareHistory(events: readonly CanonicalEvent[], step: number): PreparedHistory {
  if (!Number.isInteger(step) || step < 0) throw new RangeError(`step must be a non-negative integer, got ${step}`);
  const cut = events.slice(0, step);
  const calls = new Map<string, ToolCallEvent>();
  const order: ToolCallEvent[] = [];
  const answered = new Set<ToolCallEvent>();
  const items: HistoryItem[] = [];
  const skipped: SkippedEvent[] = [];
  const adjustments: Adjustment[] = [];

  cut.forEach((event, index) => {
    switch (event.kind) {
      case "message":
      case "reasoning":
        items.push({ index, event });
        return;
      case "tool_call": {
        const earlier = calls.get(event.callId);
        if (earlier !== undefined && !answered.has(earlier)) {
          skipped.push({
            index,
            reason: `duplicate call id ${event.callId} while the earlier call is still unanswered`,
          });
          return;
        }
        calls.set(event.callId, event);
        order.push(event);
        items.push({ index, event });
        return;
      }
      case "tool_result": {
        const call = calls.get(event.callId);
        if (call === undefined) skipped.push({ index, reason: `result for unknown call ${event.callId}` });
        else if (answered.has(call)) skipped.push({ index, reason: `second result for call ${event.callId}` });
        else {
          answered.add(call);
          items.push({ index, event, call });
        }
        return;
      }
      case "error": {
        const call = event.callId === undefined ? undefined : calls.get(event.callId);
        if (call === undefined || answered.has(call)) {
          skipped.push({ index, reason: `${event.layer} error is not part of the model-visible history` });
          return;
        }
        answered.add(call);
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
        return;
      }
      case "protocol": {
        // The callback protocol's oauth message settles its call: the model is told authorization was asked for.
        const call = event.method === "oauth" && event.callId !== undefined ? calls.get(event.callId) : undefined;
        if (call !== undefined && !answered.has(call)) {
          answered.add(call);
          const result: ToolResultEvent = {
            kind: "tool_result",
            step: event.step,
            callId: call.callId,
            text: `Authorization required: the user was asked to authorize at ${event.text}`,
            isError: false,
            raw: event.raw,
            path: event.path,
          };
          items.push({ index, event: result, call });
          adjustments.push({
            index,
            change:
              "the tool sent an oauth message instead of a result: the call is answered with a text saying authorization was requested",
          });
          return;
        }
        skipped.push({ index, reason: `${event.method}: protocol traffic, not part of the model-visible history` });
      }
    }
  });

  const pendingCallIds = order.filter((call) => !answered.has(call)).map((call) => call.callId);
  return { items, pendingCallIds, skipped, adjustments };
}

/**
 * Anthropic and Gemini take tool input as a JSON object; text input, invalid JSON and non-object JSON are wrapped.
 * The object is parsed from the arguments text, so numbers a double cannot hold keep their digits.
 */
export function objectArguments(call: ToolCallEvent): JsonRecord {
  if (call.input !== "json") return { input: call.argumentsText };
  const parsed = parseJson(call.argumentsText);
  return parsed.ok && isRecord(parsed.value) ? parsed.value : { input: call.argumentsText };
}

/**
 * Whether a failed result must be spelled out as one for vendors with no error flag (Chat, Responses): it failed
 * and its text does not already start with "Error" (the callback protocol's convention).
 */
export function needsErrorPrefix(result: ToolResultEvent): boolean {
  if (!result.isError) return false;
  const first = result.content?.[0];
  const text = result.content === undefined ? result.text : first?.type === "text" ? first.text : "";
  return !/^\s*error\b/i.test(text);
}

/**
 * The blocks a renderer writes, or undefined to write the plain text: text-only content from another format is
 * sent as its text (one string, as most APIs expect); the same format keeps its parts as they were.
 */
export function blocksToSend(content: ContentBlock[] | undefined, sameFormat: boolean): ContentBlock[] | undefined {
  if (content === undefined) return undefined;
  return sameFormat || content.some((block) => block.type !== "text") ? content : undefined;
}

/**
 * The source message an event was one block of (`messages[0]` for `messages[0].content[2]`), or undefined when the
 * event is a whole message. Blocks of one source message are sent as one message again.
 */
export function sourceMessageOf(path: string): string | undefined {
  const match = /^(.*)\.(?:content|parts)\[\d+\]$/.exec(path);
  return match?.[1];
}

// Placeholder for a history that starts with a model turn: Anthropic and Gemini require a user turn first.
export const PLACEHOLDER_USER_TEXT =
  "(Replay: the recorded history begins with a model turn; this user turn was added so the API accepts it.)";
