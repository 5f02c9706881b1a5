// Owns flattening a multi-file diff into the list the viewer draws: per file a header, per hunk a header and
// its lines in chunks of CHUNK_LINES (each chunk one small table), or a "collapsed" note for a hunk too big to
// open by default. A flat list is what lets the viewer draw only the items on screen. Pure, client-safe.
import type { HunkData } from "react-diff-view";
import type { PatchFile } from "@/lib/calls/patch-files.ts";

/** Hunks with more lines than this start collapsed. */
export const COLLAPSE_OVER_LINES = 400;
/** Lines per table: one table is the unit drawn, measured and skipped. */
export const CHUNK_LINES = 200;

export type ParsedFile = { file: PatchFile; hunks: HunkData[] };

/** Digits of a file's largest line number (old or new side): what its line-number gutters must hold. */
export function lineNumberDigits(hunks: readonly HunkData[]): number {
  let last = 1;
  for (const hunk of hunks) last = Math.max(last, hunk.oldStart + hunk.oldLines - 1, hunk.newStart + hunk.newLines - 1);
  return String(last).length;
}

export type DiffItem =
  | { kind: "file"; key: string; fileIndex: number }
  | {
      kind: "hunk";
      key: string;
      fileIndex: number;
      hunkIndex: number;
      hunk: HunkData;
      large: boolean;
      open: boolean;
      ordinal: number;
    }
  | { kind: "chunk"; key: string; hunk: HunkData; lines: number; last: boolean }
  | { kind: "collapsed"; key: string; lines: number }
  | { kind: "note"; key: string; text: string };

export const hunkId = (fileIndex: number, hunkIndex: number) => `${fileIndex}:${hunkIndex}`;

function chunks(hunk: HunkData): HunkData[] {
  if (hunk.changes.length <= CHUNK_LINES) return [hunk];
  const out: HunkData[] = [];
  for (let start = 0; start < hunk.changes.length; start += CHUNK_LINES)
    out.push({ ...hunk, changes: hunk.changes.slice(start, start + CHUNK_LINES) });
  return out;
}

/** The items to draw; `toggled` holds the hunks the reader opened (large ones) or closed (small ones). */
export function diffItems(files: readonly ParsedFile[], toggled: ReadonlySet<string>): DiffItem[] {
  const items: DiffItem[] = [];
  let ordinal = 0;
  files.forEach(({ file, hunks }, fileIndex) => {
    items.push({ kind: "file", key: `f${fileIndex}`, fileIndex });
    if (file.binary)
      items.push({ kind: "note", key: `n${fileIndex}`, text: "Binary or mode-only change: nothing to draw." });
    else if (hunks.length === 0) items.push({ kind: "note", key: `n${fileIndex}`, text: "No hunks." });
    hunks.forEach((hunk, hunkIndex) => {
      const id = hunkId(fileIndex, hunkIndex);
      const large = hunk.changes.length > COLLAPSE_OVER_LINES;
      const open = large === toggled.has(id);
      items.push({ kind: "hunk", key: `h${id}`, fileIndex, hunkIndex, hunk, large, open, ordinal });
      ordinal += 1;
      if (!open) {
        items.push({ kind: "collapsed", key: `x${id}`, lines: hunk.changes.length });
        return;
      }
      const parts = chunks(hunk);
      parts.forEach((part, index) =>
        items.push({
          kind: "chunk",
          key: `c${id}:${index}`,
          hunk: part,
          lines: part.changes.length,
          last: index === parts.length - 1,
        }),
      );
    });
  });
  return items;
}

/** Height guesses (px) before measuring; split pairs removed and added lines side by side. */
export function estimateItem(item: DiffItem | undefined, viewType: "unified" | "split" = "unified"): number {
  if (!item) return 24;
  if (item.kind === "file") return 38;
  if (item.kind === "hunk") return 22;
  if (item.kind === "chunk") return (viewType === "split" ? Math.ceil(item.lines / 2) : item.lines) * 18;
  return 34;
}
