// Renders a history cut as an Anthropic Messages API request body: {system?, messages, tools?}.
import type { MessageEvent, ToolCallEvent, ToolDeclaration, ToolResultEvent } from "../formats/canonical";
import { isRecord, type JsonRecord } from "../formats/json-fields";
import { anthropicBlocks } from "./anthropic-blocks";
import { jsonSchemaOf } from "./tool-schema";
import type { BlockContext } from "./block-context";
import {
  blocksToSend,
  objectArguments,
  PLACEHOLDER_USER_TEXT,
  type Adjustment,
  type HistoryItem,
  type PreparedHistory,
  type RenderOptions,
  type SkippedEvent,
} from "./history";

// `plain`: the message came from one Anthropic message with string content, and is sent the same way.
type Message = { role: "user" | "assistant"; results: JsonRecord[]; blocks: JsonRecord[]; plain?: string };

export type RenderedAnthropic = {
  request: JsonRecord;
  skipped: SkippedEvent[];
  renamedCallIds: Record<string, string>;
  adjustments: Adjustment[];
};

// Anthropic tool_use ids must match this pattern; synthetic ids such as `get_weather#0` do not.
const ANTHROPIC_ID = /^[a-zA-Z0-9_-]+$/;

function without(record: JsonRecord, keys: readonly string[]): JsonRecord {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !keys.includes(key)));
}

/**
 * Pairing rules kept here: every tool_result sits in the user message right after the assistant message holding
 * its tool_use, and before any other block of that message. A result that arrived later in the timeline is moved
 * there, because Anthropic rejects the request otherwise. System messages are hoisted to the `system` field. A
 * history that starts with an assistant turn gets a placeholder user turn first (reported in adjustments).
 */
export function renderAnthropic(
  history: PreparedHistory,
  declarations: readonly ToolDeclaration[],
  options: RenderOptions = {},
): RenderedAnthropic {
  const writer = new AnthropicWriter(history, options);
  for (const item of history.items) writer.add(item);
  return writer.finish(declarations);
}

/** The request being written: system blocks, messages, and where each call's tool_use went. */
class AnthropicWriter {
  private readonly skipped: SkippedEvent[];
  private readonly adjustments: Adjustment[];
  private readonly same: boolean;
  private readonly ids: IdRenamer;
  private readonly system: JsonRecord[] = [];
  private systemString: string | undefined;
  private readonly messages: Message[] = [];
  private readonly callMessage = new Map<ToolCallEvent, Message>();

  constructor(
    history: PreparedHistory,
    private readonly options: RenderOptions,
  ) {
    this.skipped = [...history.skipped];
    this.adjustments = [...history.adjustments];
    this.same = options.sourceFormat === "anthropic";
    this.ids = new IdRenamer(this.adjustments);
  }

  add(item: HistoryItem): void {
    const { event, index } = item;
    const raw = isRecord(event.raw) ? event.raw : undefined;
    switch (event.kind) {
      case "message":
        if (event.role === "system") this.addSystem(event.text, event.raw, raw);
        else this.addMessage(event, index, raw);
        return;
      case "reasoning":
        // Anthropic verifies thinking blocks by their signature; only its own signed blocks can be sent back.
        if (
          raw !== undefined &&
          ((raw.type === "thinking" && typeof raw.signature === "string") || raw.type === "redacted_thinking")
        )
          this.open("assistant").blocks.push(raw);
        else this.skipped.push({ index, reason: "reasoning without an Anthropic signature cannot be replayed" });
        return;
      case "tool_call": {
        const message = this.open("assistant");
        const base = this.same && raw?.type === "tool_use" ? raw : {};
        message.blocks.push({
          ...base,
          type: "tool_use",
          id: this.ids.rename(event, index),
          name: event.name,
          input: objectArguments(event),
        });
        this.callMessage.set(event, message);
        return;
      }
      case "tool_result":
        if (item.call !== undefined) this.addResult(event, item.call, index, raw);
    }
  }

  finish(declarations: readonly ToolDeclaration[]): RenderedAnthropic {
    if (this.messages[0]?.role === "assistant") {
      this.messages.unshift({ role: "user", results: [], blocks: [{ type: "text", text: PLACEHOLDER_USER_TEXT }] });
      this.adjustments.push({
        index: null,
        change:
          "the history starts with an assistant turn, which Anthropic rejects: a placeholder user turn was put first",
      });
    }
    const request: JsonRecord = {};
    if (this.systemString !== undefined) request.system = this.systemString;
    else if (this.system.length > 0) request.system = this.system;
    request.messages = this.messages.map((message) => ({
      role: message.role,
      content:
        message.plain !== undefined && message.results.length === 0 && message.blocks.length === 1
          ? message.plain
          : [...message.results, ...message.blocks],
    }));
    if (declarations.length > 0)
      request.tools = declarations.map((declaration) => anthropicTool(declaration, this.same));
    return { request, skipped: this.skipped, renamedCallIds: this.ids.renamed, adjustments: this.adjustments };
  }

  private context(index: number, where: string): BlockContext {
    return {
      index,
      where,
      skipped: this.skipped,
      target: "anthropic",
      sourceFormat: this.options.sourceFormat ?? null,
    };
  }

