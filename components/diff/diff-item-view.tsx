"use client";
// One item of the diff list: a file header (path, kind, +N −M), a hunk header (with expand / collapse for
// large hunks), a chunk of lines as its own react-diff-view table, or a note. Every line is a text node.
import { memo, useMemo } from "react";
import { Diff, Hunk, type DiffType, type ViewType } from "react-diff-view";
import type { PatchFile } from "@/lib/calls/patch-files.ts";
import type { DiffItem } from "./diff-items.ts";

export function fileName(file: PatchFile): string {
  if (file.kind === "add") return file.newPath;
  if (file.kind === "delete") return file.oldPath;
  if (file.kind === "rename") return `${file.oldPath} → ${file.newPath}`;
  return file.newPath;
}

const Chunk = memo(function Chunk({
  item,
  viewType,
  diffType,
}: {
  item: Extract<DiffItem, { kind: "chunk" }>;
  viewType: ViewType;
  diffType: DiffType;
}) {
  const hunks = useMemo(() => [item.hunk], [item.hunk]);
  return (
    <Diff viewType={viewType} diffType={diffType} hunks={hunks} className="dv-table">
      {(shown) => shown.map((hunk) => <Hunk key={`${hunk.oldStart}:${hunk.newStart}`} hunk={hunk} />)}
    </Diff>
  );
});

type Props = {
  item: DiffItem;
  file: PatchFile;
  viewType: ViewType;
  onToggle: (fileIndex: number, hunkIndex: number) => void;
};

export function DiffItemView({ item, file, viewType, onToggle }: Props) {
  switch (item.kind) {
    case "file":
      return (
        <header className="dv-file-header" data-testid="diff-file" aria-label={`Changes to ${fileName(file)}`}>
          <span className="mono dv-path" data-testid="diff-file-path">
            {fileName(file)}
          </span>
          {file.kind !== "modify" ? (
            <span className="chip">
              {file.kind === "add" ? "added" : file.kind === "delete" ? "deleted" : "renamed"}
            </span>
          ) : null}
          <span
            className="dv-stat"
            data-testid="diff-file-stat"
            aria-label={`${file.additions} lines added, ${file.deletions} lines removed`}
          >
            <span className="stat-add">+{file.additions.toLocaleString("en-US")}</span>{" "}
            <span className="stat-del">−{file.deletions.toLocaleString("en-US")}</span>
          </span>
        </header>
      );
    case "hunk":
      return (
        <div className="dv-hunk-header mono" data-testid="diff-hunk">
          <span className="dv-hunk-text">{item.hunk.content}</span>
          {item.large ? (
            <button
              type="button"
              className="link-button"
              aria-expanded={item.open}
              onClick={() => onToggle(item.fileIndex, item.hunkIndex)}
              // The accessible name starts with the visible text (WCAG 2.5.3 label in name: "click Expand 5,000 lines").
              aria-label={
                item.open
                  ? `Collapse hunk ${item.hunkIndex + 1} (${item.hunk.changes.length.toLocaleString("en-US")} lines)`
                  : `Expand ${item.hunk.changes.length.toLocaleString("en-US")} lines of hunk ${item.hunkIndex + 1}`
              }
            >
              {item.open ? "Collapse" : `Expand ${item.hunk.changes.length.toLocaleString("en-US")} lines`}
            </button>
          ) : null}
        </div>
      );
    case "chunk":
      return <Chunk item={item} viewType={viewType} diffType={file.kind} />;
    case "collapsed":
      return (
        <p className="small muted dv-collapsed" data-testid="diff-collapsed">
          {item.lines.toLocaleString("en-US")} lines collapsed.
        </p>
      );
    case "note":
      return <p className="small muted dv-note">{item.text}</p>;
  }
}
