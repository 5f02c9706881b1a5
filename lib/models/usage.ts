// Token usage from each API's own usage object, read defensively: providers that speak an API's dialect
// (vLLM, Ollama, llama.cpp) report subsets of it.
import { isRecord } from "../formats/json-fields.ts";
import { EMPTY_USAGE, type TokenUsage } from "./schemas.ts";

function count(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;
}

function nested(record: Record<string, unknown>, key: string, inner: string): number | null {
  const value = record[key];
  return isRecord(value) ? count(value[inner]) : null;
}

function sum(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a + b;
}

/** Chat Completions: {prompt_tokens, completion_tokens, total_tokens, prompt_tokens_details.cached_tokens, completion_tokens_details.reasoning_tokens}. */
export function openAIChatUsage(usage: unknown): TokenUsage {
  if (!isRecord(usage)) return EMPTY_USAGE;
  const inputTokens = count(usage.prompt_tokens);
  const outputTokens = count(usage.completion_tokens);
  return {
    inputTokens,
    outputTokens,
    totalTokens: count(usage.total_tokens) ?? sum(inputTokens, outputTokens),
    cachedInputTokens: nested(usage, "prompt_tokens_details", "cached_tokens"),
    reasoningTokens: nested(usage, "completion_tokens_details", "reasoning_tokens"),
    raw: usage,
  };
}

/** Responses: {input_tokens, output_tokens, total_tokens, input_tokens_details.cached_tokens, output_tokens_details.reasoning_tokens}. */
export function openAIResponsesUsage(usage: unknown): TokenUsage {
  if (!isRecord(usage)) return EMPTY_USAGE;
  const inputTokens = count(usage.input_tokens);
  const outputTokens = count(usage.output_tokens);
  return {
    inputTokens,
    outputTokens,
    totalTokens: count(usage.total_tokens) ?? sum(inputTokens, outputTokens),
    cachedInputTokens: nested(usage, "input_tokens_details", "cached_tokens"),
    reasoningTokens: nested(usage, "output_tokens_details", "reasoning_tokens"),
    raw: usage,
  };
}

/**
 * Anthropic: input_tokens excludes cached input, so the input figure here adds cache reads and writes back in
 * (what the prompt really was); cache reads are also reported on their own.
 */
export function anthropicUsage(usage: unknown): TokenUsage {
  if (!isRecord(usage)) return EMPTY_USAGE;
  const uncached = count(usage.input_tokens);
  const cacheRead = count(usage.cache_read_input_tokens);
  const cacheWrite = count(usage.cache_creation_input_tokens);
  const inputTokens = uncached === null ? null : uncached + (cacheRead ?? 0) + (cacheWrite ?? 0);
  const outputTokens = count(usage.output_tokens);
  return {
    inputTokens,
    outputTokens,
    totalTokens: sum(inputTokens, outputTokens),
    cachedInputTokens: cacheRead,
    reasoningTokens: null,
    raw: usage,
  };
}

/** Gemini usageMetadata: {promptTokenCount, candidatesTokenCount, totalTokenCount, cachedContentTokenCount, thoughtsTokenCount}. */
export function geminiUsage(usage: unknown): TokenUsage {
  if (!isRecord(usage)) return EMPTY_USAGE;
  const inputTokens = count(usage.promptTokenCount);
  const candidates = count(usage.candidatesTokenCount);
  const thoughts = count(usage.thoughtsTokenCount);
  // Thinking tokens are billed as output but reported apart from the candidates.
  const outputTokens = candidates === null && thoughts === null ? null : (candidates ?? 0) + (thoughts ?? 0);
  return {
    inputTokens,
    outputTokens,
    totalTokens: count(usage.totalTokenCount) ?? sum(inputTokens, outputTokens),
    cachedInputTokens: count(usage.cachedContentTokenCount),
    reasoningTokens: thoughts,
    raw: usage,
  };
}
