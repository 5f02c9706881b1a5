// renderHistoryTail: the end of the request a vendor would receive at a step, without rendering every item of a
// 100k-event history (issue 13: the replay page's last step of a 100k-call thread took seconds on the server).
// The cut's bookkeeping (pending calls, events left out of the cut) comes from the whole history; only the
// renderer's work is bounded.
import type { CanonicalEvent, ToolDeclaration } from "../formats/canonical";
import { isRecord } from "../formats/json-fields";
import { prepareHistory, type HistoryItem, type PreparedHistory, type RenderOptions, type ReplayVendor } from "./history";
import { renderPrepared, type RenderedHistory } from "./render-history";

/** The array of the request that holds the history, per vendor. */
export const HISTORY_ARRAY_KEY: Record<ReplayVendor, string> = { anthropic: "messages", "openai-chat": "messages", "openai-responses": "input", gemini: "contents" };

export type RenderedTail = RenderedHistory & {
  /**
   * Null when the whole history was rendered. Otherwise the timeline index of the first item rendered after the
   * head: the request's items before it are not in `request`, and `skipped` / `adjustments` / `renamedCallIds`
   * cover the rendered items only (pending calls and events left out of the cut cover the whole history).
   */
  renderedFrom: number | null;
};

/**
 * Where the rendered window may start so that it is self-contained: every result in it pairs with a call in it
 * (a renderer places a result right after its call's turn, however far back that is), so the window's end is
 * rendered exactly as in the whole request.
 */
function windowStart(items: readonly HistoryItem[], wanted: number): number {
  const position = new Map<HistoryItem["event"], number>();
  items.forEach((item, index) => {
    if (item.event.kind === "tool_call") position.set(item.event, index);
  });
  let start = Math.max(0, items.length - wanted);
  let scannedFrom = items.length;
  while (start > 0) {
    let lowest = start;
    for (let k = start; k < scannedFrom; k++) {
      const call = items[k]?.call;
      const at = call === undefined ? undefined : position.get(call);
      if (at !== undefined && at < lowest) lowest = at;
    }
    if (lowest >= start) return start;
    scannedFrom = start;
    start = lowest;
  }
  return 0;
}

function itemCount(request: unknown, vendor: ReplayVendor): number {
  const items = isRecord(request) ? request[HISTORY_ARRAY_KEY[vendor]] : undefined;
  return Array.isArray(items) ? items.length : 0;
}

/**
 * What a window of the timeline needs to know about the history before it (the replay step view reads only a
 * window of a big thread): the count of history items before it, the head items among them (every system message
 * and the first other item, with their timeline indexes) and the calls still unanswered there (the first ones;
 * the caller keeps the count). Only valid when prepareHistory skipped and adjusted nothing before the window
 * and no result inside the window answers a call before it: the window's own prepared history is then the
 * whole history's, cut.
 */
export type HistoryBefore = { items: number; head: HistoryItem[]; pendingCallIds: string[] };

/**
 * Renders the history at `step` from a window of at least `minItems` request items at its end (growing the window
 * until the request has that many beyond the head, or the window is the whole history). The head — every system
 * message before the window and the first other item — is rendered first, so system prompts and the opening turn (and the
 * placeholder-turn adjustment it may need) are what the whole request would have.
 */
export function renderHistoryTail(
  events: readonly CanonicalEvent[],
  step: number,
  vendor: ReplayVendor,
  declarations: readonly ToolDeclaration[],
  options: RenderOptions & { minItems: number },
): RenderedTail {
  const rendered = renderTail(prepareHistory(events, step), { items: 0, head: [], pendingCallIds: [] }, vendor, declarations, options);
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
  options: RenderOptions & { minItems: number },
): RenderedTail | { needItems: number } {
  const local = prepareHistory(events, step - offset);
  const prepared: PreparedHistory = {
    items: local.items.map((item) => ({ ...item, index: item.index + offset })),
    pendingCallIds: [...before.pendingCallIds, ...local.pendingCallIds],
    skipped: local.skipped.map((skipped) => ({ ...skipped, index: skipped.index + offset })),
    adjustments: local.adjustments.map((adjustment) => (adjustment.index === null ? adjustment : { ...adjustment, index: adjustment.index + offset })),
  };
  return renderTail(prepared, before, vendor, declarations, options);
}

function renderTail(
  prepared: PreparedHistory,
  before: HistoryBefore,
  vendor: ReplayVendor,
  declarations: readonly ToolDeclaration[],
  options: RenderOptions & { minItems: number },
): RenderedTail | { needItems: number } {
  // Positions are the whole history's: `before.items` items precede prepared.items.
  const items = prepared.items;
  const total = before.items + items.length;
  const whole = () => (before.items > 0 ? { needItems: Infinity } : { ...sorted(renderPrepared(prepared, vendor, declarations, options)), renderedFrom: null });
  for (let wanted = options.minItems * 8; ; ) {
    if (before.items > 0 && items.length < wanted) return { needItems: wanted };
    const start = before.items + windowStart(items, wanted);
    // A window that must reach back over most of the history (results answering calls far back) saves little:
    // render it whole once rather than window after growing window.
    if (start === 0 || start < total / 2) return whole();
    const isSystem = (item: HistoryItem) => item.event.kind === "message" && item.event.role === "system";
    const earlier = [...before.head, ...items.slice(0, start - before.items)];
    const opening = earlier.find((item) => !isSystem(item));
    const head = earlier.filter((item) => isSystem(item) || item === opening);
    const window: PreparedHistory = { ...prepared, items: [...head, ...items.slice(start - before.items)] };
    const rendered = renderPrepared(window, vendor, declarations, options);
    // The window's first turn may be cut (its earlier items are outside): enough items must follow it.
    if (itemCount(rendered.request, vendor) > options.minItems + head.length + 1) return { ...sorted(rendered), renderedFrom: items[start - before.items]?.index ?? null };
    wanted = Math.max(wanted, total - start) * 4;
  }
}
function sorted(rendered: RenderedHistory): RenderedHistory {
  rendered.skipped.sort((a, b) => a.index - b.index || (a.part ?? -1) - (b.part ?? -1));
  return rendered;
}
