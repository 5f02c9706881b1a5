// Renders a history cut as an OpenAI Chat Completions request body: {messages, tools?}.
import type { MessageEvent, ToolCallEvent, ToolDeclaration, ToolResultEvent } from "../formats/canonical";
import { isRecord, type JsonRecord } from "../formats/json-fields";
import type { BlockContext } from "./block-context";
import {
  blocksToSend,
  needsErrorPrefix,
  sourceMessageOf,
  type Adjustment,
  type HistoryItem,
  type PreparedHistory,
  type RenderOptions,
  type SkippedEvent,
} from "./history";
import { chatParts } from "./openai-blocks";
import { jsonSchemaOf } from "./tool-schema";

type AssistantEntry = {
  kind: "assistant";
  texts: string[];
  parts: JsonRecord[];
  refusal?: string;
  toolCalls: JsonRecord[];
  results: JsonRecord[];
  raw?: JsonRecord;
};
type Entry = { kind: "message"; message: JsonRecord } | AssistantEntry;

export type RenderedOpenAIChat = { request: JsonRecord; skipped: SkippedEvent[]; adjustments: Adjustment[] };

/**
 * Pairing rules kept here: each `role: "tool"` message follows the assistant message whose tool_calls holds its
 * tool_call_id, in one unbroken run of tool messages; a result that arrived after other messages is moved up,
 * because the API rejects an assistant tool_calls message not answered right away. Ids may repeat across turns.
 * Chat has no error flag: an error result whose text does not say so is sent as "Error: <text>" (an adjustment).
 */
export function renderOpenAIChat(
  history: PreparedHistory,
  declarations: readonly ToolDeclaration[],
  options: RenderOptions = {},
): RenderedOpenAIChat {
  const writer = new ChatWriter(history, options);
  for (const item of history.items) writer.add(item);
  return writer.finish(declarations);
}

class ChatWriter {
  private readonly skipped: SkippedEvent[];
  private readonly adjustments: Adjustment[];
  private readonly same: boolean;
  private readonly entries: Entry[] = [];
  private readonly callEntry = new Map<ToolCallEvent, AssistantEntry>();
  // The assistant message that model output joins; any input (user text, tool result) closes it.
  private open: AssistantEntry | undefined;
  // The last input message and the source message its blocks came from, so further blocks of it join it.
  private input: { message: JsonRecord; source: string } | undefined;

  constructor(
    history: PreparedHistory,
    private readonly options: RenderOptions,
  ) {
    this.skipped = [...history.skipped];
    this.adjustments = [...history.adjustments];
    this.same = options.sourceFormat === "openai-chat";
  }

  add(item: HistoryItem): void {
    const { event, index } = item;
    const raw = this.same && isRecord(event.raw) ? event.raw : undefined;
    switch (event.kind) {
      case "message":
        if (event.role === "assistant") this.addAssistantText(event, index, raw);
        else this.addInput(event, index, raw);
        return;
      case "reasoning":
        this.skipped.push({ index, reason: "Chat Completions has no reasoning input" });
        return;
      case "tool_call": {
        const entry = this.assistant(raw?.role === "assistant" ? raw : undefined);
        entry.toolCalls.push(toolCall(event, raw));
        this.callEntry.set(event, entry);
        return;
      }
      case "tool_result":
        this.open = undefined;
        if (item.call !== undefined) this.addResult(event, item.call, index, raw);
    }
  }

  finish(declarations: readonly ToolDeclaration[]): RenderedOpenAIChat {
    const messages = this.entries.flatMap((entry): JsonRecord[] => {
      if (entry.kind === "message") return [entry.message];
      // DeepSeek-style reasoning_content must not go back (and Chat has no reasoning input): it is left out.
      const base =
        entry.raw === undefined
          ? {}
          : Object.fromEntries(
              Object.entries(entry.raw).filter(([key]) => key !== "reasoning_content" && key !== "tool_calls"),
            );
      const message: JsonRecord = {
        ...base,
        role: "assistant",
        content: entry.parts.length > 0 ? entry.parts : entry.texts.length > 0 ? entry.texts.join("\n") : null,
      };
      if (entry.refusal !== undefined) message.refusal = entry.refusal;
      if (entry.toolCalls.length > 0) message.tool_calls = entry.toolCalls;
      return [message, ...entry.results];
    });
    const request: JsonRecord = { messages };
    if (declarations.length > 0) request.tools = declarations.map((declaration) => chatTool(declaration, this.same));
    return { request, skipped: this.skipped, adjustments: this.adjustments };
  }

