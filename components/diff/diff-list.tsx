"use client";
// Draws the diff's items: all of them for a small diff, and for a big one only those near the viewport
// (window-scrolled virtual list), so 400 hunks / 20,000 lines keep a few hundred DOM rows whether unified
// or split, and switching layouts redraws only what is on screen.
import { useWindowVirtualizer } from "@tanstack/react-virtual";
import { useImperativeHandle, useLayoutEffect, useRef, useState, type CSSProperties, type Ref } from "react";
import type { ViewType } from "react-diff-view";
import { DiffItemView } from "./diff-item-view.tsx";
import { estimateItem, lineNumberDigits, type DiffItem, type ParsedFile } from "./diff-items.ts";

export type DiffListHandle = { scrollToItem: (index: number) => void; firstVisible: () => number };

type Props = {
  items: DiffItem[];
  files: readonly ParsedFile[];
  viewType: ViewType;
  onToggle: (fileIndex: number, hunkIndex: number) => void;
  handle: Ref<DiffListHandle>;
  /** The item to show at the top after a layout switch (the reader's place). */
  startAt?: number;
};

const gutterStyles = new WeakMap<ParsedFile, CSSProperties>();

/** The item's line-number gutter width, in digits of its file's largest line number (diff-viewer.css, --dv-digits). */
function gutterStyle(parsed: ParsedFile): CSSProperties {
  let style = gutterStyles.get(parsed);
  if (!style) {
    // A custom property: React passes names starting with "--" through as they are.
    style = { "--dv-digits": lineNumberDigits(parsed.hunks) } as CSSProperties;
    gutterStyles.set(parsed, style);
  }
  return style;
}

function fileOf(
  item: DiffItem,
  items: readonly DiffItem[],
  index: number,
  files: readonly ParsedFile[],
): ParsedFile | undefined {
  if ("fileIndex" in item) return files[item.fileIndex];
  for (let i = index; i >= 0; i -= 1) {
    const before = items[i];
    if (before && "fileIndex" in before) return files[before.fileIndex];
  }
  return files[0];
}

export function VirtualDiffList({ items, files, viewType, onToggle, handle, startAt = 0 }: Props) {
  const listRef = useRef<HTMLDivElement>(null);
  const [margin, setMargin] = useState(0);
  useLayoutEffect(() => {
    const element = listRef.current;
    if (element) setMargin(element.getBoundingClientRect().top + window.scrollY);
  }, []);
  // The app does not run the React Compiler; the virtualizer is used exactly as TanStack documents it.
  const virtualizer = useWindowVirtualizer({
    count: items.length,
    estimateSize: (index) => estimateItem(items[index], viewType),
    overscan: 2,
    scrollPaddingStart: 72,
    scrollMargin: margin,
    getItemKey: (index) => items[index]?.key ?? index,
  });
  // A layout switch changes every height: forget the measured ones and go back to the reader's item.
  const shownType = useRef(viewType);
  useLayoutEffect(() => {
    if (shownType.current === viewType) return;
    shownType.current = viewType;
    virtualizer.measure();
    virtualizer.scrollToIndex(startAt, { align: "start" });
    requestAnimationFrame(() => virtualizer.scrollToIndex(startAt, { align: "start" }));
  }, [viewType, startAt, virtualizer]);
  useImperativeHandle(handle, () => ({
    scrollToItem: (index) => virtualizer.scrollToIndex(index, { align: "start" }),
    // The first item below the sticky header (item offsets are page coordinates: they include the margin).
    firstVisible: () => virtualizer.getVirtualItems().find((item) => item.end > window.scrollY + 72)?.index ?? 0,
  }));
  return (
    <div
      ref={listRef}
      className="dv-list dv-virtual"
      style={{ height: virtualizer.getTotalSize() }}
      data-testid="diff-list"
    >
      {virtualizer.getVirtualItems().map((virtual) => {
        const item = items[virtual.index];
        const parsed = item ? fileOf(item, items, virtual.index, files) : undefined;
        if (!item || !parsed) return null;
        return (
          <div
            key={virtual.key}
            ref={virtualizer.measureElement}
            data-index={virtual.index}
            className={`dv-item dv-item-${item.kind}`}
            style={{ ...gutterStyle(parsed), transform: `translateY(${virtual.start - margin}px)` }}
          >
            <DiffItemView item={item} file={parsed.file} viewType={viewType} onToggle={onToggle} />
          </div>
        );
      })}
    </div>
  );
}

export function PlainDiffList({ items, files, viewType, onToggle }: Omit<Props, "handle">) {
  return (
    <div className="dv-list" data-testid="diff-list">
      {items.map((item, index) => {
        const parsed = fileOf(item, items, index, files);
        return parsed ? (
          <div key={item.key} className={`dv-item dv-item-${item.kind}`} data-index={index} style={gutterStyle(parsed)}>
            <DiffItemView item={item} file={parsed.file} viewType={viewType} onToggle={onToggle} />
          </div>
        ) : null;
      })}
    </div>
  );
}
