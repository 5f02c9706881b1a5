// OpenAI Chat Completions (and every server speaking it: vLLM, llama.cpp, Ollama): POST {baseUrl}/chat/completions
// with stream: true; `chat.completion.chunk` events folded back into a `chat.completion`.
import { isRecord, type JsonRecord } from "../formats/json-fields.ts";
import { joinUrl, parseEventData, ProviderError, type ApiAdapter, type StreamAccumulator } from "./api-adapter.ts";
import type { LiveOutput } from "./schemas.ts";
import { openAIChatUsage } from "./usage.ts";

type ToolCallSlot = { id: string | null; type: string; name: string; arguments: string; custom: boolean };

function accumulator(): StreamAccumulator {
  let meta: JsonRecord | null = null;
  let content: string | null = null;
  let reasoning = "";
  let refusal: string | null = null;
  let finishReason: string | null = null;
  let usage: unknown = null;
  const calls = new Map<number, ToolCallSlot>();

  const acceptToolCall = (value: unknown, position: number) => {
    if (!isRecord(value)) return;
    const index = typeof value.index === "number" ? value.index : position;
    const slot = calls.get(index) ?? { id: null, type: "function", name: "", arguments: "", custom: false };
    if (typeof value.id === "string" && value.id !== "") slot.id = value.id;
    if (typeof value.type === "string") slot.type = value.type;
    const fn = isRecord(value.function) ? value.function : isRecord(value.custom) ? value.custom : null;
    if (isRecord(value.custom)) slot.custom = true;
    if (fn !== null) {
      if (typeof fn.name === "string" && fn.name !== "") slot.name = fn.name;
      if (typeof fn.arguments === "string") slot.arguments += fn.arguments;
      if (typeof fn.input === "string") slot.arguments += fn.input;
    }
    calls.set(index, slot);
  };

  const live = (): LiveOutput => ({
    text: content ?? "",
    reasoning,
    calls: [...calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, slot]) => ({ id: slot.id, name: slot.name, arguments: slot.arguments })),
  });

  return {
    accept(event) {
      if (event.data.trim() === "[DONE]") return;
      const chunk = parseEventData(event);
      if (chunk.error !== undefined) throw new ProviderError(event.data);
      meta ??= chunk;
      if (chunk.usage !== undefined && chunk.usage !== null) usage = chunk.usage;
      const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
      for (const choice of choices) {
        // One answer is asked for (n = 1); other indexes would be alternatives, not a continuation.
        if (!isRecord(choice) || (typeof choice.index === "number" && choice.index !== 0)) continue;
        if (typeof choice.finish_reason === "string") finishReason = choice.finish_reason;
        const delta = isRecord(choice.delta) ? choice.delta : {};
        if (typeof delta.content === "string") content = (content ?? "") + delta.content;
        if (typeof delta.refusal === "string") refusal = (refusal ?? "") + delta.refusal;
        // DeepSeek and vLLM name it reasoning_content; Ollama and OpenRouter name it reasoning.
        if (typeof delta.reasoning_content === "string") reasoning += delta.reasoning_content;
        else if (typeof delta.reasoning === "string") reasoning += delta.reasoning;
        if (Array.isArray(delta.tool_calls)) delta.tool_calls.forEach(acceptToolCall);
      }
    },
    live,
    finish() {
      if (meta === null) throw new ProviderError("The stream ended before any answer arrived");
      const message: JsonRecord = { role: "assistant", content };
      if (refusal !== null) message.refusal = refusal;
      if (reasoning !== "") message.reasoning_content = reasoning;
      const toolCalls = [...calls.entries()]
        .sort(([a], [b]) => a - b)
        .map(([index, slot]) => {
          const id = slot.id ?? `call_${index}`;
          return slot.custom
            ? { id, type: "custom", custom: { name: slot.name, input: slot.arguments } }
            : { id, type: "function", function: { name: slot.name, arguments: slot.arguments } };
        });
      if (toolCalls.length > 0) message.tool_calls = toolCalls;
      const response: JsonRecord = {
        id: meta.id ?? null,
        object: "chat.completion",
        created: meta.created ?? null,
        model: meta.model ?? null,
        choices: [{ index: 0, message, finish_reason: finishReason }],
      };
      if (meta.system_fingerprint !== undefined) response.system_fingerprint = meta.system_fingerprint;
      if (usage !== null) response.usage = usage;
      return { response, usage: openAIChatUsage(usage), stopReason: finishReason, live: live() };
    },
  };
}

export const openAIChatAdapter: ApiAdapter = {
  api: "openai-chat",
  request(target, history) {
    const body: JsonRecord = { model: target.model, ...history, stream: true, stream_options: { include_usage: true } };
    if (target.maxTokens !== undefined) body.max_tokens = target.maxTokens;
    return {
      url: joinUrl(target.baseUrl, "chat/completions"),
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body,
    };
  },
  authHeaders: (key) => ({ authorization: `Bearer ${key}` }),
  accumulator,
};
