// renderHistoryTail: the end of the request a vendor would receive at a step, without rendering every item of a
// 100k-event history (issue 13: the replay page's last step of a 100k-call thread took seconds on the server).
// The cut's bookkeeping (pending calls, events left out of the cut) comes from the whole history; only the
// renderer's work is bounded.
import type { CanonicalEvent, ToolCallEvent, ToolDeclaration } from "../formats/canonical";
import { isRecord } from "../formats/json-fields";
import {
  prepareHistory,
  type HistoryItem,
  type PreparedHistory,
  type RenderOptions,
  type ReplayVendor,
} from "./history";
import { jsonTail } from "./json-tail";
import { renderPrepared, type RenderedHistory } from "./render-history";

/** The array of the request that holds the history, per vendor. */
export const HISTORY_ARRAY_KEY: Record<ReplayVendor, string> = {
  anthropic: "messages",
  "openai-chat": "messages",
  "openai-responses": "input",
  gemini: "contents",
};

export type RenderedTail = RenderedHistory & {
  /**
   * Null when the whole history was rendered. Otherwise the timeline index of the first item rendered after the
   * head: the request's items before it are not in `request` (but for the calls of `partialTurn` kept there), and
   * `skipped` / `adjustments` / `renamedCallIds` cover the rendered items only (pending calls and events left out
   * of the cut cover the whole history).
   */
  renderedFrom: number | null;
  /** The huge model turn rendered in part, or null (see PartialTurn). */
  partialTurn: PartialTurn | null;
};

/**
 * A model turn — a run of tool calls, reasoning and assistant text, nothing in between — holding at least this
 * many calls is rendered in part when the window starts inside it or its results answer calls in it: bench:ui's
 * thread asks for 100k calls in one turn, and rendering that turn whole (the request's last message or the one its
 * results follow) is what made a step take seconds.
 */
export const PARTIAL_TURN_CALLS = 100;

/**
 * What a partly rendered turn kept and left out. Kept: the calls that rendered results answer (so every result in
 * the request pairs with a call in it) and the turn's items from `renderedFrom` on (the calls still pending at
 * the step among them); the head's opening item when it is the turn's first. Left out: every other item of the
 * turn before `renderedFrom`. The pending list and its count still cover the whole history.
 */
export type PartialTurn = {
  /** Timeline index of the turn's first event. */
  first: number;
  /** The turn's tool calls in the cut. */
  calls: number;
  /** Those in the request. */
  shownCalls: number;
  /** Those left out (calls − shownCalls). */
  omittedCalls: number;
  /** Its reasoning and assistant text before `renderedFrom`, left out. */
  omittedOther: number;
};

/**
 * Where the rendered window may start so that it is self-contained: every result in it pairs with a call in it
 * (a renderer places a result right after its call's turn, however far back that is), so the window's end is
 * rendered exactly as in the whole request. 0 when a result answers a call that is not among `items` (a call
 * read from before a window for a partial turn): only the whole history holds it.
 */
function windowStart(items: readonly HistoryItem[], wanted: number): number {
  const position = callPositions(items);
  let start = Math.max(0, items.length - wanted);
  let scannedFrom = items.length;
  while (start > 0) {
    let lowest = start;
    for (let k = start; k < scannedFrom; k++) {
      const call = items[k]?.call;
      if (call === undefined) continue;
      const at = position.get(call);
      if (at === undefined) return 0;
      if (at < lowest) lowest = at;
    }
    if (lowest >= start) return start;
    scannedFrom = start;
    start = lowest;
  }
  return 0;
}

function callPositions(items: readonly HistoryItem[]): Map<ToolCallEvent, number> {
  const position = new Map<ToolCallEvent, number>();
  items.forEach((item, index) => {
    if (item.event.kind === "tool_call") position.set(item.event, index);
  });
  return position;
}

function historyItems(request: unknown, vendor: ReplayVendor): unknown[] {
  const items = isRecord(request) ? request[HISTORY_ARRAY_KEY[vendor]] : undefined;
  return Array.isArray(items) ? items : [];
}

/**
 * Whether the request's items after the first `cut` hold what is shown of the request: more than `minItems`
 * of them, or at least `minChars` characters of pretty JSON (counted one level less indented than in the
 * request, so fewer than there: the shown end of the JSON lies in them either way).
 */
