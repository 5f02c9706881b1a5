// Renders a history cut as an OpenAI Chat Completions request body: {messages, tools?}.
import type { ContentBlock, ToolDeclaration } from "../formats/canonical";
import type { JsonRecord } from "../formats/json-fields";
import type { PreparedHistory, SkippedEvent } from "./history";

type AssistantEntry = { kind: "assistant"; texts: string[]; toolCalls: JsonRecord[]; results: JsonRecord[] };
type Entry = { kind: "message"; message: JsonRecord } | AssistantEntry;

export type RenderedOpenAIChat = { request: JsonRecord; skipped: SkippedEvent[] };

/**
 * Pairing rules kept here: each `role: "tool"` message follows the assistant message whose tool_calls holds its
 * tool_call_id, in one unbroken run of tool messages; a result that arrived after other messages is moved up,
 * because the API rejects an assistant tool_calls message not answered right away.
 */
export function renderOpenAIChat(history: PreparedHistory, declarations: readonly ToolDeclaration[]): RenderedOpenAIChat {
  const skipped: SkippedEvent[] = [...history.skipped];
  const entries: Entry[] = [];
  const callEntry = new Map<string, AssistantEntry>();
  // The assistant message that model output joins; any input (user text, tool result) closes it.
  let open: AssistantEntry | undefined;

  const assistant = (): AssistantEntry => {
    if (open !== undefined) return open;
    open = { kind: "assistant", texts: [], toolCalls: [], results: [] };
    entries.push(open);
    return open;
  };

  for (const { event, index } of history.items) {
    switch (event.kind) {
      case "message":
        if (event.role === "assistant") {
          assistant().texts.push(event.text);
        } else {
          open = undefined;
          entries.push({ kind: "message", message: { role: event.role, content: userContent(event.text, event.content) } });
        }
        break;
      case "reasoning":
        skipped.push({ index, reason: "Chat Completions has no reasoning input" });
        break;
      case "tool_call": {
        const entry = assistant();
        entry.toolCalls.push(
          event.input === "text"
            ? { id: event.callId, type: "custom", custom: { name: event.name, input: event.argumentsText } }
            : { id: event.callId, type: "function", function: { name: event.name, arguments: event.argumentsText } },
        );
        callEntry.set(event.callId, entry);
        break;
      }
      case "tool_result":
        open = undefined;
        callEntry.get(event.callId)?.results.push({ role: "tool", tool_call_id: event.callId, content: event.text });
        break;
    }
  }

  const messages = entries.flatMap((entry): JsonRecord[] => {
    if (entry.kind === "message") return [entry.message];
    const message: JsonRecord = { role: "assistant", content: entry.texts.length > 0 ? entry.texts.join("\n") : null };
    if (entry.toolCalls.length > 0) message.tool_calls = entry.toolCalls;
    return [message, ...entry.results];
  });

  const request: JsonRecord = { messages };
  if (declarations.length > 0) {
    request.tools = declarations.map((declaration) => {
      const fn: JsonRecord = { name: declaration.name };
      if (declaration.description !== undefined) fn.description = declaration.description;
      fn.parameters = declaration.inputSchema ?? { type: "object", properties: {} };
      return { type: "function", function: fn };
    });
  }
  return { request, skipped };
}

// Images travel as data URLs in content parts; text-only content stays a plain string.
function userContent(text: string, content: ContentBlock[] | undefined): string | JsonRecord[] {
  if (content === undefined) return text;
  return content.flatMap((block): JsonRecord[] => {
    if (block.type === "text") return [{ type: "text", text: block.text }];
    if (block.type === "image") return [{ type: "image_url", image_url: { url: `data:${block.mimeType};base64,${block.data}` } }];
    return [];
  });
}
