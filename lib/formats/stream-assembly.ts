// Streamed responses assembled into the items the non-streaming API would have returned: Anthropic Messages
// stream events, Chat Completions chunks, Responses stream events, Gemini Interactions SSE events. Deltas are
// concatenated per block / tool call / item (parallel calls interleave; arguments arrive split over chunks) and
// parsed when the block is complete. Each assembled item remembers the events it came from (`[first:last]`).
import { FormatError } from "./format-error";
import { childPath, isRecord, parseJson, type JsonRecord } from "./json-fields";

// partPaths: where each content block (Anthropic) or tool call (Chat) of the item came from.
export type AssembledItem = { item: JsonRecord; path: string; partPaths?: string[] };
export type Assembled = { items: AssembledItem[]; issues: { path: string; message: string; raw?: unknown }[] };

const ANTHROPIC_EVENTS = new Set([
  "message_start",
  "content_block_start",
  "content_block_delta",
  "content_block_stop",
  "message_delta",
  "message_stop",
  "ping",
  "error",
]);

export function isAnthropicStreamEvent(value: unknown): boolean {
  return (
    isRecord(value) &&
    typeof value.type === "string" &&
    ANTHROPIC_EVENTS.has(value.type) &&
    (value.type !== "error" || isRecord(value.error)) &&
    value.type !== "message"
  );
}

export function isChatChunk(value: unknown): boolean {
  return (
    isRecord(value) &&
    (value.object === "chat.completion.chunk" ||
      (Array.isArray(value.choices) && value.choices.some((choice) => isRecord(choice) && isRecord(choice.delta))))
  );
}

export function isResponsesStreamEvent(value: unknown): boolean {
  return isRecord(value) && typeof value.type === "string" && value.type.startsWith("response.");
}

export function isInteractionsStreamEvent(value: unknown): boolean {
  return (
    isRecord(value) &&
    typeof value.event_type === "string" &&
    (value.event_type.startsWith("interaction.") || value.event_type.startsWith("step."))
  );
}

function span(first: number, last: number): string {
  return first === last ? `[${first}]` : `[${first}:${last}]`;
}

function appendString(record: JsonRecord, key: string, delta: unknown): void {
  if (typeof delta !== "string") return;
  record[key] = `${typeof record[key] === "string" ? record[key] : ""}${delta}`;
}

// Tool input JSON arrives in pieces; it is parsed once the block is complete. A cut stream (max_tokens) leaves
// invalid JSON: the call keeps an empty input and the issue keeps the text.
function finishJson(partial: string, path: string, issues: Assembled["issues"]): JsonRecord {
  if (partial.trim() === "") return {};
  const parsed = parseJson(partial);
  if (parsed.ok && isRecord(parsed.value)) return parsed.value;
  issues.push({
    path,
    message: `tool input incomplete or not a JSON object (${parsed.ok ? "not an object" : parsed.error}); kept as {}`,
    raw: partial,
  });
  return {};
}

/** Anthropic Messages stream events (message_start … message_stop) → one assistant message per message_start. */
export function assembleAnthropicStream(events: readonly unknown[]): Assembled {
  const issues: Assembled["issues"] = [];
  const items: AssembledItem[] = [];
  let message: JsonRecord | undefined;
  let messageStart = 0;
  let blocks: { block: JsonRecord; json: string; first: number; last: number }[] = [];
  const close = (last: number) => {
    if (message === undefined) return;
    message.content = blocks.map(({ block, json, first }) => {
      if (block.type === "tool_use" || block.type === "server_tool_use")
        block.input = json === "" && isRecord(block.input) ? block.input : finishJson(json, span(first, last), issues);
      return block;
    });
    items.push({
      item: message,
      path: span(messageStart, last),
      partPaths: blocks.map(({ first, last: end }) => span(first, end)),
    });
    message = undefined;
    blocks = [];
  };
  events.forEach((value, index) => {
    if (!isRecord(value)) throw new FormatError(childPath("", index), "expected a stream event object");
    switch (value.type) {
      case "message_start":
        close(index - 1);
        message = { ...(isRecord(value.message) ? value.message : { role: "assistant" }), content: [] };
        messageStart = index;
        return;
      case "content_block_start": {
        const at = typeof value.index === "number" ? value.index : blocks.length;
        const block = isRecord(value.content_block) ? { ...value.content_block } : { type: "text", text: "" };
        blocks[at] = { block, json: "", first: index, last: index };
        return;
      }
      case "content_block_delta": {
        const entry = typeof value.index === "number" ? blocks[value.index] : undefined;
        const delta = isRecord(value.delta) ? value.delta : {};
        if (entry === undefined) {
          issues.push({
            path: childPath("", index),
            message: "delta for a content block that never started",
            raw: value,
          });
          return;
        }
        entry.last = index;
        if (delta.type === "text_delta") appendString(entry.block, "text", delta.text);
        else if (delta.type === "input_json_delta")
          entry.json += typeof delta.partial_json === "string" ? delta.partial_json : "";
        else if (delta.type === "thinking_delta") appendString(entry.block, "thinking", delta.thinking);
        else if (delta.type === "signature_delta") entry.block.signature = delta.signature;
        else if (delta.type === "citations_delta")
          entry.block.citations = [
            ...(Array.isArray(entry.block.citations) ? entry.block.citations : []),
            delta.citation,
          ];
        else
          issues.push({ path: childPath("", index), message: `unmapped delta type ${String(delta.type)}`, raw: value });
        return;
      }
      case "content_block_stop": {
        const entry = typeof value.index === "number" ? blocks[value.index] : undefined;
        if (entry !== undefined) entry.last = index;
        return;
      }
      case "message_delta":
        if (message !== undefined && isRecord(value.delta)) Object.assign(message, value.delta);
        // The final counts (output_tokens, and input/cache counts where the API repeats them) come here, not
        // in message_start: a count the delta leaves null keeps message_start's.
        if (message !== undefined && isRecord(value.usage)) {
          const usage: JsonRecord = isRecord(message.usage) ? { ...message.usage } : {};
          for (const [key, count] of Object.entries(value.usage)) if (count !== null) usage[key] = count;
          message.usage = usage;
        }
        return;
      case "message_stop":
        close(index);
        return;
      case "ping":
        return;
      case "error":
        issues.push({
          path: childPath("", index),
          message: `stream error: ${isRecord(value.error) ? String(value.error.message) : "unknown"}`,
          raw: value,
        });
        return;
      default:
        issues.push({ path: childPath("", index), message: `unmapped stream event ${String(value.type)}`, raw: value });
    }
  });
  close(events.length - 1);
  return { items, issues };
}

