// Maps one trace's spans onto a thread's timeline: messages, tool calls with their results, errors, in the
// order the model saw them. Pure: the same spans (and the same thread context) always give the same items,
// so a trace can be mapped again whenever more of it arrives and compared with what was stored.
/* eslint-disable max-lines -- one pure mapping from spans to the canonical trace across three conventions (GenAI, AI SDK, OpenInference); the performance work split its storage side, this half is one table of rules read together */
//
// Order comes from the model calls' message lists, never from span start times alone (parallel tool spans
// can start in the same millisecond). Messages a later model call repeats as history are recognised and
// written once: text messages by content (counted, so a repeated "yes" is not mistaken for history), tool
// calls and results by their call id.
import { hash } from "node:crypto";
import {
  asText,
  chatView,
  spanError,
  toolView,
  type ChatView,
  type Message,
  type ToolDefinition,
  type ToolView,
  type Usage,
} from "./span-views.ts";
import { nanosToMillis, type OtelSpan } from "./otlp-types.ts";
import { ID_MAX, identifierProblem } from "../ingest/schemas.ts";
import type { TurnFigures } from "../model-turns/records.ts";
import { MODEL_TURN_EVENT } from "../model-turns/schemas.ts";
import { chatDurationMs, chatTurnFigures } from "./chat-turn.ts";

/** Room left in a call key for the suffixes newCallKey adds (`@` + 8 hex, `#n`). */
const CALL_KEY_BASE_MAX = ID_MAX - 24;

export type ItemKind = "message" | "reasoning" | "tool_call" | "tool_result" | "error" | "model_turn";

export type MappedItem = {
  /** Unique within the trace and stable across re-mappings: what the reconciliation matches stored rows by. */
  key: string;
  kind: ItemKind;
  role: string | null;
  text: string | null;
  callKey: string | null;
  step: number | null;
  occurredAt: Date;
  dataJson: string;
  /** A model_turn item's figures (also in dataJson, so the digest covers them): written to lib/model-turns. */
  turn?: { figures: TurnFigures; startedAt: Date; finishedAt: Date; durationMs: number };
  /** sha256 (16 hex) of everything above: a stored row with the same key and digest is kept as is. */
  digest: string;
};

export type MappedResult = { text: string; isError: boolean; errorSource: string | null; receivedAt: Date };

export type MappedCall = {
  callKey: string;
  toolName: string;
  argumentsText: string | null;
  declaration: ToolDefinition | null;
  vendor: string;
  step: number | null;
  requestedAt: Date;
  completedAt: Date | null;
  result: MappedResult | null;
  /** The spans this call was read from (tool span, model calls that requested or answered it). */
  spanIds: string[];
  /**
   * The call belongs to another trace of the thread, which requested it and is still waiting for its result:
   * this trace only executed it (the tool span), so it supplies the result and writes no tool_call row.
   */
  adopted: boolean;
  digest: string;
};

export type TraceContext = {
  /** Text-message digests of the conversation as the previous trace in the thread left it. */
  conversation: readonly string[];
  /** The previous trace's last step; this trace's steps continue from it. */
  lastStep: number | null;
  /** Call ids already used in the thread by other traces or other sources: a call here with one of them is a different call. */
  claimedCallKeys: ReadonlySet<string>;
  /** Claimed calls still waiting for a result: a tool span here with one of their ids executed that call. */
  openCallKeys: ReadonlySet<string>;
};

export type TraceMapping = {
  items: MappedItem[];
  calls: MappedCall[];
  conversation: string[];
  lastStep: number | null;
};

export function shortHash(value: unknown): string {
  // One-shot hash (no Hash object per call): the mapping hashes every item and message.
  return hash("sha256", JSON.stringify(value), "hex").slice(0, 16);
}

const at = (ns: string) => new Date(nanosToMillis(ns));

function compareSpans(a: OtelSpan, b: OtelSpan): number {
  return (
    a.startNs.length - b.startNs.length ||
    (a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : 0) ||
    (a.spanId < b.spanId ? -1 : 1)
  );
}

function textOf(message: Message): string {
  return message.parts.flatMap((part) => (part.type === "text" ? [part.content] : [])).join("\n");
}

