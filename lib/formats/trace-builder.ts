// TraceBuilder: the shared bookkeeping of every adapter — step numbering, call/result pairing, synthetic ids, issues.
import type {
  CanonicalEvent,
  CanonicalTrace,
  ContentBlock,
  FormatName,
  ImportIssue,
  McpDirection,
  ResponseMeta,
  ToolDeclaration,
  ToolResultEvent,
} from "./canonical";

type CallState = { callId: string; name: string; path: string; step: number; resolved: boolean; reportedLate: boolean };

type BuilderOptions = {
  // Message-based vendors reject a new model turn while an earlier call has no result; MCP logs interleave freely.
  expectResultsBeforeNextTurn: boolean;
};

export type ToolCallInput = {
  // Undefined when the vendor gave no id: a synthetic `${name}#${n}` is assigned and results pair by name, in order.
  callId: string | undefined;
  itemId?: string;
  name: string;
  input: "json" | "text";
  argumentsText: string;
  arguments?: unknown;
  argumentsError?: string;
  raw: unknown;
  path: string;
};

export type ToolResultInput = Omit<ToolResultEvent, "kind" | "step" | "callId"> & {
  // Undefined when the vendor gave no id: the result pairs with the oldest unresolved call of that name.
  callId: string | undefined;
};

/**
 * Step rule (the same for every format): `step` is the number of model turns that ended before the event.
 * Model output (assistant text, reasoning, tool calls) opens a turn; the first input after it (a user or
 * system message, a tool result) closes it. So a turn's parallel calls share a step, and their results carry
 * the next step: they are the input of the model turn that follows.
 */
export class TraceBuilder {
  private readonly events: CanonicalEvent[] = [];
  private readonly issues: ImportIssue[] = [];
  private readonly declarations: ToolDeclaration[] = [];
  private readonly responses: ResponseMeta[] = [];
  private readonly calls = new Map<string, CallState>();
  private readonly unresolved: CallState[] = [];
  private step = 0;
  private turnOpen = false;
  private callCount = 0;
  private unmatchedCount = 0;

  constructor(
    private readonly format: FormatName,
    private readonly options: BuilderOptions = { expectResultsBeforeNextTurn: true },
  ) {}

  declare(declaration: ToolDeclaration): void {
    // A re-listed tool (MCP list_changed, a repeated request log) replaces the earlier declaration.
    const existing = this.declarations.findIndex((known) => known.name === declaration.name);
    if (existing === -1) this.declarations.push(declaration);
    else this.declarations[existing] = declaration;
  }

  issue(path: string, message: string, raw?: unknown): void {
    this.issues.push(raw === undefined ? { path, message } : { path, message, raw });
  }

  message(
    role: "system" | "user" | "assistant",
    text: string,
    raw: unknown,
    path: string,
    content?: ContentBlock[],
  ): void {
    if (role === "assistant") this.modelSide();
    else this.inputSide();
    const event: CanonicalEvent = { kind: "message", step: this.step, role, text, raw, path };
    if (content !== undefined && content.length > 0) event.content = content;
    this.events.push(event);
  }

  reasoning(text: string, raw: unknown, path: string, redacted = false): void {
    this.modelSide();
    const event: CanonicalEvent = { kind: "reasoning", step: this.step, text, raw, path };
    if (redacted) event.redacted = true;
    this.events.push(event);
  }

  toolCall(call: ToolCallInput): string {
    this.modelSide();
    const ordinal = this.callCount++;
    const syntheticId = call.callId === undefined;
    const callId = call.callId ?? `${call.name}#${ordinal}`;
    const event: CanonicalEvent = {
      kind: "tool_call",
      step: this.step,
      callId,
      syntheticId,
      name: call.name,
      input: call.input,
      argumentsText: call.argumentsText,
      raw: call.raw,
      path: call.path,
    };
    if (call.itemId !== undefined) event.itemId = call.itemId;
    if (call.arguments !== undefined) event.arguments = call.arguments;
    if (call.argumentsError !== undefined) event.argumentsError = call.argumentsError;
    this.events.push(event);

    // Ids are turn-scoped where vendors reuse them (local OpenAI-compatible servers count call_0, call_1… in
    // every turn): an id whose earlier call is answered names a new call. Only a reuse while the earlier call
    // still waits is ambiguous; results then keep pairing with the earlier one.
    const earlier = this.calls.get(callId);
    if (earlier !== undefined && !earlier.resolved) {
      this.issue(call.path, `duplicate call id ${callId} (first used at ${earlier.path}, still unanswered)`, call.raw);
      return callId;
    }
    const state: CallState = {
      callId,
      name: call.name,
      path: call.path,
      step: this.step,
      resolved: false,
      reportedLate: false,
    };
    this.calls.set(callId, state);
    this.unresolved.push(state);
    return callId;
  }