type ChatCall = { call: JsonRecord; fn: JsonRecord; first: number; last: number };

/** Chat Completions chunks → one assistant message per completion id (choice 0; other choices are issues). */
export function assembleChatChunks(chunks: readonly unknown[]): Assembled {
  const issues: Assembled["issues"] = [];
  const items: AssembledItem[] = [];
  let current:
    { id: unknown; message: JsonRecord; calls: ChatCall[]; first: number; last: number; finished: boolean } | undefined;
  const close = () => {
    if (current === undefined) return;
    const { message, calls, first, last } = current;
    if (!current.finished)
      issues.push({
        path: span(first, last),
        message: "the stream was cut: no chunk carried a finish_reason, so the answer may be incomplete",
      });
    if (calls.length > 0) message.tool_calls = calls.map(({ call }) => call);
    items.push({
      item: message,
      path: span(first, last),
      partPaths: calls.map(({ first: start, last: end }) => span(start, end)),
    });
    current = undefined;
  };
  chunks.forEach((value, index) => {
    if (!isRecord(value) || !Array.isArray(value.choices))
      throw new FormatError(childPath("", index), "expected a chat.completion.chunk object");
    if (current === undefined || (value.id !== undefined && value.id !== current.id)) {
      close();
      current = {
        id: value.id,
        message: { role: "assistant", content: null },
        calls: [],
        first: index,
        last: index,
        finished: false,
      };
    }
    current.last = index;
    for (const choice of value.choices) {
      if (!isRecord(choice) || !isRecord(choice.delta)) continue;
      if (choice.index !== undefined && choice.index !== 0) {
        issues.push({
          path: childPath("", index),
          message: `only choice 0 of a streamed completion is mapped (got choice ${String(choice.index)})`,
          raw: value,
        });
        continue;
      }
      if (typeof choice.finish_reason === "string") current.finished = true;
      const delta = choice.delta;
      if (typeof delta.content === "string") appendString(current.message, "content", delta.content);
      if (typeof delta.refusal === "string") appendString(current.message, "refusal", delta.refusal);
      if (typeof delta.reasoning_content === "string")
        appendString(current.message, "reasoning_content", delta.reasoning_content);
      if (Array.isArray(delta.tool_calls)) {
        for (const part of delta.tool_calls) {
          if (!isRecord(part)) continue;
          const at = typeof part.index === "number" ? part.index : current.calls.length;
          let entry = current.calls[at];
          if (entry === undefined) {
            const fn: JsonRecord = { name: "", arguments: "" };
            entry = { call: { id: "", type: "function", function: fn }, fn, first: index, last: index };
            current.calls[at] = entry;
          }
          entry.last = index;
          if (typeof part.id === "string") entry.call.id = part.id;
          if (typeof part.type === "string") entry.call.type = part.type;
          const fnDelta = isRecord(part.function) ? part.function : {};
          if (typeof fnDelta.name === "string") appendString(entry.fn, "name", fnDelta.name);
          if (typeof fnDelta.arguments === "string") appendString(entry.fn, "arguments", fnDelta.arguments);
        }
      }
    }
  });
  close();
  return { items, issues };
}

