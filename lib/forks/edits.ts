// A fork's history: the original's first N canonical events with the person's edits applied (result text,
// envelope fields, display segments, call arguments, dropped and inserted messages). Pure; every bad edit is
// reported with its path (`edits[2].call`) so the form and the API can point at it.
import type { CanonicalEvent, MessageEvent, ToolCallEvent, ToolResultEvent } from "../formats/canonical.ts";
import { hasErrorPrefix } from "../formats/content-blocks.ts";
import { isRecord, parseJson } from "../formats/json-fields.ts";
import { prepareHistory } from "../replay/history.ts";
import type { ForkEdit } from "./schemas.ts";

export class ForkEditError extends Error {
  readonly path: string;
  constructor(path: string, message: string) {
    super(`${path}: ${message}`);
    this.name = "ForkEditError";
    this.path = path;
  }
}

export type ForkHistory = {
  events: CanonicalEvent[];
  /** Display segments per call id where an edit set them (null: cleared); other results keep the original's. */
  displayAs: Map<string, unknown[] | null>;
  /** Call ids whose arguments or result an edit changed. */
  editedCalls: Set<string>;
  /** Calls of the history that still have no result (a model API would refuse the history). */
  pendingCallIds: string[];
};

type CallEdit = {
  text?: string;
  envelope?: Record<string, unknown>[];
  displayAs?: unknown[] | null;
  arguments?: string;
  textPath?: string;
};

function callEventIndex(cut: readonly CanonicalEvent[], callId: string): number {
  return cut.findIndex((event) => event.kind === "tool_call" && event.callId === callId);
}

/** The event that answers `callId` in the cut: its first tool_result, else an error event naming it. */
function answerIndex(cut: readonly CanonicalEvent[], callId: string, after: number): number {
  const result = cut.findIndex(
    (event, index) => index > after && event.kind === "tool_result" && event.callId === callId,
  );
  if (result !== -1) return result;
  return cut.findIndex((event, index) => index > after && event.kind === "error" && event.callId === callId);
}

function mergedEnvelope(text: string, patches: Record<string, unknown>[], path: string): string {
  const parsed = parseJson(text);
  if (!parsed.ok || !isRecord(parsed.value))
    throw new ForkEditError(
      path,
      "the result text is not a JSON object, so it has no envelope to edit; edit its text instead",
    );
  const merged = patches.reduce<Record<string, unknown>>((out, patch) => ({ ...out, ...patch }), { ...parsed.value });
  // Keep the original's layout: an indented envelope stays indented.
  return /\n\s/.test(text) ? JSON.stringify(merged, null, 2) : JSON.stringify(merged);
}

function editedCall(call: ToolCallEvent, argumentsText: string): ToolCallEvent {
  const { arguments: _old, argumentsError: _oldError, ...rest } = call;
  const next: ToolCallEvent = { ...rest, argumentsText };
  if (call.input === "text") return next;
  const parsed = parseJson(argumentsText);
  if (parsed.ok) next.arguments = parsed.value;
  else next.argumentsError = parsed.error;
  return next;
}

function editedResult(
  call: ToolCallEvent,
  answer: CanonicalEvent | undefined,
  text: string,
  path: string,
): ToolResultEvent {
  // A new text replaces the old content blocks (they were that text's); Error: marks a failure, as the protocol says.
  const step = answer?.step ?? call.step + 1;
  return {
    kind: "tool_result",
    step,
    callId: call.callId,
    name: call.name,
    text,
    isError: hasErrorPrefix(text),
    errorSignal: hasErrorPrefix(text) ? "error-prefix" : undefined,
    raw: null,
    path,
  };
}

function collectCallEdits(cut: readonly CanonicalEvent[], edits: readonly ForkEdit[]): Map<string, CallEdit> {
  const byCall = new Map<string, CallEdit>();
  edits.forEach((edit, position) => {
    if (!("call" in edit)) return;
    const path = `edits[${position}].call`;
    if (callEventIndex(cut, edit.call) === -1)
      throw new ForkEditError(path, `no call "${edit.call}" in the first ${cut.length} events`);
    const entry = byCall.get(edit.call) ?? {};
    if ("text" in edit) {
      entry.text = edit.text;
      entry.envelope = undefined;
      entry.textPath = `edits[${position}].text`;
    } else if ("envelope" in edit) {
      entry.envelope = [...(entry.envelope ?? []), edit.envelope];
      entry.textPath ??= `edits[${position}].envelope`;
    } else if ("display_as" in edit) entry.displayAs = edit.display_as;
    else entry.arguments = edit.arguments;
    byCall.set(edit.call, entry);
  });
  return byCall;
}

/**
 * The fork's history at `step` (events 1..step of the original) with `edits` applied, in the original's order:
 * inserted messages follow the event they name, a result given for a call that had none in the cut is appended.
 */
