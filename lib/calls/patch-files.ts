// Owns preparing a display segment's unified diff for react-diff-view: split into files and rewritten in
// the git form its parser understands (it only starts a file at "diff --git" and drops blank context
// lines), with per-file +N −M taken from lib/results' diffStats. Pure and client-safe.
import { diffStats } from "../results/display.ts";

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
const HUNK_HEADER = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

type Section = { header: string[]; body: string[]; hasBody: boolean; binary: boolean };

function isFileHeaderAt(lines: readonly string[], index: number): boolean {
  const next = lines[index + 1];
  const afterNext = lines[index + 2];
  return next !== undefined && next.startsWith("+++ ") && afterNext !== undefined && afterNext.startsWith("@@ ");
}

function stripCarriageReturn(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

/** Lines of the patch grouped per file, with the same header/hunk rules diffStats uses. */
function splitSections(patch: string): Section[] {
  const lines = patch.split("\n").map(stripCarriageReturn);
  // A patch ending in a newline splits into a last empty string that is no line of the diff.
  if (lines.length > 1 && lines.at(-1) === "") lines.pop();
  const sections: Section[] = [];
  let current: Section | null = null;
  let oldRemaining = 0;
  let newRemaining = 0;
  const start = (): Section => {
    const section: Section = { header: [], body: [], hasBody: false, binary: false };
    sections.push(section);
    oldRemaining = 0;
    newRemaining = 0;
    return section;
  };

  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? "";
    const inHunk: boolean = current !== null && (oldRemaining > 0 || newRemaining > 0);
    if (line.startsWith("diff --git ")) {
      current = start();
      current.header.push(line);
      continue;
    }
    if (line.startsWith("--- ") && (!inHunk || isFileHeaderAt(lines, i))) {
      if (current === null || current.hasBody) current = start();
      current.header.push(line);
      oldRemaining = 0;
      newRemaining = 0;
      continue;
    }
    if (line.startsWith("+++ ") && !inHunk && current !== null) {
      current.header.push(line);
      continue;
    }
    const hunk = line.startsWith("@@ -") ? HUNK_HEADER.exec(line) : null;
    if (hunk) {
      current ??= start();
      current.body.push(line);
      current.hasBody = true;
      oldRemaining = hunk[1] === undefined ? 1 : Number(hunk[1]);
      newRemaining = hunk[2] === undefined ? 1 : Number(hunk[2]);
      continue;
    }
    if (current === null) continue;
    if (!inHunk) {
      if (line.startsWith("Binary files ") || line === "GIT binary patch") current.binary = true;
      else if (!current.hasBody) current.header.push(line);
      // Lines of a hunk whose header under-counted them: diffStats counts them, so the viewer shows them.
      else if ((line.startsWith("+") || line.startsWith("-")) && line !== "-- ") current.body.push(line);
      else if (line.startsWith("\\")) current.body.push(line);
      continue;
    }
    const marker = line.charCodeAt(0);
    if (marker === 0x2b /* + */) newRemaining -= 1;
    else if (marker === 0x2d /* - */) oldRemaining -= 1;
    else if (marker !== 0x5c /* \ */) {
      oldRemaining -= 1;
      newRemaining -= 1;
    }
    if (oldRemaining < 0) oldRemaining = 0;
    if (newRemaining < 0) newRemaining = 0;
    // A blank line inside a hunk is context whose leading space was lost; the viewer's parser would drop it.
    current.body.push(line === "" ? " " : line);
  }
  return sections;
}

function kindOf(oldPath: string, newPath: string): PatchFileKind {
  if (oldPath === DEV_NULL) return "add";
  if (newPath === DEV_NULL) return "delete";
  return oldPath === newPath ? "modify" : "rename";
}

/** `fallbackPath` names a file whose patch has no ---/+++ headers (the segment's `path`). */
export function splitPatchFiles(patch: string, fallbackPath: string): PatchFile[] {
  const files: PatchFile[] = [];
  for (const section of splitSections(patch)) {
    const stats = diffStats([...section.header, ...section.body].join("\n")).files[0];
    const oldPath = stats?.oldPath || fallbackPath;
    const newPath = stats?.newPath || fallbackPath;
    if (!section.hasBody && !section.binary && section.header.length === 0) continue;
    const oldHeader = oldPath === DEV_NULL ? DEV_NULL : `a/${oldPath}`;
    const newHeader = newPath === DEV_NULL ? DEV_NULL : `b/${newPath}`;
    const gitPath = (path: string) => (path === DEV_NULL ? fallbackPath : path).replaceAll("\n", " ");
    files.push({
      oldPath,
      newPath,
      kind: kindOf(oldPath, newPath),
      additions: stats?.additions ?? 0,
      deletions: stats?.deletions ?? 0,
      binary: section.binary && !section.hasBody,
      gitText: [`diff --git a/${gitPath(oldPath)} b/${gitPath(newPath)}`, `--- ${oldHeader}`, `+++ ${newHeader}`, ...section.body].join("\n"),
    });
  }
  return files;
}
