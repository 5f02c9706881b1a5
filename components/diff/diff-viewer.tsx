"use client";
// A `diff` display segment drawn with react-diff-view: unified or split, per-file +N −M, large hunks collapsed
// until asked for. A big diff (many hunks or lines) is a virtual list with a file / hunk navigator (a picker,
// previous / next, and the ] / [ keys), so its DOM stays bounded and no layout switch blocks the main thread.
// Untrusted throughout: the patch is masked and made visible before parsing, and every line is a text node.
import { useMemo, useRef, useState } from "react";
import { parseDiff, type ViewType } from "react-diff-view";
import "react-diff-view/style/index.css";
import "./diff-viewer.css";
import { KEY_PRIORITY, useKeyScope } from "@/components/layout/keyboard-layer.ts";
import { splitPatchFiles } from "@/lib/calls/patch-files.ts";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import { fileName } from "./diff-item-view.tsx";
import { shownLayout, splitFits } from "./diff-layout.ts";
import { diffItems, hunkId, type ParsedFile } from "./diff-items.ts";
import { PlainDiffList, VirtualDiffList, type DiffListHandle } from "./diff-list.tsx";
import { useElementWidth } from "./use-element-width.ts";

export { COLLAPSE_OVER_LINES } from "./diff-items.ts";

/** Past either of these the diff is drawn as a virtual list with a navigator. */
const VIRTUAL_OVER_LINES = 1500;
const VIRTUAL_OVER_HUNKS = 30;

// eslint-disable-next-line max-lines-per-function -- the viewer picks between the plain and the virtualized diff and owns the view-mode state both share
export function DiffViewer({
  path,
  patch,
  revealSecrets = false,
}: {
  path: string;
  patch: string;
  revealSecrets?: boolean;
}) {
  const [chosen, setChosen] = useState<ViewType>("unified");
  const [toggled, setToggled] = useState<ReadonlySet<string>>(() => new Set());
  const files = useMemo<ParsedFile[]>(
    () =>
      splitPatchFiles(
        presentUntrustedText(patch, { revealSecrets }),
        presentUntrustedText(path, { revealSecrets }),
      ).map((file) => ({
        file,
        hunks: parseDiff(file.gitText)[0]?.hunks ?? [],
      })),
    [patch, path, revealSecrets],
  );
  const items = useMemo(() => diffItems(files, toggled), [files, toggled]);
  const hunkItems = useMemo(
    () => items.flatMap((item, index) => (item.kind === "hunk" ? [{ index, item }] : [])),
    [items],
  );
  const lines = files.reduce(
    (sum, { hunks }) => sum + hunks.reduce((count, hunk) => count + hunk.changes.length, 0),
    0,
  );
  const big = lines > VIRTUAL_OVER_LINES || hunkItems.length > VIRTUAL_OVER_HUNKS;
  const additions = files.reduce((sum, { file }) => sum + file.additions, 0);
  const deletions = files.reduce((sum, { file }) => sum + file.deletions, 0);
  const list = useRef<DiffListHandle>(null);
  const [current, setCurrent] = useState(0);
  // A layout switch keeps the reader at the item they were on (every height changes).
  const [startAt, setStartAt] = useState(0);
  const viewer = useRef<HTMLDivElement>(null);
  // Too narrow for split (a phone held upright), the reader's choice waits and unified is drawn; a resize
  // that changes the drawn layout keeps their place like a click does.
  const width = useElementWidth(viewer, (previous, next) => {
    if (shownLayout(chosen, previous) !== shownLayout(chosen, next)) setStartAt(list.current?.firstVisible() ?? 0);
  });
  const viewType = shownLayout(chosen, width);
  const switchLayout = (next: ViewType) => {
    if (next === chosen) return;
    setStartAt(list.current?.firstVisible() ?? 0);
    setChosen(next);
  };

  const onToggle = (fileIndex: number, hunkIndex: number) =>
    setToggled((previous) => {
      const next = new Set(previous);
      const id = hunkId(fileIndex, hunkIndex);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const goToHunk = (ordinal: number) => {
    const clamped = Math.max(0, Math.min(hunkItems.length - 1, ordinal));
    const target = hunkItems[clamped];
    if (!target) return;
    setCurrent(clamped);
    list.current?.scrollToItem(target.index);
  };
  const stepHunk = (delta: number) => {
    const first = list.current?.firstVisible() ?? 0;
    const visible = hunkItems.findIndex((hunk) => hunk.index >= first);
    goToHunk((visible < 0 ? current : visible) + delta);
  };
  useKeyScope(
    "diff",
    KEY_PRIORITY.component,
    (event) => {
      if (event.key !== "]" && event.key !== "[") return false;
      stepHunk(event.key === "]" ? 1 : -1);
      return true;
    },
    big,
  );

  return (
    <div ref={viewer} className="dv-viewer" data-testid="diff-viewer" data-layout={viewType}>
      <div className="dv-toolbar">
        <span className="small">
          {files.length} {files.length === 1 ? "file" : "files"} · {hunkItems.length.toLocaleString("en-US")}{" "}
          {hunkItems.length === 1 ? "hunk" : "hunks"} ·{" "}
          <span className="stat-add">+{additions.toLocaleString("en-US")}</span>{" "}
          <span className="stat-del">−{deletions.toLocaleString("en-US")}</span>
        </span>
        {splitFits(width) ? (
          <div className="segmented" role="group" aria-label="Diff layout">
            <button
              type="button"
              className="segment"
              aria-pressed={viewType === "unified"}
              onClick={() => switchLayout("unified")}
            >
              Unified
            </button>
            <button
              type="button"
              className="segment"
              aria-pressed={viewType === "split"}
              onClick={() => switchLayout("split")}
            >
              Split
            </button>
          </div>
        ) : chosen === "split" ? (
          <span className="small muted" data-testid="diff-split-waits">
            Unified here; split returns on a wider screen
          </span>
        ) : null}
      </div>
      {big ? (
        <div className="dv-nav" role="group" aria-label="Hunk navigator" data-testid="diff-navigator">
          <button
            type="button"
            className="button"
            onClick={() => stepHunk(-1)}
            aria-label="Previous hunk"
            title="Previous hunk ([)"
          >
            ‹
          </button>
          <select
            className="input"
            aria-label="Go to hunk"
            value={current}
            onChange={(event) => goToHunk(Number(event.target.value))}
          >
            {hunkItems.map(({ item }, ordinal) => {
              const parsed = files[item.fileIndex];
              return (
                <option key={item.key} value={ordinal}>
                  {`${ordinal + 1}. ${parsed ? fileName(parsed.file) : ""} ${item.hunk.content}`.slice(0, 140)}
                </option>
              );
            })}
          </select>
          <button
            type="button"
            className="button"
            onClick={() => stepHunk(1)}
            aria-label="Next hunk"
            title="Next hunk (])"
          >
            ›
          </button>
        </div>
      ) : null}
      {big ? (
        <VirtualDiffList
          items={items}
          files={files}
          viewType={viewType}
          onToggle={onToggle}
          handle={list}
          startAt={startAt}
        />
      ) : (
        <PlainDiffList items={items} files={files} viewType={viewType} onToggle={onToggle} />
      )}
    </div>
  );
}