function holdsShownEnd(
  items: readonly unknown[],
  cut: number,
  options: { minItems: number; minChars?: number },
): boolean {
  if (items.length > options.minItems + cut) return true;
  return options.minChars !== undefined && !jsonTail(items.slice(cut), options.minChars).complete;
}

/**
 * What the caller shows of the request: its last `minItems` history items, or the last `minChars` characters of its
 * pretty JSON when those are fewer (the replay page: 60 items, 100,000 characters). The rendered window holds
 * at least that much beyond its possibly cut first turn.
 */
export type ShownEnd = { minItems: number; minChars?: number };

/**
 * The model turn that the item right before a window belongs to, or whose calls results in the window answer,
 * when it starts before the window (read in SQL: lib/traces/replay-window.ts). Absent when the item before the
 * window is not model output and no result in the window answers a call before it.
 */
export type TurnBefore = {
  /** Timeline index of its first item. */
  first: number;
  /** Whether the item right before the window is in it; if not, only results lie between its end and the window. */
  open: boolean;
  /** Its tool calls before the window. */
  calls: number;
  /** Its reasoning and assistant text before the window. */
  others: number;
  /**
   * Its calls before the window that results in the window (up to the step) answer — none of them answered before
   * the window — with their timeline indexes, in order. Every result in the window answering a call before it
   * answers one of these.
   */
  answered: { index: number; event: ToolCallEvent }[];
};

/**
 * What a window of the timeline needs to know about the history before it (the replay step view reads only a
 * window of a big thread): the count of history items before it, the head items among them (every system message
 * and the first other item, with their timeline indexes) and the calls still unanswered at the step among them (the
 * first ones; the caller keeps the count). Only valid when prepareHistory skipped and adjusted nothing before the
 * window and every result inside the window answering a call before it answers one of `turn.answered`: the
 * window's own prepared history is then the whole history's, cut.
 */
export type HistoryBefore = { items: number; head: HistoryItem[]; pendingCallIds: string[]; turn?: TurnBefore };

/**
 * Renders the history at `step` from a window of at least `minItems` request items at its end (growing the window
 * until the request has that many beyond the head, or the window is the whole history). The head — every system
 * message before the window and the first other item — is rendered first, so system prompts and the opening turn (and the
 * placeholder-turn adjustment it may need) are what the whole request would have. A huge turn the window reaches
 * into is rendered in part (PartialTurn).
 */
export function renderHistoryTail(
  events: readonly CanonicalEvent[],
  step: number,
  vendor: ReplayVendor,
  declarations: readonly ToolDeclaration[],
  options: RenderOptions & ShownEnd,
): RenderedTail {
  const rendered = renderTail(
    prepareHistory(events, step),
    { items: 0, head: [], pendingCallIds: [] },
    [],
    vendor,
    declarations,
    options,
  );
  if ("needItems" in rendered) throw new Error("unreachable: the whole history is at hand");
  return rendered;
}

/**
 * renderHistoryTail for `events` = timeline[offset .. offset + events.length) of a longer timeline, with what
 * `before` says about timeline[0 .. offset). When the result needs items before the window, how many history
 * items the window must hold (Infinity: the whole history must be rendered): the caller reads more.
 */
export function renderWindowTail(
  events: readonly CanonicalEvent[],
  offset: number,
  step: number,
  before: HistoryBefore,
  vendor: ReplayVendor,
  declarations: readonly ToolDeclaration[],
  options: RenderOptions & ShownEnd,
): RenderedTail | { needItems: number } {
  // The calls before the window that its results answer go first, so that prepareHistory pairs those results; they
  // are kept apart from the window's items afterwards (the partial turn places them).
  const answered = before.turn?.answered ?? [];
  const local = prepareHistory([...answered.map((call) => call.event), ...events], answered.length + step - offset);
  const indexOf = (index: number) =>
    index < answered.length ? (answered[index]?.index ?? index) : index - answered.length + offset;
  const reindexed = local.items.map((item) => ({ ...item, index: indexOf(item.index) }));
  const prepared: PreparedHistory = {
    items: reindexed.filter((_, k) => (local.items[k]?.index ?? 0) >= answered.length),
    pendingCallIds: [...before.pendingCallIds, ...local.pendingCallIds],
    skipped: local.skipped.map((skipped) => ({ ...skipped, index: indexOf(skipped.index) })),
    adjustments: local.adjustments.map((adjustment) =>
      adjustment.index === null ? adjustment : { ...adjustment, index: indexOf(adjustment.index) },
    ),
  };
  const outside = reindexed.filter((_, k) => (local.items[k]?.index ?? 0) < answered.length);
  return renderTail(prepared, before, outside, vendor, declarations, options);
}

