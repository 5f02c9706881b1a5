// Renders a history cut as an OpenAI Responses API request body: {input, tools?} (system messages stay input items).
import type { ContentBlock, MessageEvent, ToolCallEvent, ToolDeclaration, ToolResultEvent } from "../formats/canonical";
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
import { responsesAssistantParts, responsesParts } from "./openai-blocks";
import { jsonSchemaOf } from "./tool-schema";

export type RenderedOpenAIResponses = { request: JsonRecord; skipped: SkippedEvent[]; adjustments: Adjustment[] };

/**
 * Pairing rules kept here: function_call / custom_tool_call items carry the canonical call id as `call_id` (the
 * item id, when known, as `id`), and each *_output item carries the same call_id after its call. Responses does
 * not require adjacency, so items keep timeline order — which also keeps reasoning items right before the calls
 * they produced, as reasoning models require. A call_id used again by a later call gets a suffix (outputs pair by
 * call_id across the whole input). Responses has no error flag: a failed result says "Error:" first.
 */
export function renderOpenAIResponses(
  history: PreparedHistory,
  declarations: readonly ToolDeclaration[],
  options: RenderOptions = {},
): RenderedOpenAIResponses {
  const writer = new ResponsesWriter(history, options);
  for (const item of history.items) writer.add(item);
  return writer.finish(declarations);
}

class ResponsesWriter {
  private readonly skipped: SkippedEvent[];
  private readonly adjustments: Adjustment[];
  private readonly same: boolean;
  private readonly input: JsonRecord[] = [];
  private instructions: string | undefined;
  // The last message item and the source message its blocks came from, so further blocks of it join it.
  private open: { item: JsonRecord; source: string } | undefined;
  private readonly ids = new Map<ToolCallEvent, string>();
  private readonly used = new Set<string>();

  constructor(
    history: PreparedHistory,
    private readonly options: RenderOptions,
  ) {
    this.skipped = [...history.skipped];
    this.adjustments = [...history.adjustments];
    this.same = options.sourceFormat === "openai-responses";
  }

  add(item: HistoryItem): void {
    const { event, index } = item;
    const raw = this.same && isRecord(event.raw) ? event.raw : undefined;
    switch (event.kind) {
      case "message":
        this.addMessage(event, index, raw);
        return;
      case "reasoning":
        // Reasoning items are provider artifacts (id, encrypted_content); only the API's own items can go back.
        if (isRecord(event.raw) && event.raw.type === "reasoning" && typeof event.raw.id === "string")
          this.input.push(event.raw);
        else
          this.skipped.push({ index, reason: "reasoning that is not a Responses reasoning item cannot be replayed" });
        return;
      case "tool_call": {
        // An output item sent back as input: custom_tool_call input items have no status.
        const base =
          raw?.type === "function_call"
            ? raw
            : raw?.type === "custom_tool_call"
              ? Object.fromEntries(Object.entries(raw).filter(([key]) => key !== "status"))
              : {};
        const call: JsonRecord =
          event.input === "text"
            ? {
                ...base,
                type: "custom_tool_call",
                call_id: this.callIdOf(event, index),
                name: event.name,
                input: event.argumentsText,
              }
            : {
                ...base,
                type: "function_call",
                call_id: this.callIdOf(event, index),
                name: event.name,
                arguments: event.argumentsText,
              };
        if (event.itemId !== undefined) call.id = event.itemId;
        this.input.push(call);
        return;
      }
      case "tool_result":
        if (item.call !== undefined) this.addOutput(event, item.call, index, raw);
    }
  }

  finish(declarations: readonly ToolDeclaration[]): RenderedOpenAIResponses {
    const request: JsonRecord =
      this.instructions === undefined ? { input: this.input } : { instructions: this.instructions, input: this.input };
    if (declarations.length > 0)
      request.tools = declarations.map((declaration) => responsesTool(declaration, this.same));
    return { request, skipped: this.skipped, adjustments: this.adjustments };
  }

  private context(index: number, where: string): BlockContext {
    return {
      index,
      where,
      skipped: this.skipped,
      target: "openai-responses",
      sourceFormat: this.options.sourceFormat ?? null,
    };
  }

