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
import { PARTIAL_TURN_CALLS, type HistoryBefore, type TurnBefore } from "../replay/render-window.ts";
import { declarationsOfCalls, toCanonicalTimeline } from "./canonical-timeline.ts";
import {
  callStepRow,
  canonicalRowAt,
  canonicalRowBack,
  canonicalRowBefore,
  countCanonical,
  countRowsBefore,
  firstDeclaringCalls,
  firstOpeningRow,
  prefixFacts,
  readCallsById,
  readEventsById,
  readResultsById,
  systemMessagesBefore,
  threadFacts,
  type ThreadSpan,
} from "./repository/replay-window-reads.ts";
import { callRowsBack, callsAnsweredIn, turnAround, type TurnRows } from "./repository/replay-turn-reads.ts";
import { readEventRange, type TimelineCall } from "./repository/timeline-reads.ts";

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

/** Row id of canonical event `index` of the thread's `total`, counted from the nearer end. */
async function rowAt(db: Database, span: ThreadSpan, index: number): Promise<number | null> {
  if (index < span.total / 2) return canonicalRowAt(db.client, span, index);
  return canonicalRowBack(db.client, span, span.lastRow, span.total - 1 - index);
}

/** The step `?call=` opens (replay-step's stepOfCall over the canonical events), or undefined. */
async function stepOfCall(db: Database, span: ThreadSpan, callKey: string): Promise<number | undefined> {
  const row = await callStepRow(db.client, span.threadId, callKey);
  return row === null ? undefined : (await countCanonical(db.client, span, row.id)) + 1;
}

async function declarations(db: Database, threadId: number): Promise<ToolDeclaration[]> {
  let calls = await firstDeclaringCalls(db.client, threadId);
  for (;;) {
    const found = declarationsOfCalls(calls);
    const missing = new Map<string, number>();
    for (const call of calls)
      if (!found.some((declaration) => declaration.name === call.toolName))
        missing.set(call.toolName, Math.max(call.id, missing.get(call.toolName) ?? 0));
    if (missing.size === 0) return found;
    const next = await firstDeclaringCalls(db.client, threadId, missing);
    if (next.length === 0) return found;
    calls = [...calls, ...next].sort((a, b) => a.id - b.id);
  }
}

/** Rows [fromId, toId] as canonical events, with their whole-thread paths (rows before the first: `firstPosition`). */
async function readCanonical(
  db: Database,
  span: ThreadSpan,
  fromId: number,
  toId: number,
): Promise<{ events: CanonicalEvent[]; firstPosition: number; calls: TimelineCall[] }> {
  const { threadId } = span;
  const rows = await readEventRange(db.client, threadId, fromId, toId);
  const calls = await readCallsById(
    db.client,
    threadId,
    rows.flatMap((row) => (row.toolCallId === null ? [] : [row.toolCallId])),
  );
  const results = await readResultsById(
    db.client,
    new Set(calls.map((call) => call.id)),
    rows.flatMap((row) => (row.resultId === null ? [] : [row.resultId])),
  );
  const firstPosition = await countRowsBefore(db.client, span, rows[0]?.id ?? fromId);
  return { events: toCanonicalTimeline({ events: rows, calls, results, firstPosition }).events, firstPosition, calls };
}

/**
 * The turn a window starting at row `startRow` (canonical event `offset`, row position `startPosition`) reaches
 * into: the huge one whose calls (`answered`, tool_call rows) its results answer, read with those calls; else the
 * one the row before the window belongs to, if that row is model output. Null when a call cannot be read as one.
 */
async function turnBefore(
  db: Database,
  span: ThreadSpan,
  window: { startRow: number; offset: number; startPosition: number; calls: readonly TimelineCall[] },
  partial: { turn: TurnRows; answered: number[] } | null,
): Promise<TurnBefore | undefined | null> {
  if (partial === null) {
    const previous = await canonicalRowBefore(db.client, span, window.startRow);
    if (previous === null || !previous.output) return undefined;
    const turn = await turnAround(db.client, span, previous.id, window.startRow);
    return { first: turn.first, open: true, calls: turn.calls, others: turn.others, answered: [] };
  }
  const { turn, answered } = partial;
  const back = await callRowsBack(db.client, span, answered[0] ?? window.startRow, window.startRow);
  const rows = await readEventsById(db.client, span.threadId, answered);
  // The window's results name these calls: most were read with the window already.
  const calls = new Map(window.calls.map((call) => [call.id, call]));
  const missing = rows.flatMap((row) => (row.toolCallId === null || calls.has(row.toolCallId) ? [] : [row.toolCallId]));
  for (const call of await readCallsById(db.client, span.threadId, missing)) calls.set(call.id, call);
  const read: TurnBefore["answered"] = [];
  for (const row of rows) {
    const counted = back.get(row.id);
    const call = row.toolCallId === null ? undefined : calls.get(row.toolCallId);
    if (counted === undefined || call === undefined) return null;
    const [event] = toCanonicalTimeline({
      events: [row],
      calls: [call],
      results: [],
      firstPosition: window.startPosition - counted.rows,
    }).events;
    if (event?.kind !== "tool_call") return null;
    read.push({ index: window.offset - counted.canonical, event });
  }
  return { first: turn.first, open: turn.open, calls: turn.calls, others: turn.others, answered: read };
}

