// Anthropic Messages: POST {baseUrl}/messages with stream: true; message_start, content_block_* and message_delta
// events folded back into the Message object.
import { isRecord, type JsonRecord } from "../formats/json-fields.ts";
import { joinUrl, parseEventData, ProviderError, type ApiAdapter, type StreamAccumulator } from "./api-adapter.ts";
import { DEFAULT_ANTHROPIC_MAX_TOKENS, type LiveOutput, type ModelAnswer } from "./schemas.ts";
import { anthropicUsage } from "./usage.ts";

export const ANTHROPIC_VERSION = "2023-06-01";

function appendText(block: JsonRecord, key: string, delta: unknown): void {
  if (typeof delta === "string") block[key] = `${typeof block[key] === "string" ? block[key] : ""}${delta}`;
}

/** The stream's state: the message from message_start, content blocks by index, tool_use input still arriving. */
class AnthropicStream implements StreamAccumulator {
  private message: JsonRecord | null = null;
  private usage: JsonRecord = {};
  private stopReason: string | null = null;
  private stopSequence: unknown = null;
  private readonly blocks = new Map<number, JsonRecord>();
  // tool_use input arrives as JSON text in pieces; it is parsed when its block stops.
  private readonly partialJson = new Map<number, string>();

  private ordered(): [number, JsonRecord][] {
    return [...this.blocks.entries()].sort(([a], [b]) => a - b);
  }

  live(): LiveOutput {
    let text = "";
    let reasoning = "";
    const calls: LiveOutput["calls"] = [];
    for (const [index, block] of this.ordered()) {
      if (block.type === "text" && typeof block.text === "string") text += block.text;
      if (block.type === "thinking" && typeof block.thinking === "string") reasoning += block.thinking;
      if (block.type === "tool_use") {
        const args = this.partialJson.get(index) ?? JSON.stringify(block.input ?? {});
        calls.push({
          id: typeof block.id === "string" ? block.id : null,
          name: typeof block.name === "string" ? block.name : "",
          arguments: args,
        });
      }
    }
    return { text, reasoning, calls };
  }

  private closeBlock(index: number): void {
    const block = this.blocks.get(index);
    const json = this.partialJson.get(index);
    if (block === undefined || json === undefined) return;
    this.partialJson.delete(index);
    if (json.trim() === "") return;
    try {
      block.input = JSON.parse(json);
    } catch {
      throw new ProviderError(
        `The tool_use block ${String(block.id)} ended with input that is not JSON: ${json.slice(0, 2000)}`,
      );
    }
  }

  private delta(data: JsonRecord): void {
    const block = typeof data.index === "number" ? this.blocks.get(data.index) : undefined;
    const delta = isRecord(data.delta) ? data.delta : {};
    if (block === undefined || typeof data.index !== "number") return;
    if (delta.type === "text_delta") appendText(block, "text", delta.text);
    else if (delta.type === "thinking_delta") appendText(block, "thinking", delta.thinking);
    else if (delta.type === "signature_delta") appendText(block, "signature", delta.signature);
    else if (delta.type === "input_json_delta" && typeof delta.partial_json === "string") {
      this.partialJson.set(data.index, (this.partialJson.get(data.index) ?? "") + delta.partial_json);
    }
  }

  accept(event: Parameters<StreamAccumulator["accept"]>[0]): void {
    const data = parseEventData(event);
    const type = typeof data.type === "string" ? data.type : (event.event ?? "");
    switch (type) {
      case "error":
        throw new ProviderError(event.data);
      case "message_start":
        if (isRecord(data.message)) {
          this.message = { ...data.message };
          if (isRecord(data.message.usage)) this.usage = { ...data.message.usage };
        }
        return;
      case "content_block_start":
        if (typeof data.index === "number" && isRecord(data.content_block)) {
          this.blocks.set(data.index, { ...data.content_block });
          if (data.content_block.type === "tool_use" || data.content_block.type === "server_tool_use")
            this.partialJson.set(data.index, "");
        }
        return;
      case "content_block_delta":
        return this.delta(data);
      case "content_block_stop":
        if (typeof data.index === "number") this.closeBlock(data.index);
        return;
      case "message_delta":
        if (isRecord(data.delta)) {
          if (typeof data.delta.stop_reason === "string") this.stopReason = data.delta.stop_reason;
          if (data.delta.stop_sequence !== undefined) this.stopSequence = data.delta.stop_sequence;
        }
        // Counts in message_delta are cumulative: they replace the ones from message_start.
        if (isRecord(data.usage)) this.usage = { ...this.usage, ...data.usage };
        return;
      default:
      // ping, message_stop
    }
  }

  finish(): ModelAnswer {
    if (this.message === null) throw new ProviderError("The stream ended before any answer arrived");
    for (const index of [...this.partialJson.keys()]) this.closeBlock(index);
    const content = this.ordered().map(([, block]) => block);
    const response: JsonRecord = {
      ...this.message,
      content,
      stop_reason: this.stopReason,
      stop_sequence: this.stopSequence,
      usage: this.usage,
    };
    return { response, usage: anthropicUsage(this.usage), stopReason: this.stopReason, live: this.live() };
  }
}

function accumulator(): StreamAccumulator {
  return new AnthropicStream();
}

export const anthropicAdapter: ApiAdapter = {
  api: "anthropic",
  request(target, history) {
    const body: JsonRecord = {
      model: target.model,
      max_tokens: target.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
      ...history,
      stream: true,
    };
    return {
      url: joinUrl(target.baseUrl, "messages"),
      headers: {
        "content-type": "application/json",
        accept: "text/event-stream",
        "anthropic-version": ANTHROPIC_VERSION,
      },
      body,
    };
  },
  authHeaders: (key) => ({ "x-api-key": key }),
  accumulator,
};