  toolResult(result: ToolResultInput): string {
    this.inputSide();
    const callId = result.callId ?? this.pairByPosition(result.name);
    const event: CanonicalEvent = {
      kind: "tool_result",
      step: this.step,
      callId: callId ?? this.unmatchedId(result.name),
      text: result.text,
      isError: result.isError,
      raw: result.raw,
      path: result.path,
    };
    if (result.name !== undefined) event.name = result.name;
    if (result.isError && result.errorSignal !== undefined) event.errorSignal = result.errorSignal;
    if (result.content !== undefined) event.content = result.content;
    if (result.structuredContent !== undefined) event.structuredContent = result.structuredContent;
    this.events.push(event);

    if (callId === undefined) {
      const named = result.name === undefined ? "" : ` named ${result.name}`;
      this.issue(
        result.path,
        `result for unknown call ${event.callId}: no earlier unanswered call${named}`,
        result.raw,
      );
      return event.callId;
    }
    const state = this.calls.get(callId);
    if (state === undefined) {
      this.issue(result.path, `result for unknown call ${callId}`, result.raw);
    } else if (state.resolved) {
      this.issue(result.path, `second result for call ${callId}`, result.raw);
    } else {
      this.resolve(state);
    }
    return callId;
  }

  // Errors are neither model output nor model input, so they do not move the step.
  error(layer: "protocol" | "runtime", message: string, raw: unknown, path: string, callId?: string): void {
    const event: CanonicalEvent = { kind: "error", step: this.step, layer, message, raw, path };
    if (callId !== undefined) {
      event.callId = callId;
      // A call that failed at the protocol layer will never get a result: it is settled, not pending.
      const state = this.calls.get(callId);
      if (state !== undefined && !state.resolved) this.resolve(state);
    }
    this.events.push(event);
  }

  // Protocol traffic (MCP initialize, progress, sampling…): on the timeline, outside the model's turns.
  protocol(
    method: string,
    text: string,
    raw: unknown,
    path: string,
    options: { direction?: McpDirection; callId?: string } = {},
  ): void {
    const event: CanonicalEvent = { kind: "protocol", step: this.step, method, text, raw, path };
    if (options.direction !== undefined) event.direction = options.direction;
    if (options.callId !== undefined) event.callId = options.callId;
    this.events.push(event);
  }

  /** The unanswered call with this id, if any (MCP links progress and sampling to the call that is running). */
  isWaiting(callId: string): boolean {
    const state = this.calls.get(callId);
    return state !== undefined && !state.resolved;
  }

  /** A model response's metadata, placed before the output that follows it. */
  response(meta: Omit<ResponseMeta, "atEvent" | "step">): void {
    this.responses.push({ ...meta, atEvent: this.events.length, step: this.step });
  }

  // Message-based formats end a turn at each assistant message, even when the next message is also assistant.
  endModelTurn(): void {
    if (!this.turnOpen) return;
    this.turnOpen = false;
    this.step += 1;
  }

  finish(paths?: ReadonlyMap<string, string>): CanonicalTrace {
    if (paths !== undefined && paths.size > 0) {
      for (const event of this.events) event.path = paths.get(event.path) ?? event.path;
      for (const issue of this.issues) issue.path = paths.get(issue.path) ?? issue.path;
    }
    const trace: CanonicalTrace = {
      format: this.format,
      declarations: this.declarations,
      events: this.events,
      issues: this.issues,
    };
    if (this.responses.length > 0) trace.responses = this.responses;
    return trace;
  }

  private modelSide(): void {
    if (this.turnOpen) return;
    this.turnOpen = true;
    if (!this.options.expectResultsBeforeNextTurn) return;
    for (const state of this.unresolved) {
      // Reported once; the call stays unresolved so that a late result still pairs with it.
      if (state.step < this.step && !state.reportedLate) {
        state.reportedLate = true;
        this.issue(state.path, `call ${state.callId} has no result before the next model turn (step ${this.step})`);
      }
    }
  }

  private inputSide(): void {
    this.endModelTurn();
  }

  private pairByPosition(name: string | undefined): string | undefined {
    const state = this.unresolved.find((candidate) => name === undefined || candidate.name === name);
    return state?.callId;
  }

  private unmatchedId(name: string | undefined): string {
    return `${name ?? "unknown"}#unmatched-${this.unmatchedCount++}`;
  }

  private resolve(state: CallState): void {
    state.resolved = true;
    const index = this.unresolved.indexOf(state);
    if (index !== -1) this.unresolved.splice(index, 1);
  }
}