// eslint-disable-next-line max-lines-per-function -- grew past the cap when Prettier wrapped it at 120 columns; split along its seams when next changed
export function applyForkEdits(
  events: readonly CanonicalEvent[],
  step: number,
  edits: readonly ForkEdit[],
): ForkHistory {
  if (step > events.length)
    throw new ForkEditError(
      "step",
      `the thread has ${events.length} replayable events; step must be at most ${events.length}`,
    );
  const cut = events.slice(0, step);
  const callEdits = collectCallEdits(cut, edits);
  const dropped = new Set<number>();
  const inserts = new Map<number, MessageEvent[]>();
  edits.forEach((edit, position) => {
    if ("drop" in edit) {
      if (edit.drop >= step)
        throw new ForkEditError(
          `edits[${position}].drop`,
          `event ${edit.drop} is not among the first ${step} events (indexes 0..${step - 1})`,
        );
      dropped.add(edit.drop);
    } else if ("insert" in edit) {
      const { after, role, text } = edit.insert;
      if (after >= step)
        throw new ForkEditError(
          `edits[${position}].insert.after`,
          `event ${after} is not among the first ${step} events`,
        );
      const neighbour = cut[Math.max(0, after)];
      const message: MessageEvent = {
        kind: "message",
        step: neighbour?.step ?? 0,
        role,
        text,
        raw: null,
        path: `fork.edits[${position}]`,
      };
      inserts.set(after, [...(inserts.get(after) ?? []), message]);
    }
  });
  // Dropping a call drops what answered it: a result for no call would be refused by every API.
  const droppedCalls = new Set(
    cut.flatMap((event, index) => (dropped.has(index) && event.kind === "tool_call" ? [event.callId] : [])),
  );

  const out: CanonicalEvent[] = [...(inserts.get(-1) ?? [])];
  const answered = new Set<string>();
  const calls = new Map<string, ToolCallEvent>();
  cut.forEach((event, index) => {
    const answersDropped =
      (event.kind === "tool_result" || event.kind === "error") &&
      event.callId !== undefined &&
      droppedCalls.has(event.callId);
    if (!dropped.has(index) && !answersDropped) out.push(rewrite(event, index));
    out.push(...(inserts.get(index) ?? []));
  });

  function rewrite(event: CanonicalEvent, index: number): CanonicalEvent {
    if (event.kind === "tool_call") {
      const edit = callEdits.get(event.callId);
      const call = edit?.arguments === undefined ? event : editedCall(event, edit.arguments);
      calls.set(event.callId, call);
      return call;
    }
    if ((event.kind !== "tool_result" && event.kind !== "error") || event.callId === undefined) return event;
    const edit = callEdits.get(event.callId);
    const call = calls.get(event.callId);
    if (
      edit === undefined ||
      call === undefined ||
      answered.has(event.callId) ||
      answerIndex(cut, event.callId, callEventIndex(cut, event.callId)) !== index
    )
      return event;
    answered.add(event.callId);
    if (edit.text === undefined && edit.envelope === undefined) return event;
    const original = event.kind === "tool_result" ? event.text : event.message;
    const text =
      edit.envelope === undefined
        ? (edit.text ?? original)
        : mergedEnvelope(edit.text ?? original, edit.envelope, edit.textPath ?? "edits");
    return editedResult(call, event, text, `fork.${edit.textPath ?? "edits"}`);
  }

  // A result given for a call that had none in the cut answers it at the end of the history.
  for (const [callId, edit] of callEdits) {
    const call = calls.get(callId);
    if (call === undefined || answered.has(callId) || droppedCalls.has(callId)) continue;
    if (answerIndex(cut, callId, callEventIndex(cut, callId)) !== -1) continue;
    if (edit.text === undefined) {
      if (edit.envelope !== undefined || edit.displayAs !== undefined) {
        throw new ForkEditError(
          edit.textPath ?? "edits",
          `call "${callId}" has no result in the first ${step} events; give its whole text with {"call", "text"}`,
        );
      }
      continue;
    }
    const text =
      edit.envelope === undefined ? edit.text : mergedEnvelope(edit.text, edit.envelope, edit.textPath ?? "edits");
    out.push(editedResult(call, undefined, text, `fork.${edit.textPath ?? "edits"}`));
  }

  const displayAs = new Map<string, unknown[] | null>();
  const editedCalls = new Set<string>();
  for (const [callId, edit] of callEdits) {
    if (edit.displayAs !== undefined) displayAs.set(callId, edit.displayAs);
    if (
      edit.text !== undefined ||
      edit.envelope !== undefined ||
      edit.arguments !== undefined ||
      edit.displayAs !== undefined
    )
      editedCalls.add(callId);
  }
  return { events: out, displayAs, editedCalls, pendingCallIds: prepareHistory(out, out.length).pendingCallIds };
}
