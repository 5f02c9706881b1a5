"use client";
// A `diff` display segment drawn with react-diff-view: unified or split, per-file +N −M, large hunks
// collapsed until asked for and then drawn a chunk per frame (each chunk its own memoised table), so a
// 20,000-line diff never blocks the main thread in one long task. Untrusted throughout: the patch is
// masked and made visible before parsing, and every line is a text node.
import { memo, useEffect, useMemo, useState } from "react";
import { Diff, Hunk, parseDiff, type DiffType, type HunkData, type ViewType } from "react-diff-view";
import "react-diff-view/style/index.css";
import { splitPatchFiles, type PatchFile } from "@/lib/calls/patch-files.ts";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";

/** Hunks with more lines than this start collapsed. */
export const COLLAPSE_OVER_LINES = 400;
/** Lines per table when a hunk is drawn progressively: one table per frame stays well under a 50 ms task. */
const CHUNK_LINES = 200;
/** Approximate height of one diff line (px), for the placeholder size of off-screen chunk tables. */
const LINE_PX = 18;

function chunkHunk(hunk: HunkData): HunkData[] {
  if (hunk.changes.length <= CHUNK_LINES) return [hunk];
  const chunks: HunkData[] = [];
  for (let start = 0; start < hunk.changes.length; start += CHUNK_LINES) chunks.push({ ...hunk, changes: hunk.changes.slice(start, start + CHUNK_LINES) });
  return chunks;
}

const DiffChunk = memo(function DiffChunk({ hunk, viewType, diffType }: { hunk: HunkData; viewType: ViewType; diffType: DiffType }) {
  const hunks = useMemo(() => [hunk], [hunk]);
  // Off-screen chunk tables skip layout and paint; the placeholder size is estimated from the line count.
  const style = useMemo(() => ({ containIntrinsicSize: `auto ${hunk.changes.length * LINE_PX}px` }), [hunk]);
  return (
    <div className="dv-chunk" style={style}>
      <Diff viewType={viewType} diffType={diffType} hunks={hunks} className="dv-table">
        {(shown) => shown.map((item) => <Hunk key={`${item.oldStart}:${item.newStart}`} hunk={item} />)}
      </Diff>
    </div>
  );
});

function DiffHunk({ hunk, viewType, diffType, index }: { hunk: HunkData; viewType: ViewType; diffType: DiffType; index: number }) {
  const large = hunk.changes.length > COLLAPSE_OVER_LINES;
  const [open, setOpen] = useState(!large);
  const chunks = useMemo(() => chunkHunk(hunk), [hunk]);
  const [drawn, setDrawn] = useState(1);
  useEffect(() => {
    if (!open || drawn >= chunks.length) return;
    // One chunk per frame: the browser paints and handles input between chunks.
    const frame = requestAnimationFrame(() => setDrawn((count) => count + 1));
    return () => cancelAnimationFrame(frame);
  }, [open, drawn, chunks.length]);
  const toggle = () => {
    setDrawn(1);
    setOpen(!open);
  };
  return (
    <div className="dv-hunk" data-testid="diff-hunk">
      <div className="dv-hunk-header mono">
        <span className="dv-hunk-text">{hunk.content}</span>
        {large ? (
          <button type="button" className="link-button" aria-expanded={open} onClick={toggle} aria-label={`${open ? "Collapse" : "Expand"} hunk ${index + 1} (${hunk.changes.length} lines)`}>
            {open ? "Collapse" : `Expand ${hunk.changes.length.toLocaleString("en-US")} lines`}
          </button>
        ) : null}
      </div>
      {open ? chunks.slice(0, drawn).map((chunk, chunkIndex) => <DiffChunk key={chunkIndex} hunk={chunk} viewType={viewType} diffType={diffType} />) : null}
      {open && drawn < chunks.length ? (
        <p className="small muted dv-progress" role="status">
          Drawing… {(drawn * CHUNK_LINES).toLocaleString("en-US")} of {hunk.changes.length.toLocaleString("en-US")} lines
        </p>
      ) : null}
      {!open ? (
        <p className="small muted dv-collapsed" data-testid="diff-collapsed">
          {hunk.changes.length.toLocaleString("en-US")} lines collapsed.
        </p>
      ) : null}
    </div>
  );
}

function fileName(file: PatchFile): string {
  if (file.kind === "add") return file.newPath;
  if (file.kind === "delete") return file.oldPath;
  if (file.kind === "rename") return `${file.oldPath} → ${file.newPath}`;
  return file.newPath;
}

function DiffFile({ file, viewType }: { file: PatchFile; viewType: ViewType }) {
  const hunks = useMemo(() => parseDiff(file.gitText)[0]?.hunks ?? [], [file.gitText]);
  const diffType: DiffType = file.kind;
  return (
    <section className="dv-file" aria-label={`Changes to ${fileName(file)}`} data-testid="diff-file">
      <header className="dv-file-header">
        <span className="mono dv-path" data-testid="diff-file-path">
          {fileName(file)}
        </span>
        {file.kind !== "modify" ? <span className="chip">{file.kind === "add" ? "added" : file.kind === "delete" ? "deleted" : "renamed"}</span> : null}
        <span className="dv-stat" data-testid="diff-file-stat" aria-label={`${file.additions} lines added, ${file.deletions} lines removed`}>
          <span className="stat-add">+{file.additions.toLocaleString("en-US")}</span> <span className="stat-del">−{file.deletions.toLocaleString("en-US")}</span>
        </span>
      </header>
      {file.binary ? <p className="small muted dv-note">Binary or mode-only change: nothing to draw.</p> : null}
      {!file.binary && hunks.length === 0 ? <p className="small muted dv-note">No hunks.</p> : null}
      {hunks.map((hunk, index) => (
        <DiffHunk key={`${viewType}-${index}`} hunk={hunk} viewType={viewType} diffType={diffType} index={index} />
      ))}
    </section>
  );
}

export function DiffViewer({ path, patch, revealSecrets = false }: { path: string; patch: string; revealSecrets?: boolean }) {
  const [viewType, setViewType] = useState<ViewType>("unified");
  const files = useMemo(
    () => splitPatchFiles(presentUntrustedText(patch, { revealSecrets }), presentUntrustedText(path, { revealSecrets })),
    [patch, path, revealSecrets],
  );
  const additions = files.reduce((sum, file) => sum + file.additions, 0);
  const deletions = files.reduce((sum, file) => sum + file.deletions, 0);
  return (
    <div className="dv-viewer" data-testid="diff-viewer">
      <div className="dv-toolbar">
        <span className="small">
          {files.length} {files.length === 1 ? "file" : "files"} · <span className="stat-add">+{additions.toLocaleString("en-US")}</span>{" "}
          <span className="stat-del">−{deletions.toLocaleString("en-US")}</span>
        </span>
        <div className="segmented" role="group" aria-label="Diff layout">
          <button type="button" className="segment" aria-pressed={viewType === "unified"} onClick={() => setViewType("unified")}>
            Unified
          </button>
          <button type="button" className="segment" aria-pressed={viewType === "split"} onClick={() => setViewType("split")}>
            Split
          </button>
        </div>
      </div>
      {files.map((file, index) => (
        <DiffFile key={index} file={file} viewType={viewType} />
      ))}
    </div>
  );
}
