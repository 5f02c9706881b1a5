// Owns preparing a display segment's unified diff for react-diff-view: the files the one reader
// (lib/results/unified-diff.ts) finds, rewritten in the git form its parser understands (it only starts a file at
// "diff --git" and drops blank context lines), with the reader's own +N −M. Pure and client-safe.
import { readUnifiedDiff } from "../results/unified-diff.ts";

export type PatchFileKind = "add" | "delete" | "modify" | "rename";

export type PatchFile = {
  oldPath: string;
  newPath: string;
  kind: PatchFileKind;
  additions: number;
  deletions: number;
  /** Binary or mode-only change: nothing to draw. */
  binary: boolean;
  /** The file's hunks under a synthetic git header, ready for parseDiff(). */
  gitText: string;
};

const DEV_NULL = "/dev/null";

function kindOf(oldPath: string, newPath: string): PatchFileKind {
  if (oldPath === DEV_NULL) return "add";
  if (newPath === DEV_NULL) return "delete";
  return oldPath === newPath ? "modify" : "rename";
}

/** `fallbackPath` names a file whose patch has no ---/+++ headers (the segment's `path`). */
export function splitPatchFiles(patch: string, fallbackPath: string): PatchFile[] {
  const files: PatchFile[] = [];
  for (const file of readUnifiedDiff(patch)) {
    const oldPath = file.oldPath || fallbackPath;
    const newPath = file.newPath || fallbackPath;
    const oldHeader = oldPath === DEV_NULL ? DEV_NULL : `a/${oldPath}`;
    const newHeader = newPath === DEV_NULL ? DEV_NULL : `b/${newPath}`;
    const gitPath = (path: string) => (path === DEV_NULL ? fallbackPath : path).replaceAll("\n", " ");
    files.push({
      oldPath,
      newPath,
      kind: kindOf(oldPath, newPath),
      additions: file.additions,
      deletions: file.deletions,
      binary: file.binary && !file.hasHunk,
      gitText: [
        `diff --git a/${gitPath(oldPath)} b/${gitPath(newPath)}`,
        `--- ${oldHeader}`,
        `+++ ${newHeader}`,
        ...file.body,
      ].join("\n"),
    });
  }
  return files;
}