function messageDigest(message: Message): string | null {
  const text = textOf(message);
  return text === "" ? null : shortHash([message.role, text]);
}

function argumentsText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === "string" ? value : JSON.stringify(value);
}

type CallState = MappedCall & {
  answer: { text: string; isError: boolean; at: Date; spanId: string } | null;
  tool: ToolView | null;
  emittedResult: boolean;
};

/** One trace's mapping in progress; `map()` runs it once. */
class TraceMapper {
  private readonly items: MappedItem[] = [];
  private readonly calls = new Map<string, CallState>();
  /** Vendor call id → this trace's call key (differs when the id was already used elsewhere in the thread). */
  private readonly aliases = new Map<string, string>();
  private readonly emitted = new Map<string, number>();
  private readonly declarations = new Map<string, ToolDefinition>();
  private readonly errorsSeen = new Set<string>();
  private readonly chats: ChatView[];
  private readonly tools: ToolView[];
  private readonly toolsById = new Map<string, ToolView>();
  private step: number;

  constructor(
    private readonly traceId: string,
    private readonly spans: OtelSpan[],
    private readonly context: TraceContext,
  ) {
    const sorted = [...spans].sort(compareSpans);
    const chats = sorted.flatMap((span) => chatView(span) ?? []);
    // Agent-level spans repeat their steps; they stand in only when a trace has no step-level model spans.
    this.chats = chats.length > 0 ? chats : sorted.flatMap((span) => chatView(span, true) ?? []);
    this.tools = sorted.flatMap((span) => toolView(span) ?? []);
    for (const tool of this.tools)
      if (tool.callId !== null && !this.toolsById.has(tool.callId)) this.toolsById.set(tool.callId, tool);
    for (const digest of context.conversation) this.emitted.set(digest, (this.emitted.get(digest) ?? 0) + 1);
    this.step = (context.lastStep ?? -1) + 1;
  }

  map(): TraceMapping {
    for (const chat of this.chats)
      for (const tool of chat.tools) if (!this.declarations.has(tool.name)) this.declarations.set(tool.name, tool);
    this.collectAnswers();
    const orphans = this.tools.filter((tool) => tool.callId === null || !this.mentionedByChats(tool.callId));
    let orphanIndex = 0;
    const flushOrphans = (before: OtelSpan | null) => {
      while (orphanIndex < orphans.length) {
        const tool = orphans[orphanIndex];
        if (tool === undefined || (before !== null && compareSpans(tool.span, before) >= 0)) break;
        this.orphanTool(tool);
        orphanIndex += 1;
      }
    };
    for (const chat of this.chats) {
      flushOrphans(chat.span);
      this.chatStep(chat);
    }
    flushOrphans(null);
    this.otherErrors();
    return {
      items: this.items,
      calls: [...this.calls.values()].map((call) => this.finishCall(call)),
      conversation: this.conversationAfter(),
      lastStep: this.chats.length > 0 || this.tools.length > 0 ? this.step - 1 : this.context.lastStep,
    };
  }

  private mentionedByChats(callId: string): boolean {
    return this.chats.some((chat) =>
      [...(chat.input ?? []), ...(chat.output ?? [])].some((message) =>
        message.parts.some(
          (part) => (part.type === "tool_call" || part.type === "tool_call_response") && part.id === callId,
        ),
      ),
    );
  }

  /** Results the model was sent (tool_call_response parts of later inputs), by call id. */
  private readonly answers = new Map<string, { text: string; isError: boolean; at: Date; spanId: string }>();
  private collectAnswers(): void {
    for (const chat of this.chats) {
      for (const message of chat.input ?? []) {
        for (const part of message.parts) {
          if (part.type !== "tool_call_response" || part.id === null || this.answers.has(part.id)) continue;
          this.answers.set(part.id, {
            text: asText(part.response),
            isError: part.isError === true,
            at: at(chat.span.startNs),
            spanId: chat.span.spanId,
          });
        }
      }
    }
  }

  private data(spanIds: string[], extra: Record<string, unknown> = {}): string {
    return JSON.stringify({ ...extra, otel: { traceId: this.traceId, spanIds } });
  }