/** Responses stream events → the output items of each response (output_item.done when present, else the deltas). */
export function assembleResponsesEvents(events: readonly unknown[]): Assembled {
  const issues: Assembled["issues"] = [];
  const items: AssembledItem[] = [];
  let outputs: { item: JsonRecord; first: number; last: number; done: boolean }[] = [];
  const close = () => {
    for (const entry of outputs)
      if (entry !== undefined) items.push({ item: entry.item, path: span(entry.first, entry.last) });
    outputs = [];
  };
  const at = (value: JsonRecord, index: number) => {
    const output = typeof value.output_index === "number" ? outputs[value.output_index] : undefined;
    if (output !== undefined) output.last = index;
    return output;
  };
  events.forEach((value, index) => {
    if (!isRecord(value) || typeof value.type !== "string")
      throw new FormatError(childPath("", index), "expected a Responses stream event object");
    const type = value.type;
    if (type === "response.created") {
      close();
      return;
    }
    if (type === "response.output_item.added" && isRecord(value.item) && typeof value.output_index === "number") {
      outputs[value.output_index] = { item: { ...value.item }, first: index, last: index, done: false };
      return;
    }
    const output = at(value, index);
    if (type === "response.output_item.done" && isRecord(value.item)) {
      if (output !== undefined) Object.assign(output, { item: value.item, done: true });
      else if (typeof value.output_index === "number")
        outputs[value.output_index] = { item: value.item, first: index, last: index, done: true };
      return;
    }
    if (output === undefined || output.done) return;
    const item = output.item;
    if (type === "response.function_call_arguments.delta") appendString(item, "arguments", value.delta);
    else if (type === "response.function_call_arguments.done") item.arguments = value.arguments;
    else if (type === "response.custom_tool_call_input.delta") appendString(item, "input", value.delta);
    else if (type === "response.custom_tool_call_input.done") item.input = value.input;
    else if (
      type === "response.output_text.delta" ||
      type === "response.refusal.delta" ||
      type === "response.reasoning_summary_text.delta"
    ) {
      const key = type === "response.reasoning_summary_text.delta" ? "summary" : "content";
      const position =
        typeof (key === "summary" ? value.summary_index : value.content_index) === "number"
          ? Number(key === "summary" ? value.summary_index : value.content_index)
          : 0;
      const parts = Array.isArray(item[key]) ? (item[key] as unknown[]) : [];
      const part = isRecord(parts[position])
        ? parts[position]
        : {
            type: key === "summary" ? "summary_text" : type === "response.refusal.delta" ? "refusal" : "output_text",
            text: "",
          };
      appendString(part, type === "response.refusal.delta" ? "refusal" : "text", value.delta);
      parts[position] = part;
      item[key] = parts;
    }
  });
  close();
  return { items, issues };
}

/** Gemini Interactions SSE events → the steps of each interaction (step.start + step.delta, step.stop). */
export function assembleInteractionsEvents(events: readonly unknown[]): Assembled {
  const issues: Assembled["issues"] = [];
  const items: AssembledItem[] = [];
  let steps: { step: JsonRecord; json: string; first: number; last: number }[] = [];
  const close = () => {
    for (const entry of steps) {
      if (entry === undefined) continue;
      if (entry.step.type === "function_call" && entry.json !== "")
        entry.step.arguments = finishJson(entry.json, span(entry.first, entry.last), issues);
      items.push({ item: entry.step, path: span(entry.first, entry.last) });
    }
    steps = [];
  };
  events.forEach((value, index) => {
    if (!isRecord(value)) throw new FormatError(childPath("", index), "expected an Interactions stream event object");
    if (value.event_type === "interaction.created") {
      close();
      return;
    }
    const position = typeof value.index === "number" ? value.index : -1;
    if (value.event_type === "step.start" && isRecord(value.step)) {
      steps[position] = { step: { ...value.step }, json: "", first: index, last: index };
      return;
    }
    const entry = steps[position];
    if (entry === undefined) return;
    entry.last = index;
    if (value.event_type !== "step.delta" || !isRecord(value.delta)) return;
    const delta = value.delta;
    const step = entry.step;
    if (delta.type === "arguments_delta") entry.json += typeof delta.arguments === "string" ? delta.arguments : "";
    else if (delta.type === "text" && (step.type === "model_output" || step.type === "user_input")) {
      const content = Array.isArray(step.content) ? step.content : [];
      const last = content.at(-1);
      if (isRecord(last) && last.type === "text") appendString(last, "text", delta.text);
      else content.push({ type: "text", text: typeof delta.text === "string" ? delta.text : "" });
      step.content = content;
    } else if (delta.type === "thought_signature") step.signature = delta.signature;
    else if (delta.type === "thought_summary" && isRecord(delta.content))
      step.summary = [...(Array.isArray(step.summary) ? step.summary : []), delta.content];
    else if (delta.type === "function_result")
      Object.assign(step, {
        result: delta.result,
        ...(delta.is_error === undefined ? {} : { is_error: delta.is_error }),
      });
    else if (["image", "audio", "document", "video"].includes(String(delta.type)))
      step.content = [...(Array.isArray(step.content) ? step.content : []), delta];
  });
  close();
  return { items, issues };
}

/** Paths of a parsed assembled item point at its parts' events: `[0:12].content[1]` becomes `[3:7]`. */
export function partPathMap(items: readonly AssembledItem[], partKey: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const { path, partPaths } of items) {
    partPaths?.forEach((partPath, index) => map.set(childPath(childPath(path, partKey), index), partPath));
  }
  return map;
}
