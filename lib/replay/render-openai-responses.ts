// Renders a history cut as an OpenAI Responses API request body: {input, tools?} (system messages stay input items).
import type { ToolCallEvent, ToolDeclaration } from "../formats/canonical";
import { isRecord, type JsonRecord } from "../formats/json-fields";
import type { BlockContext } from "./block-context";
import { blocksToSend, needsErrorPrefix, sourceMessageOf, type Adjustment, type PreparedHistory, type RenderOptions, type SkippedEvent } from "./history";
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
export function renderOpenAIResponses(history: PreparedHistory, declarations: readonly ToolDeclaration[], options: RenderOptions = {}): RenderedOpenAIResponses {
  const skipped: SkippedEvent[] = [...history.skipped];
  const adjustments: Adjustment[] = [...history.adjustments];
  const same = options.sourceFormat === "openai-responses";
  const input: JsonRecord[] = [];
  let instructions: string | undefined;
  // The last message item and the source message its blocks came from, so further blocks of it join it.
  let open: { item: JsonRecord; source: string } | undefined;
  const ids = new Map<ToolCallEvent, string>();
  const used = new Set<string>();
  const context = (index: number, where: string): BlockContext => ({ index, where, skipped, target: "openai-responses", sourceFormat: options.sourceFormat ?? null });
  const callIdOf = (call: ToolCallEvent, index: number): string => {
    const known = ids.get(call);
    if (known !== undefined) return known;
    let id = call.callId;
    for (let n = 2; used.has(id); n += 1) id = `${call.callId}_${n}`;
    if (id !== call.callId) adjustments.push({ index, change: `call id ${call.callId} is used again by a later call: sent as ${id} (outputs pair by call_id across the input)` });
    used.add(id);
    ids.set(call, id);
    return id;
  };

  for (const item of history.items) {
    const { event, index } = item;
    const raw = same && isRecord(event.raw) ? event.raw : undefined;
    switch (event.kind) {
      case "message": {
        // A Responses request's own `instructions` go back as instructions.
        if (same && event.path === "instructions" && typeof event.raw === "string" && instructions === undefined && input.length === 0) {
          instructions = event.text;
          break;
        }
        const where = `a Responses ${event.role} message`;
        const source = sourceMessageOf(event.path);
        const partsOf = (blocks: NonNullable<typeof event.content>) =>
          event.role === "assistant" ? responsesAssistantParts(blocks, context(index, where)) : responsesParts(blocks, context(index, where), true);
        if (source !== undefined && open !== undefined && open.source === source && input.at(-1) === open.item && open.item.role === event.role) {
          const content = open.item.content;
          const before = typeof content === "string" ? partsOf([{ type: "text", text: content }]) : Array.isArray(content) ? content : [];
          open.item.content = [...before, ...partsOf(event.content ?? [{ type: "text", text: event.text }])];
          break;
        }
        const send = blocksToSend(event.content, same);
        const content = send === undefined ? event.text : partsOf(send);
        // A raw `message` item keeps its type, id and status; developer stays developer.
        const base = raw !== undefined && (raw.type === "message" || raw.role !== undefined) ? raw : {};
        const message = { ...base, role: typeof base.role === "string" ? base.role : event.role, content };
        input.push(message);
        open = source === undefined ? undefined : { item: message, source };
        break;
      }
      case "reasoning":
        // Reasoning items are provider artifacts (id, encrypted_content); only the API's own items can go back.
        if (isRecord(event.raw) && event.raw.type === "reasoning" && typeof event.raw.id === "string") input.push(event.raw);
        else skipped.push({ index, reason: "reasoning that is not a Responses reasoning item cannot be replayed" });
        break;
      case "tool_call": {
        // An output item sent back as input: custom_tool_call input items have no status.
        const base = raw?.type === "function_call" ? raw : raw?.type === "custom_tool_call" ? Object.fromEntries(Object.entries(raw).filter(([key]) => key !== "status")) : {};
        const call: JsonRecord =
          event.input === "text"
            ? { ...base, type: "custom_tool_call", call_id: callIdOf(event, index), name: event.name, input: event.argumentsText }
            : { ...base, type: "function_call", call_id: callIdOf(event, index), name: event.name, arguments: event.argumentsText };
        if (event.itemId !== undefined) call.id = event.itemId;
        input.push(call);
        break;
      }
      case "tool_result": {
        if (item.call === undefined) break;
        const type = item.call.input === "text" ? "custom_tool_call_output" : "function_call_output";
        const base = raw?.type === type ? raw : {};
        const prefix = needsErrorPrefix(event);
        if (prefix) adjustments.push({ index, change: 'is_error has no Responses field: the output is sent with "Error:" in front' });
        const send = blocksToSend(event.content, same);
        const output =
          send === undefined
            ? `${prefix ? "Error: " : ""}${event.text}`
            : [...(prefix ? [{ type: "input_text", text: "Error:" }] : []), ...responsesParts(send, context(index, `a Responses ${type}`), false)];
        input.push({ ...base, type, call_id: callIdOf(item.call, index), output });
        break;
      }
    }
  }

  const request: JsonRecord = instructions === undefined ? { input } : { instructions, input };
  if (declarations.length > 0) request.tools = declarations.map((declaration) => responsesTool(declaration, same));
  return { request, skipped, adjustments };
}

/**
 * FunctionTool requires `strict` (boolean or null): a Responses declaration keeps its own, a Chat declaration
 * gives function.strict, others send null (the API decides, as when it is omitted).
 */
function responsesTool(declaration: ToolDeclaration, same: boolean): JsonRecord {
  const raw = isRecord(declaration.raw) ? declaration.raw : undefined;
  if (same && raw !== undefined && (raw.type === "function" || raw.type === "custom") && typeof raw.name === "string") return raw;
  const chatFunction = raw !== undefined && isRecord(raw.function) ? raw.function : undefined;
  const strict = typeof raw?.strict === "boolean" ? raw.strict : typeof chatFunction?.strict === "boolean" ? chatFunction.strict : null;
  const tool: JsonRecord = { type: "function", name: declaration.name };
  if (declaration.description !== undefined) tool.description = declaration.description;
  tool.parameters = jsonSchemaOf(declaration.inputSchema) ?? { type: "object", properties: {} };
  tool.strict = strict;
  return tool;
}