  private callIdOf(call: ToolCallEvent, index: number): string {
    const known = this.ids.get(call);
    if (known !== undefined) return known;
    let id = call.callId;
    for (let n = 2; this.used.has(id); n += 1) id = `${call.callId}_${n}`;
    if (id !== call.callId)
      this.adjustments.push({
        index,
        change: `call id ${call.callId} is used again by a later call: sent as ${id} (outputs pair by call_id across the input)`,
      });
    this.used.add(id);
    this.ids.set(call, id);
    return id;
  }

  private addMessage(event: MessageEvent, index: number, raw: JsonRecord | undefined): void {
    // A Responses request's own `instructions` go back as instructions.
    if (
      this.same &&
      event.path === "instructions" &&
      typeof event.raw === "string" &&
      this.instructions === undefined &&
      this.input.length === 0
    ) {
      this.instructions = event.text;
      return;
    }
    const where = `a Responses ${event.role} message`;
    const partsOf = (blocks: readonly ContentBlock[]) =>
      event.role === "assistant"
        ? responsesAssistantParts(blocks, this.context(index, where))
        : responsesParts(blocks, this.context(index, where), true);
    // Blocks of one source message (an Anthropic message's text and images) make one message item.
    const source = sourceMessageOf(event.path);
    const open = this.open;
    if (
      source !== undefined &&
      open !== undefined &&
      open.source === source &&
      this.input.at(-1) === open.item &&
      open.item.role === event.role
    ) {
      const content = open.item.content;
      const before =
        typeof content === "string"
          ? partsOf([{ type: "text", text: content }])
          : Array.isArray(content)
            ? content
            : [];
      open.item.content = [...before, ...partsOf(event.content ?? [{ type: "text", text: event.text }])];
      return;
    }
    const send = blocksToSend(event.content, this.same);
    // A raw `message` item keeps its type, id and status; developer stays developer.
    const base = raw !== undefined && (raw.type === "message" || raw.role !== undefined) ? raw : {};
    const message = {
      ...base,
      role: typeof base.role === "string" ? base.role : event.role,
      content: send === undefined ? event.text : partsOf(send),
    };
    this.input.push(message);
    this.open = source === undefined ? undefined : { item: message, source };
  }

  private addOutput(event: ToolResultEvent, call: ToolCallEvent, index: number, raw: JsonRecord | undefined): void {
    const type = call.input === "text" ? "custom_tool_call_output" : "function_call_output";
    const base = raw?.type === type ? raw : {};
    const prefix = needsErrorPrefix(event);
    if (prefix)
      this.adjustments.push({
        index,
        change: 'is_error has no Responses field: the output is sent with "Error:" in front',
      });
    const send = blocksToSend(event.content, this.same);
    const output =
      send === undefined
        ? `${prefix ? "Error: " : ""}${event.text}`
        : [
            ...(prefix ? [{ type: "input_text", text: "Error:" }] : []),
            ...responsesParts(send, this.context(index, `a Responses ${type}`), false),
          ];
    this.input.push({ ...base, type, call_id: this.callIdOf(call, index), output });
  }
}

/**
 * FunctionTool requires `strict` (boolean or null): a Responses declaration keeps its own, a Chat declaration
 * gives function.strict, others send null (the API decides, as when it is omitted).
 */
function responsesTool(declaration: ToolDeclaration, same: boolean): JsonRecord {
  const raw = isRecord(declaration.raw) ? declaration.raw : undefined;
  if (same && raw !== undefined && (raw.type === "function" || raw.type === "custom") && typeof raw.name === "string")
    return raw;
  const chatFunction = raw !== undefined && isRecord(raw.function) ? raw.function : undefined;
  const strict =
    typeof raw?.strict === "boolean"
      ? raw.strict
      : typeof chatFunction?.strict === "boolean"
        ? chatFunction.strict
        : null;
  const tool: JsonRecord = { type: "function", name: declaration.name };
  if (declaration.description !== undefined) tool.description = declaration.description;
  tool.parameters = jsonSchemaOf(declaration.inputSchema) ?? { type: "object", properties: {} };
  tool.strict = strict;
  return tool;
}
