// renderHistory: what a vendor API would receive as input at a given point of a canonical timeline.
import type { CanonicalEvent, ToolDeclaration } from "../formats/canonical";
import { stringifyJsonLossless } from "../formats/lossless-json";
import {
  prepareHistory,
  type Adjustment,
  type PreparedHistory,
  type RenderOptions,
  type ReplayVendor,
  type SkippedEvent,
} from "./history";
import { renderAnthropic } from "./render-anthropic";
import { renderGemini } from "./render-gemini";
import { renderOpenAIChat } from "./render-openai-chat";
import { renderOpenAIResponses } from "./render-openai-responses";

export type { Adjustment, RenderOptions, ReplayVendor, SkippedEvent } from "./history";

export type RenderedHistory = {
  // A JSON body the vendor's API accepts as input: Anthropic {system?, messages, tools?}, Chat {messages, tools?},
  // Responses {instructions?, input, tools?}, Gemini {systemInstruction?, contents, tools?}. Numbers a double
  // cannot hold are ExactNumber values: write the body with stringifyRequest (JSON.stringify would round them).
  request: unknown;
  // Canonical ids of calls in the cut with no result in the cut. They stay in the request (the model did ask),
  // so the request is only sendable once a result for each is appended — exactly what a runtime does next.
  pendingCallIds: string[];
  // Events of the cut left out of the request, and parts sent in another form (a text reference), with the reason.
  skipped: SkippedEvent[];
  // Canonical call id → id used in the request, for ids the vendor's id pattern rejects (Anthropic only).
  renamedCallIds: Record<string, string>;
  // What was changed so the vendor accepts the history (placeholder first turn, a reused id made unique, an error
  // flag spelled into the text).
  adjustments: Adjustment[];
};

/**
 * `step` is an event count: the history at step N is events[0..N-1] (0 = nothing, events.length = everything).
 * Declarations become the request's `tools` when given. `options.sourceFormat` (the imported thread's format)
 * lets a replay into that same format put back what the canonical model does not hold.
 */
export function renderHistory(
  events: readonly CanonicalEvent[],
  step: number,
  vendor: ReplayVendor,
  declarations: readonly ToolDeclaration[] = [],
  options: RenderOptions = {},
): RenderedHistory {
  const rendered = renderVendor(events, step, vendor, declarations, options);
  // Skipped entries come from the cut and from the renderer: one list in timeline order.
  rendered.skipped.sort((a, b) => a.index - b.index || (a.part ?? -1) - (b.part ?? -1));
  return rendered;
}

function renderVendor(
  events: readonly CanonicalEvent[],
  step: number,
  vendor: ReplayVendor,
  declarations: readonly ToolDeclaration[],
  options: RenderOptions,
): RenderedHistory {
  return renderPrepared(prepareHistory(events, step), vendor, declarations, options);
}

/** Renders an already prepared cut (lib/replay/render-window renders part of one). Skipped entries are not sorted here. */
export function renderPrepared(
  history: PreparedHistory,
  vendor: ReplayVendor,
  declarations: readonly ToolDeclaration[],
  options: RenderOptions,
): RenderedHistory {
  switch (vendor) {
    case "anthropic": {
      const { request, skipped, renamedCallIds, adjustments } = renderAnthropic(history, declarations, options);
      return { request, pendingCallIds: history.pendingCallIds, skipped, renamedCallIds, adjustments };
    }
    case "openai-chat": {
      const { request, skipped, adjustments } = renderOpenAIChat(history, declarations, options);
      return { request, pendingCallIds: history.pendingCallIds, skipped, renamedCallIds: {}, adjustments };
    }
    case "openai-responses": {
      const { request, skipped, adjustments } = renderOpenAIResponses(history, declarations, options);
      return { request, pendingCallIds: history.pendingCallIds, skipped, renamedCallIds: {}, adjustments };
    }
    case "gemini": {
      const { request, skipped, adjustments } = renderGemini(history, declarations, options);
      return { request, pendingCallIds: history.pendingCallIds, skipped, renamedCallIds: {}, adjustments };
    }
  }
}

/** The request as JSON text with every number's source digits (use this, not JSON.stringify, to send it). */
export function stringifyRequest(request: unknown, indent?: number): string {
  return stringifyJsonLossless(request, indent);
}