  private push(item: Omit<MappedItem, "digest">): void {
    const { key: _key, ...content } = item;
    this.items.push({
      ...item,
      digest: shortHash([
        content.kind,
        content.role,
        content.text,
        content.callKey,
        content.step,
        content.occurredAt.getTime(),
        content.dataJson,
      ]),
    });
  }

  /** A message not seen before in the thread? Counts occurrences so a repeated text is told from history. */
  private isNew(message: Message, seen: Map<string, number>): boolean {
    const digest = messageDigest(message);
    if (digest === null) return true;
    const occurrence = (seen.get(digest) ?? 0) + 1;
    seen.set(digest, occurrence);
    if (occurrence <= (this.emitted.get(digest) ?? 0)) return false;
    this.emitted.set(digest, occurrence);
    return true;
  }

  private chatStep(chat: ChatView): void {
    const step = this.step;
    this.step += 1;
    const seen = new Map<string, number>();
    const input: Message[] = [
      ...(chat.system === null ? [] : [{ role: "system", parts: [{ type: "text" as const, content: chat.system }] }]),
      ...(chat.input ?? []),
    ];
    input.forEach((message, index) => {
      if (!this.isNew(message, seen)) return;
      this.message(message, `${chat.span.spanId}:in:${index}`, step, at(chat.span.startNs), chat, null);
    });
    this.modelTurn(chat, step);
    const requested: string[] = [];
    (chat.output ?? []).forEach((message, index) => {
      this.isNew(message, seen);
      requested.push(
        ...this.message(message, `${chat.span.spanId}:out:${index}`, step, at(chat.span.endNs), chat, {
          usage: chat.usage,
          model: chat.model,
          finishReason: message.finishReason ?? null,
        }),
      );
    });
    for (const callKey of requested) this.result(callKey, step);
    const error = spanError(chat.span);
    if (error) this.error(error, chat.span, step, "model", null);
  }

  /** The model call itself as a timeline row: after the messages it was sent, before what it answered. */
  private modelTurn(chat: ChatView, step: number): void {
    const figures = chatTurnFigures(chat);
    const durationMs = chatDurationMs(chat);
    this.push({
      key: `${chat.span.spanId}:turn`,
      kind: MODEL_TURN_EVENT,
      role: "assistant",
      text: null,
      callKey: null,
      step,
      occurredAt: at(chat.span.startNs),
      dataJson: this.data([chat.span.spanId], { turn: figures, durationMs }),
      turn: { figures, startedAt: at(chat.span.startNs), finishedAt: at(chat.span.endNs), durationMs },
    });
  }

  /** Writes one message's items; returns the call keys it requested. */
  private message(
    message: Message,
    key: string,
    step: number,
    occurredAt: Date,
    chat: ChatView,
    output: { usage: Usage; model: string | null; finishReason: string | null } | null,
  ): string[] {
    const requested: string[] = [];
    const spanIds = [chat.span.spanId];
    const text = textOf(message);
    const others = message.parts.filter((part) => part.type === "other");
    let extra: Record<string, unknown> | null =
      output === null ? null : { ...output, usage: Object.keys(output.usage).length > 0 ? output.usage : undefined };
    const takeExtra = () => {
      const taken = extra ?? {};
      extra = null;
      return taken;
    };
    message.parts.forEach((part, index) => {
      if (part.type === "reasoning" && part.content !== "") {
        this.push({
          key: `${key}:${index}`,
          kind: "reasoning",
          role: "assistant",
          text: part.content,
          callKey: null,
          step,
          occurredAt,
          dataJson: this.data(spanIds),
        });
      }
    });
    if (text !== "" || others.length > 0) {
      const role = message.role === "tool" ? "user" : message.role;
      this.push({
        key,
        kind: "message",
        role,
        text,
        callKey: null,
        step,
        occurredAt,
        dataJson: this.data(spanIds, { ...takeExtra(), ...(others.length > 0 ? { parts: message.parts } : {}) }),
      });
    }
    for (const part of message.parts) {
      if (part.type === "tool_call") {
        const callKey = this.callFromModel(
          part.id,
          part.name,
          part.arguments,
          step,
          occurredAt,
          chat.span.spanId,
          output !== null,
        );
        if (callKey === null) continue;
        requested.push(callKey);
        this.push({
          key: `call:${callKey}`,
          kind: "tool_call",
          role: null,
          text: null,
          callKey,
          step,
          occurredAt,
          dataJson: this.data(this.callSpans(callKey), takeExtra()),
        });
        if (output === null) this.result(callKey, step);
      } else if (part.type === "tool_call_response" && part.id !== null) {
        const callKey = this.aliases.get(part.id);
        if (callKey !== undefined) this.result(callKey, step);
      }
    }
    return requested;
  }

