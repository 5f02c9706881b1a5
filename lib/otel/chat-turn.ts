// One model call span as a model turn's figures (lib/model-turns): model, response id, stop reason, tokens
// (GenAI conventions, the Vercel AI SDK's ai.* attributes, OpenInference), its observed duration. Pure.
import type { TurnFigures } from "../model-turns/records.ts";
import { nanosToMillis } from "./otlp-types.ts";
import { numberAttribute } from "./span-messages.ts";
import { spanError, stringAttribute, type ChatView } from "./span-views.ts";

function firstNumber(attributes: ChatView["span"]["attributes"], keys: readonly string[]): number | null {
  for (const key of keys) {
    const value = numberAttribute(attributes, key);
    if (value !== null) return value;
  }
  return null;
}

function firstString(attributes: ChatView["span"]["attributes"], keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = stringAttribute(attributes, key);
    if (value !== null) return value;
  }
  return null;
}

function stopReason(chat: ChatView): string | null {
  const reasons = chat.span.attributes["gen_ai.response.finish_reasons"];
  if (Array.isArray(reasons)) {
    const strings = reasons.filter((reason): reason is string => typeof reason === "string");
    if (strings.length > 0) return strings.join(", ");
  }
  return (
    (typeof reasons === "string" ? reasons : null) ??
    firstString(chat.span.attributes, ["ai.response.finishReason", "llm.finish_reason"]) ??
    chat.output?.find((message) => message.finishReason !== undefined)?.finishReason ??
    null
  );
}

/** The span's figures; input counts cached input as the conventions define it, output counts reasoning. */
export function chatTurnFigures(chat: ChatView): TurnFigures {
  const attributes = chat.span.attributes;
  const usage = chat.usage;
  const inputTokens = usage.input_tokens ?? null;
  const outputTokens = usage.output_tokens ?? null;
  const error = spanError(chat.span);
  return {
    model: chat.model,
    responseId: firstString(attributes, ["gen_ai.response.id", "ai.response.id"]),
    stopReason: stopReason(chat),
    inputTokens,
    outputTokens,
    totalTokens:
      usage.total_tokens ?? (inputTokens === null || outputTokens === null ? null : inputTokens + outputTokens),
    cachedInputTokens:
      usage.cache_read_input_tokens ?? firstNumber(attributes, ["llm.token_count.prompt_details.cache_read"]),
    reasoningTokens:
      usage.reasoning_output_tokens ?? firstNumber(attributes, ["llm.token_count.completion_details.reasoning"]),
    usage: Object.keys(usage).length > 0 ? usage : null,
    error: error === null ? null : error.message,
  };
}

/** The span's duration in milliseconds, from its nanosecond times. */
export function chatDurationMs(chat: ChatView): number {
  return Math.max(0, nanosToMillis(chat.span.endNs) - nanosToMillis(chat.span.startNs));
}