function renderTail(
  prepared: PreparedHistory,
  before: HistoryBefore,
  outside: readonly HistoryItem[],
  vendor: ReplayVendor,
  declarations: readonly ToolDeclaration[],
  options: RenderOptions & ShownEnd,
): RenderedTail | { needItems: number } {
  // Positions are the whole history's: `before.items` items precede prepared.items.
  const items = prepared.items;
  const total = before.items + items.length;
  const whole = () =>
    before.items > 0
      ? { needItems: Infinity }
      : { ...sorted(renderPrepared(prepared, vendor, declarations, options)), renderedFrom: null, partialTurn: null };
  for (let wanted = options.minItems * 8; ;) {
    if (before.items > 0 && items.length < wanted) return { needItems: wanted };
    const cut = Math.max(0, items.length - wanted);
    const plan = planPartialTurn(items, cut, before, outside);
    if (plan !== null) {
      const rendered = renderPrepared(
        { ...prepared, items: [...plan.kept, ...items.slice(cut)] },
        vendor,
        declarations,
        options,
      );
      return { ...sorted(rendered), renderedFrom: items[cut]?.index ?? null, partialTurn: plan.turn };
    }
    const start = before.items + windowStart(items, wanted);
    // A window that must reach back over most of the history (results answering calls far back) saves little:
    // render it whole once rather than window after growing window.
    if (start === 0 || start < total / 2) return whole();
    const head = headOf([...before.head, ...items.slice(0, start - before.items)]);
    const window: PreparedHistory = { ...prepared, items: [...head, ...items.slice(start - before.items)] };
    const rendered = renderPrepared(window, vendor, declarations, options);
    // The window's first turn may be cut (its earlier items are outside): enough items must follow it.
    if (holdsShownEnd(historyItems(rendered.request, vendor), head.length + 1, options))
      return { ...sorted(rendered), renderedFrom: items[start - before.items]?.index ?? null, partialTurn: null };
    wanted = Math.max(wanted, total - start) * 4;
  }
}

const isSystem = (item: HistoryItem) => item.event.kind === "message" && item.event.role === "system";
/** Model output: what one assistant turn is made of. */
const isOutput = (item: HistoryItem | undefined) =>
  item !== undefined &&
  (item.event.kind === "tool_call" ||
    item.event.kind === "reasoning" ||
    (item.event.kind === "message" && item.event.role === "assistant"));

/** The head rendered before a window: every system message before it and the first other item. */
function headOf(earlier: readonly HistoryItem[]): HistoryItem[] {
  const opening = earlier.find((item) => !isSystem(item));
  return earlier.filter((item) => isSystem(item) || item === opening);
}

/**
 * The partial rendering of a huge turn, when the window items[cut..] reaches into one (PARTIAL_TURN_CALLS): it
 * starts inside the turn, or its results answer calls of the turn before the cut — all of them in that one turn,
 * with nothing but results between the turn's end and the cut and the cut itself a result answering one of its
 * calls (the request is then the whole request with the left-out items taken away: results of the turn land in the
 * message right after it either way). `kept`: the head and the turn's calls the window answers, in timeline
 * order. Null when the window does not reach into a huge turn that way.
 */