  private callSpans(callKey: string): string[] {
    return this.calls.get(callKey)?.spanIds ?? [];
  }

  /** A call the model requested (output) or that appears in history (input). Null when it belongs to another trace or was written already. */
  private callFromModel(
    id: string | null,
    name: string,
    args: unknown,
    step: number,
    occurredAt: Date,
    chatSpanId: string,
    requestedHere: boolean,
  ): string | null {
    if (id !== null && this.aliases.has(id)) return null;
    if (id !== null && !requestedHere && this.context.claimedCallKeys.has(id) && !this.toolsById.has(id)) return null;
    const tool = id === null ? undefined : this.toolsById.get(id);
    const callKey = this.newCallKey(id ?? `${chatSpanId}:${name}:${step}`);
    if (id !== null) this.aliases.set(id, callKey);
    const answer = id === null ? undefined : this.answers.get(id);
    this.calls.set(callKey, {
      callKey,
      toolName: name,
      argumentsText: tool?.arguments ?? argumentsText(args),
      declaration: null,
      vendor: tool?.convention ?? "gen_ai",
      step,
      requestedAt: tool ? at(tool.span.startNs) : occurredAt,
      completedAt: null,
      result: null,
      spanIds: [chatSpanId, ...(tool ? [tool.span.spanId] : []), ...(answer ? [answer.spanId] : [])],
      adopted: false,
      digest: "",
      answer: answer ?? null,
      tool: tool ?? null,
      emittedResult: false,
    });
    return callKey;
  }

  private newCallKey(id: string): string {
    // An id no index can hold (identifierProblem: kilobytes, NUL) is named by its hash: the same span mapped again
    // gets the same key, and the call is stored instead of failing the whole export on PostgreSQL.
    const base =
      identifierProblem(id, CALL_KEY_BASE_MAX) === null ? id : `id-sha256-${hash("sha256", id, "hex").slice(0, 32)}`;
    let key = base;
    // The same id used by another trace of this thread (a mock model's "call-1" in every run): a distinct call.
    if (this.context.claimedCallKeys.has(key)) key = `${base}@${this.traceId.slice(0, 8)}`;
    for (let n = 2; this.calls.has(key); n += 1) key = `${base}#${n}`;
    return key;
  }

  /** The result of a call, written right after the calls of its step (once). */
  private result(callKey: string, step: number): void {
    const call = this.calls.get(callKey);
    if (!call || call.emittedResult) return;
    const outcome = this.outcome(call);
    if (outcome === null) return;
    call.emittedResult = true;
    call.result = outcome.result;
    call.completedAt = outcome.completedAt;
    const spanId = call.tool?.span.spanId ?? call.answer?.spanId ?? call.spanIds[0] ?? "";
    this.push({
      key: `result:${callKey}`,
      kind: "tool_result",
      role: null,
      text: null,
      callKey,
      step,
      occurredAt: outcome.completedAt,
      dataJson: this.data([spanId]),
    });
    if (call.tool?.error) this.error(call.tool.error, call.tool.span, step, "runtime", callKey);
  }

  private outcome(call: CallState): { result: MappedResult; completedAt: Date } | null {
    const tool = call.tool;
    if (tool) {
      const completedAt = at(tool.span.endNs);
      if (tool.result !== null)
        return {
          result: {
            text: tool.result,
            isError: tool.error !== null,
            errorSource: tool.error ? "span_status" : null,
            receivedAt: completedAt,
          },
          completedAt,
        };
      if (tool.error) {
        // What the model was told, when a later model call shows it; else the exception itself.
        const text = call.answer?.text ?? tool.error.message;
        return { result: { text, isError: true, errorSource: "span_status", receivedAt: completedAt }, completedAt };
      }
    }
    if (call.answer) {
      const completedAt = tool ? at(tool.span.endNs) : call.answer.at;
      return {
        result: {
          text: call.answer.text,
          isError: call.answer.isError,
          errorSource: call.answer.isError ? "vendor_flag" : null,
          receivedAt: completedAt,
        },
        completedAt,
      };
    }
    return null;
  }

