// The replay step view's trace for a live thread, read as a window around step N instead of the whole thread
// (issue 13: the first request for a step of a 100k-call thread read and converted every event, 2–4 s, and a
// thread still receiving events did it again on every request). The canonical events [offset, offset + n) are
// read and converted as toCanonicalTimeline would; what the view needs from the rows before them (the event
// count, declarations, omitted rows, pending calls, the request's head) is counted in SQL
// (repository/replay-window-reads.ts). Null wherever that would not give exactly the whole trace's view:
// imported or forked threads (their events' fields live in dataJson), calls recorded twice, anything
// prepareHistory would skip or adjust before the window, a step whose request must be rendered whole.
import "server-only";
import type { Database } from "../db/client.ts";
import type { CanonicalEvent, ToolDeclaration } from "../formats/canonical.ts";
import type { HistoryItem } from "../replay/history.ts";
import type { HistoryBefore } from "../replay/render-window.ts";
import { declarationsOfCalls, toCanonicalTimeline } from "./canonical-timeline.ts";
import {
  callStepRow,
  canonicalRowAt,
  canonicalRowBack,
  countCanonical,
  countRowsBefore,
  earliestCallAnsweredIn,
  firstDeclaringCalls,
  firstOpeningRow,
  prefixFacts,
  readCallsById,
  readResultsById,
  systemMessagesBefore,
  threadFacts,
} from "./repository/replay-window-reads.ts";
import { readEventRange } from "./repository/timeline-reads.ts";

/** Canonical events read before step N at first: the rendered window wants 8 × 60 history items, 4 × that when turns are long. */
const FIRST_WINDOW = 2_000;
/** Beyond this many events before step N the window is not worth it (results answering calls far back). */
const MAX_WINDOW = 20_000;
/** System messages before the window carried in the request's head. */
const MAX_HEAD = 200;

export type ReplayWindow = {
  total: number;
  step: number;
  declarations: ToolDeclaration[];
  omitted: Record<string, number>;
  /** Canonical events [offset, offset + events.length): from before step N's window to N + `after`. */
  offset: number;
  events: CanonicalEvent[];
  before: HistoryBefore & { pendingTotal: number; pendingNames: Map<string, string> };
  /** Reads a longer window holding `items` history items before step N at least; null past MAX_WINDOW. */
  widen(items: number): Promise<ReplayWindow | null>;
};

type Thread = { id: number };

/** Row id of canonical event `index` of the `total` up to row `lastRow`, counted from the nearer end. */
async function rowAt(db: Database, threadId: number, index: number, total: number, lastRow: number): Promise<number | null> {
  if (index < total / 2) return canonicalRowAt(db.client, threadId, index);
  return canonicalRowBack(db.client, threadId, lastRow, total - 1 - index);
}

/** The step `?call=` opens (replay-step's stepOfCall over the canonical events), or undefined. */
async function stepOfCall(db: Database, threadId: number, callKey: string): Promise<number | undefined> {
  const row = await callStepRow(db.client, threadId, callKey);
  return row === null ? undefined : (await countCanonical(db.client, threadId, row.id)) + 1;
}

async function declarations(db: Database, threadId: number): Promise<ToolDeclaration[]> {
  let calls = await firstDeclaringCalls(db.client, threadId);
  for (;;) {
    const found = declarationsOfCalls(calls);
    const missing = new Map<string, number>();
    for (const call of calls) if (!found.some((declaration) => declaration.name === call.toolName)) missing.set(call.toolName, Math.max(call.id, missing.get(call.toolName) ?? 0));
    if (missing.size === 0) return found;
    const next = await firstDeclaringCalls(db.client, threadId, missing);
    if (next.length === 0) return found;
    calls = [...calls, ...next].sort((a, b) => a.id - b.id);
  }
}

/** Rows [fromId, toId] as canonical events, with their whole-thread paths. */
async function readCanonical(db: Database, threadId: number, fromId: number, toId: number): Promise<CanonicalEvent[]> {
  const rows = await readEventRange(db.client, threadId, fromId, toId);
  const calls = await readCallsById(db.client, threadId, rows.flatMap((row) => (row.toolCallId === null ? [] : [row.toolCallId])));
  const results = await readResultsById(db.client, threadId, rows.flatMap((row) => (row.resultId === null ? [] : [row.resultId])));
  const firstPosition = rows[0] === undefined ? 0 : await countRowsBefore(db.client, threadId, rows[0].id);
  return toCanonicalTimeline({ events: rows, calls, results, firstPosition }).events;
}