/** The head items before the window: its system messages and the request's opening item, at their indexes. */
async function headBefore(db: Database, span: ThreadSpan, beforeId: number): Promise<HistoryItem[] | null> {
  const system = await systemMessagesBefore(db.client, span.threadId, beforeId, MAX_HEAD);
  if (system.length > MAX_HEAD) return null;
  const opening = await firstOpeningRow(db.client, span.threadId, beforeId);
  const ids = [...system, ...(opening === null ? [] : [opening])].sort((a, b) => a - b);
  const head: HistoryItem[] = [];
  for (const id of ids) {
    const [event] = (await readCanonical(db, span, id, id)).events;
    if (event === undefined || (event.kind !== "message" && event.kind !== "reasoning" && event.kind !== "tool_call"))
      return null;
    head.push({ index: await countCanonical(db.client, span, id), event });
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
  const span: ThreadSpan = { threadId, firstRow: facts.firstRow, lastRow: facts.lastRow, rows: facts.rows, total };
  const wanted = options.step ?? (options.call === undefined ? undefined : await stepOfCall(db, span, options.call));
  const step = Math.min(total, Math.max(0, wanted ?? total));
  const end = Math.min(total, step + options.after);
  const common = { total, step, declarations: await declarations(db, threadId), omitted: facts.omitted };
  const empty = { items: 0, head: [], pendingCallIds: [], pendingTotal: 0, pendingNames: new Map<string, string>() };
  if (end === 0) return { ...common, offset: 0, events: [], before: empty, widen: () => Promise.resolve(null) };
  const endRow = await rowAt(db, span, end - 1);
  if (endRow === null) return null;
  // Step N's row, counted back from the window's end (a short walk, where counting from a thread end is not).
  const stepRow = step === 0 ? null : await canonicalRowBack(db.client, span, endRow, end - step);

  const read = async (back: number): Promise<ReplayWindow | null> => {
    // The window's first row: `back` canonical events before step N, moved back until no result inside answers
    // a call before it (prepareHistory pairs a result with its call however far back) — unless those calls lie
    // more than a first window back, all in one huge turn with nothing but answers after it: the turn is rendered
    // in part, its answered calls read on their own (render-window's PartialTurn).
    let startRow = stepRow === null || step <= back ? null : await canonicalRowBack(db.client, span, stepRow, back);
    let offset = startRow === null ? 0 : step - 1 - back;
    let partial: { turn: TurnRows; answered: number[] } | null = null;
    while (startRow !== null && stepRow !== null && offset > 0) {
      const answered = await callsAnsweredIn(db.client, span, startRow, stepRow);
      const earliest = answered[0]?.callRow;
      if (earliest === undefined) break;
      const distance = await countCanonical(db.client, span, startRow, earliest);
      if (distance > FIRST_WINDOW) {
        const turn = await turnAround(db.client, span, earliest, startRow);
        const inTurn =
          (answered.at(-1)?.callRow ?? earliest) <= turn.lastRow && !answered.some((call) => call.answeredBefore);
        if (turn.calls >= PARTIAL_TURN_CALLS && inTurn && turn.answersAfter) {
          partial = { turn, answered: answered.map((call) => call.callRow) };
          break;
        }
      }
      offset -= distance;
      startRow = earliest;
    }
    if (step - offset > MAX_WINDOW) return null;
    // Canonical events hold at least as many items: a little more, so skipped events rarely cost another round.
    const widen = (items: number) =>
      offset === 0 || !Number.isFinite(items)
        ? Promise.resolve(null)
        : read(Math.max(step - offset + 1, Math.ceil(items * 1.05) + 50));
    if (startRow === null || stepRow === null || offset === 0) {
      const { events } = await readCanonical(db, span, span.firstRow, endRow);
      return events.length === end ? { ...common, offset: 0, events, before: empty, widen } : null;
    }
    const prefix = await prefixFacts(db.client, threadId, {
      beforeId: startRow,
      stepRow,
      limit: options.pendingShown,
      answersPair: facts.answersPair,
    });
    if (!prefix.allItems) return null;
    const head = await headBefore(db, span, startRow);
    if (head === null) return null;
    const { events, firstPosition, calls } = await readCanonical(db, span, startRow, endRow);
    // Rows the counts did not see (a thread rewritten meanwhile): the whole trace answers instead.
    if (events.length !== end - offset) return null;
    const turn = await turnBefore(db, span, { startRow, offset, startPosition: firstPosition, calls }, partial);
    if (turn === null) return null;
    const pendingCallIds = prefix.pending.map((call) => call.callKey);
    // The calls before the window that its results answer are not pending at the step.
    const pendingTotal = prefix.pendingTotal - (turn?.answered.length ?? 0);
    const before = {
      items: offset,
      head,
      pendingCallIds,
      pendingTotal,
      pendingNames: new Map(prefix.pending.map((call) => [call.callKey, call.toolName])),
      ...(turn === undefined ? {} : { turn }),
    };
    return { ...common, offset, events, before, widen };
  };
  return read(FIRST_WINDOW);
}