  private open(role: "user" | "assistant"): Message {
    const last = this.messages.at(-1);
    if (last?.role === role) {
      delete last.plain;
      return last;
    }
    const created: Message = { role, results: [], blocks: [] };
    this.messages.push(created);
    return created;
  }

  // A system prompt that was one string stays one string; blocks stay blocks (cache_control and all).
  private addSystem(text: string, source: unknown, raw: JsonRecord | undefined): void {
    if (this.same && typeof source === "string" && this.system.length === 0) {
      this.systemString = text;
      return;
    }
    if (this.systemString !== undefined) this.system.push({ type: "text", text: this.systemString });
    this.systemString = undefined;
    this.system.push(this.same && raw?.type === "text" ? { ...raw, text } : { type: "text", text });
  }

  private addMessage(event: MessageEvent, index: number, raw: JsonRecord | undefined): void {
    const role = event.role === "assistant" ? "assistant" : "user";
    const send = blocksToSend(event.content, this.same);
    const blocks =
      send !== undefined
        ? anthropicBlocks(send, this.context(index, `an Anthropic ${role} message`), role === "user")
        : event.text === ""
          ? []
          : [this.same && raw?.type === "text" ? { ...raw, text: event.text } : { type: "text", text: event.text }];
    if (blocks.length === 0) {
      this.skipped.push({ index, reason: "message with no content Anthropic accepts (empty text)" });
      return;
    }
    const fresh = this.messages.at(-1)?.role !== role;
    const message = this.open(role);
    message.blocks.push(...blocks);
    if (fresh && this.same && send === undefined && typeof raw?.content === "string") message.plain = event.text;
  }

  // The result goes into the user message right after its call's message, ahead of that message's other blocks.
  private addResult(event: ToolResultEvent, call: ToolCallEvent, index: number, raw: JsonRecord | undefined): void {
    const callAt = this.callMessage.get(call);
    if (callAt === undefined) return;
    const position = this.messages.indexOf(callAt);
    let target = this.messages[position + 1];
    if (target === undefined) {
      target = { role: "user", results: [], blocks: [] };
      this.messages.push(target);
    }
    delete target.plain;
    // A result recorded after other input (user text, an image) goes ahead of it: Anthropic wants tool_result
    // blocks first. The person reading the replay is told, since the order differs from the recording.
    if (target.blocks.length > 0)
      this.adjustments.push({
        index,
        change: `the tool_result for ${call.callId} was recorded after other content of its user message: it is sent first (Anthropic requires tool_result blocks ahead of other content)`,
      });
    else if (target !== this.messages.at(-1))
      this.adjustments.push({
        index,
        change: `the tool_result for ${call.callId} was recorded later in the history: it is sent in the user message right after its tool_use`,
      });
    const base = this.same && raw?.type === "tool_result" ? without(raw, ["content", "is_error"]) : {};
    const send = blocksToSend(event.content, this.same);
    const content =
      send !== undefined ? anthropicBlocks(send, this.context(index, "an Anthropic tool_result"), true) : event.text;
    const block: JsonRecord = { ...base, type: "tool_result", tool_use_id: this.ids.rename(call, index), content };
    if (event.isError) block.is_error = true;
    else if (this.same && raw?.is_error === false) block.is_error = false;
    target.results.push(block);
  }
}

function anthropicTool(declaration: ToolDeclaration, same: boolean): JsonRecord {
  // Declarations read from an Anthropic request go back as written (server tools, cache_control, strict…).
  if (same && isRecord(declaration.raw) && typeof declaration.raw.name === "string") return declaration.raw;
  const tool: JsonRecord = { name: declaration.name };
  if (declaration.description !== undefined) tool.description = declaration.description;
  tool.input_schema = jsonSchemaOf(declaration.inputSchema) ?? { type: "object", properties: {} };
  return tool;
}

/**
 * Ids Anthropic accepts, unique in the request: a canonical id its pattern rejects is rewritten (renamedCallIds);
 * a call id used again by a later call (turn-scoped ids) gets a suffix, reported as an adjustment.
 */
class IdRenamer {
  readonly renamed: Record<string, string> = {};
  private readonly used = new Set<string>();
  private readonly assigned = new Map<ToolCallEvent, string>();
  private readonly seen = new Set<string>();

  constructor(private readonly adjustments: Adjustment[]) {}

  rename(call: ToolCallEvent, index: number): string {
    const known = this.assigned.get(call);
    if (known !== undefined) return known;
    const base = ANTHROPIC_ID.test(call.callId) ? call.callId : call.callId.replace(/[^a-zA-Z0-9_-]/g, "_");
    let id = base;
    for (let n = 2; this.used.has(id); n += 1) id = `${base}_${n}`;
    this.used.add(id);
    this.assigned.set(call, id);
    const reused = this.seen.has(call.callId);
    this.seen.add(call.callId);
    if (reused)
      this.adjustments.push({
        index,
        change: `call id ${call.callId} is used again by a later call: sent as ${id} (tool_use ids must be unique in a request)`,
      });
    else if (id !== call.callId) this.renamed[call.callId] = id;
    return id;
  }
}
