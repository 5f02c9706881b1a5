"use client";
// Owns which timeline row is current (the roving tabindex) and where DOM focus goes with it. One place decides,
// after every commit, whether the current row's element should hold DOM focus — so a row that the virtualizer
// unmounts and mounts again (a window replaced by a jump, rows measured, pages added) gets focus back instead of
// leaving it on the page body, and keys pressed next still reach the row the reader sees as current.
//
// The rule: a move (a key, a jump landing, a click on a row) asks for DOM focus once, even from a text field (go to
// step N, then Enter: the row takes focus, as in an editor's "go to line"). After that the row keeps it: if focus
// falls to the page body (its element was replaced) it is given back; if the reader puts focus anywhere else
// (the search field, a button, a link inside the row), it stays there until the next move.
import { useCallback, useLayoutEffect, useMemo, useState, type RefObject } from "react";

export type Focusable = { focus: (options?: { preventScroll?: boolean }) => void };

export type RowFocusDom<Element extends Focusable> = {
  /** The rendered element of the row with this key (null while it is not in the DOM). */
  rowOf: (key: string) => Element | null;
  /** The element that has DOM focus now (document.activeElement). */
  active: () => unknown;
  /** True when focus was lost rather than put somewhere: nothing, or the page body. */
  lost: (active: unknown) => boolean;
};

type Want = "none" | "move" | "keep";

/** The decision, without React or a document: tested in use-row-focus.test.ts. */
export function createRowFocus<Element extends Focusable>(dom: RowFocusDom<Element>) {
  let key: string | null = null;
  let want: Want = "none";
  return {
    key: () => key,
    /** Makes `next` the current row and asks for DOM focus on it. */
    move(next: string | null) {
      key = next;
      want = next === null ? "none" : "move";
    },
    /** Makes `next` current because focus went into it (a click, Tab to a link inside it): no DOM focus asked. */
    select(next: string | null) {
      key = next;
      want = next === null ? "none" : "keep";
    },
    /** Gives DOM focus to the current row when it should have it; true when it focused the element. */
    sync(): boolean {
      if (want === "none" || key === null) return false;
      const element = dom.rowOf(key);
      if (element === null) return false;
      const active = dom.active();
      if (active === element) {
        want = "keep";
        return false;
      }
      if (want === "keep" && !dom.lost(active)) {
        want = "none";
        return false;
      }
      element.focus({ preventScroll: true });
      want = "keep";
      return true;
    },
  };
}

/**
 * The current row of `keys` and DOM focus on it, inside `container`. `focusIndex` falls back to 0 when the
 * current row is not in this window (so the feed keeps one tab stop).
 */
export function useRowFocus(keys: readonly string[], container: RefObject<HTMLElement | null>) {
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const focusIndex = useMemo(() => {
    const index = focusKey === null ? -1 : keys.indexOf(focusKey);
    return index < 0 ? 0 : index;
  }, [keys, focusKey]);
  const controller = useMemo(
    () =>
      createRowFocus<HTMLElement>({
        rowOf: (key) => container.current?.querySelector<HTMLElement>(`[data-row-key="${CSS.escape(key)}"]`) ?? null,
        active: () => document.activeElement,
        lost: (active) => active === null || active === document.body,
      }),
    [container],
  );

  /** Makes the row at `index` current and gives it DOM focus once it is rendered. */
  const moveTo = useCallback(
    (index: number) => {
      const key = keys[index] ?? null;
      controller.move(key);
      setFocusKey(key);
    },
    [keys, controller],
  );

  // After every commit (rows rendered, replaced or measured): focus follows the current row.
  useLayoutEffect(() => {
    controller.sync();
  });

  /** Makes the row at `index` current because focus went into it (no DOM focus moved). */
  const selectFocused = useCallback(
    (index: number) => {
      const key = keys[index] ?? null;
      controller.select(key);
      setFocusKey(key);
    },
    [keys, controller],
  );

  return { focusKey, focusIndex, moveTo, selectFocused };
}
