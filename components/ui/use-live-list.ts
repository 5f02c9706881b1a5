"use client";
// Owns the "never yank the list the reader is in" rule for live lists (issue 4, Behaviour):
// while the list's top (its anchor, e.g. the heading above the table) is on screen, polled data is shown as
// it arrives; once the reader has scrolled past it, new rows are held back and counted ("N new") and rows
// that left the data stay in place marked `gone`, so nothing above the reader's eyes moves. Scrolling back to
// the top, or showing the new rows, catches the list up.
import { useCallback, useEffect, useState } from "react";

export type LiveRow<T> = {
  key: string;
  item: T;
  /** No longer in the polled data (e.g. a pending call that got its result); only while held back. */
  gone: boolean;
  /** Arrived after the page loaded: rendered with a short highlight. */
  arrived: boolean;
};

export type LiveListMode =
  /** The poll returns the whole list (pending calls, subscriptions): rows may leave. */
  | "replace"
  /** The poll returns the newest page of an append-only log (deliveries): rows already shown stay. */
  | "accumulate";

type Committed<T> = { items: readonly T[]; from: readonly T[] };

// The sticky app header covers the top of the viewport; an anchor hidden under it is not "visible".
const HEADER_OFFSET_PX = 60;

function catchUp<T>(
  committed: readonly T[],
  latest: readonly T[],
  mode: LiveListMode,
  keyOf: (item: T) => string,
): readonly T[] {
  if (mode === "replace" || committed.length === 0) return latest;
  const shown = new Set(committed.map(keyOf));
  const fresh = latest.filter((item) => !shown.has(keyOf(item)));
  // No overlap at all: more arrived than one page holds, so the rows in between are unknown. Start over
  // from the newest page rather than show a list with a silent hole in it.
  if (fresh.length === latest.length) return latest;
  const byKey = new Map(latest.map((item) => [keyOf(item), item]));
  return [...fresh, ...committed.map((item) => byKey.get(keyOf(item)) ?? item)];
}

export function useLiveList<T>(latest: readonly T[], options: { keyOf: (item: T) => string; mode?: LiveListMode }) {
  const { keyOf, mode = "replace" } = options;
  const [committed, setCommitted] = useState<Committed<T>>({ items: latest, from: latest });
  const [initialKeys] = useState(() => new Set(latest.map(keyOf)));
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [atTop, setAtTop] = useState(true);

  useEffect(() => {
    if (!anchor) return;
    const observer = new IntersectionObserver(
      (entries) => {
        const entry = entries[entries.length - 1];
        // Above the viewport means scrolled past; below it (a long page above the list) still counts as "top".
        if (entry) setAtTop(entry.isIntersecting || entry.boundingClientRect.top > HEADER_OFFSET_PX);
      },
      { rootMargin: `-${HEADER_OFFSET_PX}px 0px 0px 0px` },
    );
    observer.observe(anchor);
    return () => observer.disconnect();
  }, [anchor]);

  // Adjusting state while rendering (React's documented pattern for derived state): at the top, the list
  // follows the data; the extra render happens before the browser paints.
  if (atTop && committed.from !== latest) {
    setCommitted({ items: catchUp(committed.items, latest, mode, keyOf), from: latest });
  }

  const latestByKey = new Map(latest.map((item) => [keyOf(item), item]));
  const shownKeys = new Set<string>();
  const rows: LiveRow<T>[] = committed.items.map((item) => {
    const key = keyOf(item);
    shownKeys.add(key);
    const current = latestByKey.get(key);
    return {
      key,
      item: current ?? item,
      gone: mode === "replace" && current === undefined,
      arrived: !initialKeys.has(key),
    };
  });
  let held = 0;
  for (const key of latestByKey.keys()) if (!shownKeys.has(key)) held += 1;

  const showNew = useCallback(() => {
    setCommitted((previous) => ({ items: catchUp(previous.items, latest, mode, keyOf), from: latest }));
    if (anchor) {
      anchor.scrollIntoView({ block: "start" });
      anchor.focus({ preventScroll: true });
    }
  }, [anchor, latest, mode, keyOf]);

  const goneCount = rows.reduce((n, row) => n + (row.gone ? 1 : 0), 0);
  return { rows, held, goneCount, atTop, showNew, setAnchor };
}
