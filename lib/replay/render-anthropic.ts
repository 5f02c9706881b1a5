// Renders a history cut as an Anthropic Messages API request body: {system?, messages, tools?}.
import type { ContentBlock, ToolDeclaration } from "../formats/canonical";
import { isRecord, type JsonRecord } from "../formats/json-fields";
import { objectArguments, type PreparedHistory, type SkippedEvent } from "./history";

type Message = { role: "user" | "assistant"; results: JsonRecord[]; blocks: JsonRecord[] };

export type RenderedAnthropic = { request: JsonRecord; skipped: SkippedEvent[]; renamedCallIds: Record<string, string> };

// Anthropic tool_use ids must match this pattern; synthetic ids such as `get_weather#0` do not.
const ANTHROPIC_ID = /^[a-zA-Z0-9_-]+$/;

/**
 * Pairing rules kept here: every tool_result sits in the user message right after the assistant message holding
 * its tool_use, and before any other block of that message. A result that arrived later in the timeline is moved
 * there, because Anthropic rejects the request otherwise. System messages are hoisted to the `system` field.
 */
export function renderAnthropic(history: PreparedHistory, declarations: readonly ToolDeclaration[]): RenderedAnthropic {
  const skipped: SkippedEvent[] = [...history.skipped];
  const ids = new IdRenamer();
  const system: JsonRecord[] = [];
  const messages: Message[] = [];
  const callMessage = new Map<string, number>();

  const assistantMessage = (): Message => {
    const last = messages.at(-1);
    if (last?.role === "assistant") return last;
    const created: Message = { role: "assistant", results: [], blocks: [] };
    messages.push(created);
    return created;
  };
  const userMessage = (): Message => {
    const last = messages.at(-1);
    if (last?.role === "user") return last;
    const created: Message = { role: "user", results: [], blocks: [] };
    messages.push(created);
    return created;
  };

  for (const item of history.items) {
    const { event, index } = item;
    switch (event.kind) {
      case "message": {
        if (event.role === "system") {
          system.push({ type: "text", text: event.text });
          break;
        }
        const blocks = messageBlocks(event.text, event.content, event.role === "user");
        if (blocks.length === 0) {
          skipped.push({ index, reason: "message with no content Anthropic accepts (empty text, or media in an assistant turn)" });
          break;
        }
        (event.role === "assistant" ? assistantMessage() : userMessage()).blocks.push(...blocks);
        break;
      }
      case "reasoning":
        // Anthropic verifies thinking blocks by their signature; only its own signed blocks can be sent back.
        if (isRecord(event.raw) && ((event.raw.type === "thinking" && typeof event.raw.signature === "string") || event.raw.type === "redacted_thinking")) {
          assistantMessage().blocks.push(event.raw);
        } else {
          skipped.push({ index, reason: "reasoning without an Anthropic signature cannot be replayed" });
        }
        break;
      case "tool_call": {
        const message = assistantMessage();
        message.blocks.push({ type: "tool_use", id: ids.rename(event.callId), name: event.name, input: objectArguments(event) });
        // assistantMessage() always returns the last message.
        callMessage.set(event.callId, messages.length - 1);
        break;
      }
      case "tool_result": {
        const callIndex = callMessage.get(event.callId);
        if (callIndex === undefined) break;
        let target = messages[callIndex + 1];
        if (target === undefined) {
          target = { role: "user", results: [], blocks: [] };
          messages.push(target);
        }
        const block: JsonRecord = { type: "tool_result", tool_use_id: ids.rename(event.callId), content: resultContent(event.text, event.content) };
        if (event.isError) block.is_error = true;
        target.results.push(block);
        break;
      }
    }
  }

  const request: JsonRecord = {};
  if (system.length > 0) request.system = system;
  request.messages = messages.map((message) => ({ role: message.role, content: [...message.results, ...message.blocks] }));
  if (declarations.length > 0) {
    request.tools = declarations.map((declaration) => {
      const tool: JsonRecord = { name: declaration.name };
      if (declaration.description !== undefined) tool.description = declaration.description;
      tool.input_schema = declaration.inputSchema ?? { type: "object", properties: {} };
      return tool;
    });
  }
  return { request, skipped, renamedCallIds: ids.renamed };
}

function messageBlocks(text: string, content: ContentBlock[] | undefined, mediaAllowed: boolean): JsonRecord[] {
  if (content === undefined) return text === "" ? [] : [{ type: "text", text }];
  return content.flatMap((block): JsonRecord[] => {
    if (block.type === "text") return block.text === "" ? [] : [{ type: "text", text: block.text }];
    if (block.type === "image" && mediaAllowed) return [imageBlock(block.mimeType, block.data)];
    return [];
  });
}

// A result with images needs the block form; otherwise the plain string keeps the text byte-for-byte.
function resultContent(text: string, content: ContentBlock[] | undefined): string | JsonRecord[] {
  if (content === undefined || !content.some((block) => block.type === "image")) return text;
  return content.map((block): JsonRecord => {
    if (block.type === "text") return { type: "text", text: block.text };
    if (block.type === "image") return imageBlock(block.mimeType, block.data);
    return { type: "text", text: JSON.stringify(block.type === "unknown" ? block.raw : block) };
  });
}

function imageBlock(mimeType: string, data: string): JsonRecord {
  return { type: "image", source: { type: "base64", media_type: mimeType, data } };
}

class IdRenamer {
  readonly renamed: Record<string, string> = {};
  private readonly used = new Set<string>();
  private readonly assigned = new Map<string, string>();

  rename(callId: string): string {
    const known = this.assigned.get(callId);
    if (known !== undefined) return known;
    let id = ANTHROPIC_ID.test(callId) ? callId : callId.replace(/[^a-zA-Z0-9_-]/g, "_");
    while (this.used.has(id)) id = `${id}_`;
    this.used.add(id);
    this.assigned.set(callId, id);
    if (id !== callId) this.renamed[callId] = id;
    return id;
  }
}