  /** A tool span no model call in this trace mentions: a call of its own, placed by time. */
  private orphanTool(tool: ToolView): void {
    if (tool.callId !== null && this.aliases.has(tool.callId)) return;
    const step = Math.max(this.step - 1, (this.context.lastStep ?? -1) + 1);
    const adopted = tool.callId !== null && this.context.openCallKeys.has(tool.callId);
    const callKey =
      adopted && tool.callId !== null ? tool.callId : this.newCallKey(tool.callId ?? `span-${tool.span.spanId}`);
    if (tool.callId !== null) this.aliases.set(tool.callId, callKey);
    const requestedAt = at(tool.span.startNs);
    this.calls.set(callKey, {
      callKey,
      toolName: tool.name,
      argumentsText: tool.arguments,
      declaration: null,
      vendor: tool.convention,
      step,
      requestedAt,
      completedAt: null,
      result: null,
      spanIds: [tool.span.spanId],
      adopted,
      digest: "",
      answer: null,
      tool,
      emittedResult: false,
    });
    if (!adopted)
      this.push({
        key: `call:${callKey}`,
        kind: "tool_call",
        role: null,
        text: null,
        callKey,
        step,
        occurredAt: requestedAt,
        dataJson: this.data([tool.span.spanId]),
      });
    this.result(callKey, step);
  }

  private error(
    error: { message: string; type: string | null },
    span: OtelSpan,
    step: number | null,
    layer: "model" | "runtime",
    callKey: string | null,
  ): void {
    const exception = span.events.find((event) => event.name === "exception");
    this.errorsSeen.add(error.message);
    this.push({
      key: `error:${span.spanId}`,
      kind: "error",
      role: null,
      text: error.type ? `${error.type}: ${error.message}` : error.message,
      callKey,
      step,
      occurredAt: at(exception?.timeNs ?? span.endNs),
      dataJson: this.data([span.spanId], { layer, exception: exception?.attributes ?? null, status: span.status }),
    });
  }

  /** Errors of spans that are neither model calls nor tools (an agent run that failed), unless already told. */
  private otherErrors(): void {
    const mapped = new Set([
      ...this.chats.map((chat) => chat.span.spanId),
      ...this.tools.map((tool) => tool.span.spanId),
    ]);
    for (const span of [...this.spans].sort(compareSpans)) {
      if (mapped.has(span.spanId)) continue;
      const error = spanError(span);
      if (error && !this.errorsSeen.has(error.message)) this.error(error, span, null, "runtime", null);
    }
  }

  private finishCall(call: CallState): MappedCall {
    const declaration = this.declarations.get(call.toolName) ?? null;
    const description = call.tool?.description;
    const withDescription =
      description && !declaration?.description
        ? { ...(declaration ?? { name: call.toolName, raw: null }), description }
        : declaration;
    const { answer: _answer, tool: _tool, emittedResult: _emitted, digest: _digest, ...mapped } = call;
    const result = { ...mapped, declaration: withDescription };
    return {
      ...result,
      digest: shortHash({
        ...result,
        requestedAt: result.requestedAt.getTime(),
        completedAt: result.completedAt?.getTime() ?? null,
      }),
    };
  }

  /** What the next trace's first model call will repeat as history: the last model call's input and output. */
  private conversationAfter(): string[] {
    const last = this.chats.at(-1);
    if (!last) return [...this.context.conversation];
    const messages = [
      ...(last.system === null ? [] : [{ role: "system", parts: [{ type: "text" as const, content: last.system }] }]),
      ...(last.input ?? []),
      ...(last.output ?? []),
    ];
    return messages.flatMap((message) => messageDigest(message) ?? []);
  }
}

export function mapTrace(traceId: string, spans: OtelSpan[], context: TraceContext): TraceMapping {
  return new TraceMapper(traceId, spans, context).map();
}