/** The head items before the window: its system messages and the request's opening item, at their indexes. */
async function headBefore(db: Database, threadId: number, beforeId: number): Promise<HistoryItem[] | null> {
  const system = await systemMessagesBefore(db.client, threadId, beforeId, MAX_HEAD);
  if (system.length > MAX_HEAD) return null;
  const opening = await firstOpeningRow(db.client, threadId);
  const ids = [...system, ...(opening !== null && opening < beforeId ? [opening] : [])].sort((a, b) => a - b);
  const head: HistoryItem[] = [];
  for (const id of ids) {
    const [event] = await readCanonical(db, threadId, id, id);
    if (event === undefined || (event.kind !== "message" && event.kind !== "reasoning" && event.kind !== "tool_call")) return null;
    head.push({ index: await countCanonical(db.client, threadId, id), event });
  }
  return head;
}

/**
 * The window for the view at `options.step` (or `options.call`, or the last step) with `after` events past it,
 * or null when the thread is not one a window can render exactly (see the file comment).
 */
export async function readReplayWindow(
  db: Database,
  thread: Thread,
  options: { step?: number; call?: string; after: number; pendingShown: number },
): Promise<ReplayWindow | null> {
  const threadId = thread.id;
  const facts = await threadFacts(db.client, threadId);
  if (!facts.plain) return null;
  const { total } = facts;
  const wanted = options.step ?? (options.call === undefined ? undefined : await stepOfCall(db, threadId, options.call));
  const step = Math.min(total, Math.max(0, wanted ?? total));
  const end = Math.min(total, step + options.after);
  const common = { total, step, declarations: await declarations(db, threadId), omitted: facts.omitted };
  const empty = { items: 0, head: [], pendingCallIds: [], pendingTotal: 0, pendingNames: new Map<string, string>() };
  if (end === 0) return { ...common, offset: 0, events: [], before: empty, widen: () => Promise.resolve(null) };
  const endRow = await rowAt(db, threadId, end - 1, total, facts.lastRow);
  const stepRow = step === 0 ? null : await rowAt(db, threadId, step - 1, total, facts.lastRow);
  if (endRow === null) return null;

  const read = async (back: number): Promise<ReplayWindow | null> => {
    // The window's first row: `back` canonical events before step N, moved back until no result inside answers
    // a call before it (prepareHistory pairs a result with its call however far back).
    let startRow = stepRow === null || step <= back ? null : await canonicalRowBack(db.client, threadId, stepRow, back);
    let offset = startRow === null ? 0 : step - 1 - back;
    while (startRow !== null && stepRow !== null && offset > 0) {
      const call = await earliestCallAnsweredIn(db.client, threadId, startRow, stepRow);
      if (call === null) break;
      offset -= await countCanonical(db.client, threadId, startRow, call);
      startRow = call;
    }
    if (step - offset > MAX_WINDOW) return null;
    // Canonical events hold at least as many items: a little more, so skipped events rarely cost another round.
    const widen = (items: number) => (offset === 0 || !Number.isFinite(items) ? Promise.resolve(null) : read(Math.max(step - offset + 1, Math.ceil(items * 1.05) + 50)));
    if (startRow === null || offset === 0) {
      const events = await readCanonical(db, threadId, 0, endRow);
      return events.length === end ? { ...common, offset: 0, events, before: empty, widen } : null;
    }
    const prefix = await prefixFacts(db.client, threadId, startRow, options.pendingShown);
    if (!prefix.allItems) return null;
    const head = await headBefore(db, threadId, startRow);
    if (head === null) return null;
    const events = await readCanonical(db, threadId, startRow, endRow);
    // Rows the counts did not see (a thread rewritten meanwhile): the whole trace answers instead.
    if (events.length !== end - offset) return null;
    const pendingCallIds = prefix.pending.map((call) => call.callKey);
    const before = { items: offset, head, pendingCallIds, pendingTotal: prefix.pendingTotal, pendingNames: new Map(prefix.pending.map((call) => [call.callKey, call.toolName])) };
    return { ...common, offset, events, before, widen };
  };
  return read(FIRST_WINDOW);
}