  private context(index: number, where: string): BlockContext {
    return {
      index,
      where,
      skipped: this.skipped,
      target: "openai-chat",
      sourceFormat: this.options.sourceFormat ?? null,
    };
  }

  // Model output of one source message (its text, calls, refusal) makes one assistant message again.
  private assistant(raw: JsonRecord | undefined): AssistantEntry {
    const open = this.open;
    if (open !== undefined && (raw === undefined || open.raw === undefined || open.raw === raw)) {
      open.raw ??= raw;
      return open;
    }
    const created: AssistantEntry = { kind: "assistant", texts: [], parts: [], toolCalls: [], results: [] };
    if (raw !== undefined) created.raw = raw;
    this.entries.push(created);
    this.open = created;
    return created;
  }

  private addAssistantText(event: MessageEvent, index: number, raw: JsonRecord | undefined): void {
    const entry = this.assistant(raw?.role === "assistant" ? raw : undefined);
    if (raw !== undefined && event.path.endsWith(".refusal")) {
      entry.refusal = event.text;
      return;
    }
    const send = blocksToSend(event.content, this.same);
    if (send !== undefined)
      entry.parts.push(...chatParts(send, this.context(index, "a Chat Completions assistant message"), false));
    else entry.texts.push(event.text);
  }

  // User and system input; blocks of one source message (an Anthropic message's text and images) make one message.
  private addInput(event: MessageEvent, index: number, raw: JsonRecord | undefined): void {
    this.open = undefined;
    const source = sourceMessageOf(event.path);
    const send = blocksToSend(event.content, this.same);
    const parts = () =>
      chatParts(
        event.content ?? [{ type: "text", text: event.text }],
        this.context(index, `a Chat Completions ${event.role} message`),
        event.role === "user",
      );
    const last = this.entries.at(-1);
    if (
      source !== undefined &&
      this.input !== undefined &&
      this.input.source === source &&
      last?.kind === "message" &&
      last.message === this.input.message
    ) {
      const content = this.input.message.content;
      this.input.message.content = [
        ...(typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content : []),
        ...parts(),
      ];
      return;
    }
    const message = {
      ...(raw?.role !== undefined ? raw : {}),
      role: raw?.role ?? event.role,
      content: send === undefined ? event.text : parts(),
    };
    this.entries.push({ kind: "message", message });
    this.input = source === undefined ? undefined : { message, source };
  }

  private addResult(event: ToolResultEvent, call: ToolCallEvent, index: number, raw: JsonRecord | undefined): void {
    const entry = this.callEntry.get(call);
    if (entry === undefined) return;
    const base = raw?.role === "tool" ? raw : {};
    const prefix = needsErrorPrefix(event);
    if (prefix)
      this.adjustments.push({
        index,
        change: 'is_error has no Chat Completions field: the result is sent with "Error:" in front',
      });
    const send = blocksToSend(event.content, this.same);
    const content =
      send === undefined
        ? `${prefix ? "Error: " : ""}${event.text}`
        : [
            ...(prefix ? [{ type: "text", text: "Error:" }] : []),
            ...chatParts(send, this.context(index, "a Chat Completions tool message"), false),
          ];
    entry.results.push({ ...base, role: "tool", tool_call_id: event.callId, content });
  }
}

function toolCall(event: ToolCallEvent, raw: JsonRecord | undefined): JsonRecord {
  if (event.input === "text") {
    const custom = raw !== undefined && isRecord(raw.custom) ? raw.custom : {};
    return {
      ...(raw ?? {}),
      id: event.callId,
      type: "custom",
      custom: { ...custom, name: event.name, input: event.argumentsText },
    };
  }
  // A legacy function_call's raw is its whole message: only a tool call object's own fields come back.
  const own = raw !== undefined && isRecord(raw.function) ? raw : undefined;
  const fn = own !== undefined && isRecord(own.function) ? own.function : {};
  return {
    ...(own ?? {}),
    id: event.callId,
    type: "function",
    function: { ...fn, name: event.name, arguments: event.argumentsText },
  };
}

function chatTool(declaration: ToolDeclaration, same: boolean): JsonRecord {
  if (same && isRecord(declaration.raw) && (isRecord(declaration.raw.function) || isRecord(declaration.raw.custom)))
    return declaration.raw;
  const fn: JsonRecord = { name: declaration.name };
  if (declaration.description !== undefined) fn.description = declaration.description;
  fn.parameters = jsonSchemaOf(declaration.inputSchema) ?? { type: "object", properties: {} };
  // A Responses declaration's strict flag means the same here.
  if (isRecord(declaration.raw) && typeof declaration.raw.strict === "boolean") fn.strict = declaration.raw.strict;
  return { type: "function", function: fn };
}
