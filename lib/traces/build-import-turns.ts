// Response metadata of an imported transcript (model, response id, stop reason, usage) as model_turn rows, placed
// before the output each response produced. The row's data_json carries the turn's figures, so an export holds
// them and an import of that export writes the same turns (repository/write-thread.ts → lib/model-turns).
import type { ResponseMeta } from "../formats/canonical.ts";
import type { TurnFigures } from "../model-turns/records.ts";
import { MODEL_TURN_EVENT } from "../model-turns/schemas.ts";
import { anthropicUsage, geminiUsage, openAIChatUsage, openAIResponsesUsage } from "../models/usage.ts";
import { json, type EventDraft } from "./build-import-rows.ts";
import { IMPORT_SOURCE } from "./event-kinds.ts";

const USAGE_READERS = {
  anthropic: anthropicUsage,
  "openai-chat": openAIChatUsage,
  "openai-responses": openAIResponsesUsage,
  gemini: geminiUsage,
} as const;

export function responseFigures(meta: ResponseMeta): TurnFigures {
  const usage = meta.usage === undefined ? null : USAGE_READERS[meta.api](meta.usage);
  return {
    model: meta.model ?? null,
    responseId: meta.responseId ?? null,
    stopReason: meta.stopReason ?? null,
    inputTokens: usage?.inputTokens ?? null,
    outputTokens: usage?.outputTokens ?? null,
    totalTokens: usage?.totalTokens ?? null,
    cachedInputTokens: usage?.cachedInputTokens ?? null,
    reasoningTokens: usage?.reasoningTokens ?? null,
    usage: meta.usage ?? null,
    error: null,
  };
}

function turnRow(meta: ResponseMeta, at: string): EventDraft {
  return {
    kind: "event",
    type: MODEL_TURN_EVENT,
    call_key: null,
    result: null,
    step: meta.step,
    role: "assistant",
    text: null,
    data_json: json({ path: meta.path, turn: responseFigures(meta) }),
    raw_json: null,
    source: IMPORT_SOURCE,
    occurred_at: at,
  };
}

/** The timeline rows with each response's turn row before the first row of its output. */
export function withTurnRows(
  timeline: EventDraft[],
  responses: readonly ResponseMeta[] | undefined,
  at: string,
): EventDraft[] {
  if (!responses || responses.length === 0) return timeline;
  const out: EventDraft[] = [];
  let next = 0;
  const sorted = [...responses].sort((a, b) => a.atEvent - b.atEvent);
  timeline.forEach((row, index) => {
    while (next < sorted.length && (sorted[next]?.atEvent ?? Infinity) <= index)
      out.push(turnRow(sorted[next++] as ResponseMeta, at));
    out.push(row);
  });
  for (; next < sorted.length; next += 1) {
    const meta = sorted[next];
    if (meta) out.push(turnRow(meta, at));
  }
  return out;
}