function planPartialTurn(
  items: readonly HistoryItem[],
  cut: number,
  before: HistoryBefore,
  outside: readonly HistoryItem[],
): { kept: HistoryItem[]; turn: PartialTurn } | null {
  if (items.length === 0 || (cut === 0 && before.items === 0)) return null;
  const position = callPositions(items);
  const outsideItem = new Map(outside.map((item) => [item.event, item]));
  // The calls before the cut that results from the cut on answer: a local position, or -1 (read from before the window).
  const answered = new Map<ToolCallEvent, number>();
  for (let k = cut; k < items.length; k++) {
    const call = items[k]?.call;
    if (call === undefined) continue;
    const at = position.get(call) ?? (outsideItem.has(call) ? -1 : undefined);
    if (at === undefined) return null;
    if (at < cut) answered.set(call, at);
  }
  const turnBefore = before.items > 0 ? before.turn : undefined;
  const runsIn = isOutput(items[cut]) && (cut > 0 ? isOutput(items[cut - 1]) : turnBefore?.open === true);
  // The turn: the one running across the cut, else the one holding the latest call answered (local, else before the window).
  let anchor: number | null;
  if (runsIn) anchor = cut - 1;
  else if (answered.size > 0) anchor = Math.max(...answered.values());
  else return null;
  let firstLocal = anchor;
  while (firstLocal > 0 && isOutput(items[firstLocal - 1])) firstLocal -= 1;
  // The turn began before the window: its first item and counts there come from `before.turn`.
  const beganBefore = anchor < 0 || (firstLocal === 0 && turnBefore?.open === true && isOutput(items[0]));
  if (beganBefore && turnBefore === undefined) return null;
  if (anchor < 0) firstLocal = 0;
  // Its last item in the window (-1: it ended before the window).
  let lastLocal = anchor >= 0 || (turnBefore?.open === true && isOutput(items[0])) ? Math.max(0, anchor) : -1;
  if (lastLocal >= 0) while (isOutput(items[lastLocal + 1])) lastLocal += 1;
  // Every answered call is in the turn.
  for (const at of answered.values()) if (at < 0 ? !beganBefore : at < firstLocal || at > lastLocal) return null;
  if (!runsIn) {
    // Only results between the turn's end and the cut (before the window, replay-window made sure of it), and the
    // cut opens with a result answering the turn: the message after the turn exists in both requests.
    for (let k = Math.max(0, lastLocal + 1); k < cut; k++) if (items[k]?.event.kind !== "tool_result") return null;
    const first = items[cut]?.call;
    if (first === undefined || !answered.has(first)) return null;
  }
  const count = (from: number, to: number, calls: boolean) => {
    let n = 0;
    for (let k = from; k <= to; k++) if (isOutput(items[k]) && (items[k]?.event.kind === "tool_call") === calls) n += 1;
    return n;
  };
  const callsBeforeCut =
    (beganBefore ? (turnBefore?.calls ?? 0) : 0) + count(firstLocal, Math.min(lastLocal, cut - 1), true);
  const othersBeforeCut =
    (beganBefore ? (turnBefore?.others ?? 0) : 0) + count(firstLocal, Math.min(lastLocal, cut - 1), false);
  const calls = callsBeforeCut + count(cut, lastLocal, true);
  if (calls < PARTIAL_TURN_CALLS) return null;
  const first = beganBefore ? (turnBefore?.first ?? 0) : (items[firstLocal]?.index ?? 0);

  // The head, then the answered calls (the item results pair with wins where the head's opening is one of them).
  const byIndex = new Map<number, HistoryItem>();
  for (const item of headOf([...before.head, ...items.slice(0, cut)])) byIndex.set(item.index, item);
  for (const [call, at] of answered) {
    const item = at < 0 ? outsideItem.get(call) : items[at];
    if (item !== undefined) byIndex.set(item.index, item);
  }
  const kept = [...byIndex.values()].sort((a, b) => a.index - b.index);
  const cutIndex = items[cut]?.index ?? Infinity;
  const inTurn = kept.filter((item) => item.index >= first && item.index < cutIndex && isOutput(item));
  const shownBeforeCut = inTurn.filter((item) => item.event.kind === "tool_call").length;
  const omittedCalls = callsBeforeCut - shownBeforeCut;
  const omittedOther = othersBeforeCut - (inTurn.length - shownBeforeCut);
  return { kept, turn: { first, calls, shownCalls: calls - omittedCalls, omittedCalls, omittedOther } };
}

function sorted(rendered: RenderedHistory): RenderedHistory {
  rendered.skipped.sort((a, b) => a.index - b.index || (a.part ?? -1) - (b.part ?? -1));
  return rendered;
}
