// Renders a history cut as an Anthropic Messages API request body: {system?, messages, tools?}.
import type { ToolCallEvent, ToolDeclaration } from "../formats/canonical";
import { isRecord, type JsonRecord } from "../formats/json-fields";
import { anthropicBlocks } from "./anthropic-blocks";
import { jsonSchemaOf } from "./tool-schema";
import type { BlockContext } from "./block-context";
import { blocksToSend, objectArguments, PLACEHOLDER_USER_TEXT, type Adjustment, type PreparedHistory, type RenderOptions, type SkippedEvent } from "./history";

// `plain`: the message came from one Anthropic message with string content, and is sent the same way.
type Message = { role: "user" | "assistant"; results: JsonRecord[]; blocks: JsonRecord[]; plain?: string };

export type RenderedAnthropic = { request: JsonRecord; skipped: SkippedEvent[]; renamedCallIds: Record<string, string>; adjustments: Adjustment[] };

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
export function renderAnthropic(history: PreparedHistory, declarations: readonly ToolDeclaration[], options: RenderOptions = {}): RenderedAnthropic {
  const skipped: SkippedEvent[] = [...history.skipped];
  const adjustments: Adjustment[] = [...history.adjustments];
  const same = options.sourceFormat === "anthropic";
  const ids = new IdRenamer(adjustments);
  const system: JsonRecord[] = [];
  let systemString: string | undefined;
  const messages: Message[] = [];
  const callMessage = new Map<ToolCallEvent, Message>();
  const context = (index: number, where: string): BlockContext => ({ index, where, skipped, target: "anthropic", sourceFormat: options.sourceFormat ?? null });

  const open = (role: "user" | "assistant"): Message => {
    const last = messages.at(-1);
    if (last?.role === role) {
      delete last.plain;
      return last;
    }
    const created: Message = { role, results: [], blocks: [] };
    messages.push(created);
    return created;
  };

  for (const item of history.items) {
    const { event, index } = item;
    const raw = isRecord(event.raw) ? event.raw : undefined;
    switch (event.kind) {
      case "message": {
        if (event.role === "system") {
          if (same && typeof event.raw === "string" && system.length === 0) systemString = event.text;
          else {
            if (systemString !== undefined) system.push({ type: "text", text: systemString });
            systemString = undefined;
            system.push(same && raw?.type === "text" ? { ...raw, text: event.text } : { type: "text", text: event.text });
          }
          break;
        }
        const send = blocksToSend(event.content, same);
        const blocks =
          send !== undefined
            ? anthropicBlocks(send, context(index, `an Anthropic ${event.role} message`), event.role === "user")
            : event.text === ""
              ? []
              : [same && raw?.type === "text" ? { ...raw, text: event.text } : { type: "text", text: event.text }];
        if (blocks.length === 0) {
          skipped.push({ index, reason: "message with no content Anthropic accepts (empty text)" });
          break;
        }
        const fresh = messages.at(-1)?.role !== event.role;
        const message = open(event.role);
        message.blocks.push(...blocks);
        if (fresh && same && send === undefined && typeof raw?.content === "string") message.plain = event.text;
        break;
      }
      case "reasoning":
        // Anthropic verifies thinking blocks by their signature; only its own signed blocks can be sent back.
        if (raw !== undefined && ((raw.type === "thinking" && typeof raw.signature === "string") || raw.type === "redacted_thinking")) {
          open("assistant").blocks.push(raw);
        } else {
          skipped.push({ index, reason: "reasoning without an Anthropic signature cannot be replayed" });
        }
        break;
      case "tool_call": {
        const message = open("assistant");
        const base = same && raw?.type === "tool_use" ? raw : {};
        message.blocks.push({ ...base, type: "tool_use", id: ids.rename(event, index), name: event.name, input: objectArguments(event) });
        callMessage.set(event, message);
        break;
      }
      case "tool_result": {
        const call = item.call;
        const callAt = call === undefined ? undefined : callMessage.get(call);
        if (call === undefined || callAt === undefined) break;
        const position = messages.indexOf(callAt);
        let target = messages[position + 1];
        if (target === undefined) {
          target = { role: "user", results: [], blocks: [] };
          messages.push(target);
        }
        delete target.plain;
        const base = same && raw?.type === "tool_result" ? without(raw, ["content", "is_error"]) : {};
        const send = blocksToSend(event.content, same);
        const content = send !== undefined ? anthropicBlocks(send, context(index, "an Anthropic tool_result"), true) : event.text;
        const block: JsonRecord = { ...base, type: "tool_result", tool_use_id: ids.rename(call, index), content };
        if (event.isError) block.is_error = true;
        else if (same && raw?.is_error === false) block.is_error = false;
        target.results.push(block);
        break;
      }
    }
  }

  if (messages[0]?.role === "assistant") {
    messages.unshift({ role: "user", results: [], blocks: [{ type: "text", text: PLACEHOLDER_USER_TEXT }] });
    adjustments.push({ index: null, change: "the history starts with an assistant turn, which Anthropic rejects: a placeholder user turn was put first" });
  }

  const request: JsonRecord = {};
  if (systemString !== undefined) request.system = systemString;
  else if (system.length > 0) request.system = system;
  request.messages = messages.map((message) => ({
    role: message.role,
    content: message.plain !== undefined && message.results.length === 0 && message.blocks.length === 1 ? message.plain : [...message.results, ...message.blocks],
  }));
  if (declarations.length > 0) request.tools = declarations.map((declaration) => anthropicTool(declaration, same));
  return { request, skipped, renamedCallIds: ids.renamed, adjustments };
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
    if (reused) this.adjustments.push({ index, change: `call id ${call.callId} is used again by a later call: sent as ${id} (tool_use ids must be unique in a request)` });
    else if (id !== call.callId) this.renamed[call.callId] = id;
    return id;
  }
}
