// Renders a history cut as an OpenAI Responses API request body: {input, tools?} (system messages stay input items).
import type { ContentBlock, ToolDeclaration } from "../formats/canonical";
import { isRecord, type JsonRecord } from "../formats/json-fields";
import type { PreparedHistory, SkippedEvent } from "./history";

export type RenderedOpenAIResponses = { request: JsonRecord; skipped: SkippedEvent[] };

/**
 * Pairing rules kept here: function_call / custom_tool_call items carry the canonical call id as `call_id` (the
 * item id, when known, as `id`), and each *_output item carries the same call_id after its call. Responses does
 * not require adjacency, so items keep timeline order — which also keeps reasoning items right before the calls
 * they produced, as reasoning models require.
 */
export function renderOpenAIResponses(history: PreparedHistory, declarations: readonly ToolDeclaration[]): RenderedOpenAIResponses {
  const skipped: SkippedEvent[] = [...history.skipped];
  const input: JsonRecord[] = [];

  for (const item of history.items) {
    const { event, index } = item;
    switch (event.kind) {
      case "message":
        input.push({ role: event.role, content: messageContent(event.role, event.text, event.content) });
        break;
      case "reasoning":
        // Reasoning items are provider artifacts (id, encrypted_content); only the API's own items can go back.
        if (isRecord(event.raw) && event.raw.type === "reasoning" && typeof event.raw.id === "string") input.push(event.raw);
        else skipped.push({ index, reason: "reasoning that is not a Responses reasoning item cannot be replayed" });
        break;
      case "tool_call": {
        const call: JsonRecord =
          event.input === "text"
            ? { type: "custom_tool_call", call_id: event.callId, name: event.name, input: event.argumentsText }
            : { type: "function_call", call_id: event.callId, name: event.name, arguments: event.argumentsText };
        if (event.itemId !== undefined) call.id = event.itemId;
        input.push(call);
        break;
      }
      case "tool_result":
        input.push({
          type: item.call?.input === "text" ? "custom_tool_call_output" : "function_call_output",
          call_id: event.callId,
          output: event.text,
        });
        break;
    }
  }

  const request: JsonRecord = { input };
  if (declarations.length > 0) {
    request.tools = declarations.map((declaration) => {
      const tool: JsonRecord = { type: "function", name: declaration.name };
      if (declaration.description !== undefined) tool.description = declaration.description;
      tool.parameters = declaration.inputSchema ?? { type: "object", properties: {} };
      return tool;
    });
  }
  return { request, skipped };
}

function messageContent(role: string, text: string, content: ContentBlock[] | undefined): string | JsonRecord[] {
  if (content === undefined || role === "assistant") return text;
  return content.flatMap((block): JsonRecord[] => {
    if (block.type === "text") return [{ type: "input_text", text: block.text }];
    if (block.type === "image") return [{ type: "input_image", image_url: `data:${block.mimeType};base64,${block.data}` }];
    return [];
  });
}
