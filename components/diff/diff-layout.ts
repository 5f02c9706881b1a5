// Which diff layout is drawn: the reader's choice, except that side by side needs room. Under SPLIT_MIN_WIDTH
// each side of a split table gets fewer than ~35 characters and wraps every line into slivers (a phone held
// upright), so the viewer draws unified there and offers Split again once it is wide enough.
import type { ViewType } from "react-diff-view";

/** The narrowest diff viewer (CSS px) that still draws split: about 35 monospace characters a side. */
export const SPLIT_MIN_WIDTH = 640;

/** Whether a viewer `width` px wide can draw split; `null` (not measured yet: server render) is taken as wide. */
export function splitFits(width: number | null): boolean {
  return width === null || width >= SPLIT_MIN_WIDTH;
}

/** The layout to draw for the reader's `chosen` one in a viewer `width` px wide. */
export function shownLayout(chosen: ViewType, width: number | null): ViewType {
  return chosen === "split" && !splitFits(width) ? "unified" : chosen;
}
