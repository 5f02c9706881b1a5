// renderHistory: what a vendor API would receive as input at a given point of a canonical timeline.
import type { CanonicalEvent, ToolDeclaration } from "../formats/canonical";
import { prepareHistory, type ReplayVendor, type SkippedEvent } from "./history";
import { renderAnthropic } from "./render-anthropic";
import { renderGemini } from "./render-gemini";
import { renderOpenAIChat } from "./render-openai-chat";
import { renderOpenAIResponses } from "./render-openai-responses";

export type { ReplayVendor, SkippedEvent } from "./history";

export type RenderedHistory = {
  // A JSON body the vendor's API accepts as input: Anthropic {system?, messages, tools?}, Chat {messages, tools?},
  // Responses {input, tools?}, Gemini {systemInstruction?, contents, tools?}.
  request: unknown;
  // Canonical ids of calls in the cut with no result in the cut. They stay in the request (the model did ask),
  // so the request is only sendable once a result for each is appended — exactly what a runtime does next.
  pendingCallIds: string[];
  // Events of the cut left out of the request, with the reason (orphan results, unreplayable reasoning, …).
  skipped: SkippedEvent[];
  // Canonical call id → id used in the request, for ids the vendor's id pattern rejects (Anthropic only).
  renamedCallIds: Record<string, string>;
};

/**
 * `step` is an event count: the history at step N is events[0..N-1] (0 = nothing, events.length = everything).
 * Declarations become the request's `tools` when given.
 */
export function renderHistory(
  events: readonly CanonicalEvent[],
  step: number,
  vendor: ReplayVendor,
  declarations: readonly ToolDeclaration[] = [],
): RenderedHistory {
  const history = prepareHistory(events, step);
  switch (vendor) {
    case "anthropic": {
      const { request, skipped, renamedCallIds } = renderAnthropic(history, declarations);
      return { request, pendingCallIds: history.pendingCallIds, skipped, renamedCallIds };
    }
    case "openai-chat": {
      const { request, skipped } = renderOpenAIChat(history, declarations);
      return { request, pendingCallIds: history.pendingCallIds, skipped, renamedCallIds: {} };
    }
    case "openai-responses": {
      const { request, skipped } = renderOpenAIResponses(history, declarations);
      return { request, pendingCallIds: history.pendingCallIds, skipped, renamedCallIds: {} };
    }
    case "gemini": {
      const { request, skipped } = renderGemini(history, declarations);
      return { request, pendingCallIds: history.pendingCallIds, skipped, renamedCallIds: {} };
    }
  }
}
