// Anthropic Messages: POST {baseUrl}/messages with stream: true; message_start, content_block_* and message_delta
// events folded back into the Message object.
import { isRecord, type JsonRecord } from "../formats/json-fields.ts";
import { joinUrl, parseEventData, ProviderError, type ApiAdapter, type StreamAccumulator } from "./api-adapter.ts";
import { DEFAULT_ANTHROPIC_MAX_TOKENS, type LiveOutput } from "./schemas.ts";
import { anthropicUsage } from "./usage.ts";

export const ANTHROPIC_VERSION = "2023-06-01";

function accumulator(): StreamAccumulator {
  let message: JsonRecord | null = null;
  let usage: JsonRecord = {};
  let stopReason: string | null = null;
  let stopSequence: unknown = null;
  const blocks = new Map<number, JsonRecord>();
  // tool_use input arrives as JSON text in pieces; it is parsed when its block stops.
  const partialJson = new Map<number, string>();

  const appendText = (block: JsonRecord, key: string, delta: unknown) => {
    if (typeof delta === "string") block[key] = `${typeof block[key] === "string" ? block[key] : ""}${delta}`;
  };

  const ordered = () => [...blocks.entries()].sort(([a], [b]) => a - b);

  const live = (): LiveOutput => {
    let text = "";
    let reasoning = "";
    const calls: LiveOutput["calls"] = [];
    for (const [index, block] of ordered()) {
      if (block.type === "text" && typeof block.text === "string") text += block.text;
      if (block.type === "thinking" && typeof block.thinking === "string") reasoning += block.thinking;
      if (block.type === "tool_use") {
        const args = partialJson.get(index) ?? JSON.stringify(block.input ?? {});
        calls.push({ id: typeof block.id === "string" ? block.id : null, name: typeof block.name === "string" ? block.name : "", arguments: args });
      }
    }
    return { text, reasoning, calls };
  };

  const closeBlock = (index: number) => {
    const block = blocks.get(index);
    const json = partialJson.get(index);
    if (block === undefined || json === undefined) return;
    partialJson.delete(index);
    if (json.trim() === "") return;
    try {
      block.input = JSON.parse(json);
    } catch {
      throw new ProviderError(`The tool_use block ${String(block.id)} ended with input that is not JSON: ${json.slice(0, 2000)}`);
    }
  };

  return {
    accept(event) {
      const data = parseEventData(event);
      const type = typeof data.type === "string" ? data.type : (event.event ?? "");
      switch (type) {
        case "error":
          throw new ProviderError(event.data);
        case "message_start":
          if (isRecord(data.message)) {
            message = { ...data.message };
            if (isRecord(data.message.usage)) usage = { ...data.message.usage };
          }
          return;
        case "content_block_start":
          if (typeof data.index === "number" && isRecord(data.content_block)) {
            blocks.set(data.index, { ...data.content_block });
            if (data.content_block.type === "tool_use" || data.content_block.type === "server_tool_use") partialJson.set(data.index, "");
          }
          return;
        case "content_block_delta": {
          const block = typeof data.index === "number" ? blocks.get(data.index) : undefined;
          const delta = isRecord(data.delta) ? data.delta : {};
          if (block === undefined || typeof data.index !== "number") return;
          if (delta.type === "text_delta") appendText(block, "text", delta.text);
          else if (delta.type === "thinking_delta") appendText(block, "thinking", delta.thinking);
          else if (delta.type === "signature_delta") appendText(block, "signature", delta.signature);
          else if (delta.type === "input_json_delta" && typeof delta.partial_json === "string") {
            partialJson.set(data.index, (partialJson.get(data.index) ?? "") + delta.partial_json);
          }
          return;
        }
        case "content_block_stop":
          if (typeof data.index === "number") closeBlock(data.index);
          return;
        case "message_delta":
          if (isRecord(data.delta)) {
            if (typeof data.delta.stop_reason === "string") stopReason = data.delta.stop_reason;
            if (data.delta.stop_sequence !== undefined) stopSequence = data.delta.stop_sequence;
          }
          // Counts in message_delta are cumulative: they replace the ones from message_start.
          if (isRecord(data.usage)) usage = { ...usage, ...data.usage };
          return;
        default:
          // ping, message_stop
          return;
      }
    },
    live,
    finish() {
      if (message === null) throw new ProviderError("The stream ended before any answer arrived");
      for (const index of [...partialJson.keys()]) closeBlock(index);
      const response: JsonRecord = { ...message, content: ordered().map(([, block]) => block), stop_reason: stopReason, stop_sequence: stopSequence, usage };
      return { response, usage: anthropicUsage(usage), stopReason, live: live() };
    },
  };
}

export const anthropicAdapter: ApiAdapter = {
  api: "anthropic",
  request(target, history) {
    const body: JsonRecord = { model: target.model, max_tokens: target.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS, ...history, stream: true };
    return {
      url: joinUrl(target.baseUrl, "messages"),
      headers: { "content-type": "application/json", accept: "text/event-stream", "anthropic-version": ANTHROPIC_VERSION },
      body,
    };
  },
  authHeaders: (key) => ({ "x-api-key": key }),
  accumulator,
};
