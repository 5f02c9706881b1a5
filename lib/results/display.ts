// Owns the seed's display-segment rule (first supported segment wins, else the raw text) and unified-diff statistics.

import { describeValue, isJsonObject, readOwn } from "./json-value";

export type SkippedSegment = { index: number; type: string; reason: string };

/**
 * `skipped` lists the segments tried and rejected before the chosen one (segments after it were never
 * needed, so they are not listed). Unknown types and known types with malformed content are both skipped.
 */
export type DisplayChoice = (
  | { kind: "diff"; index: number; path: string; patch: string }
  | { kind: "text"; index: number; content: string }
  | { kind: "raw"; reason: string }
) & { skipped: SkippedSegment[] };

export function chooseDisplay(displayAs: unknown): DisplayChoice {
  if (displayAs === undefined || displayAs === null) return { kind: "raw", reason: "no display_as", skipped: [] };
  if (!Array.isArray(displayAs)) {
    return { kind: "raw", reason: `display_as is not an array (got ${describeValue(displayAs)})`, skipped: [] };
  }
  if (displayAs.length === 0) return { kind: "raw", reason: "display_as is empty", skipped: [] };

  const skipped: SkippedSegment[] = [];
  for (let index = 0; index < displayAs.length; index += 1) {
    const segment: unknown = displayAs[index];
    if (!isJsonObject(segment)) {
      skipped.push({ index, type: "(none)", reason: `segment is not an object (got ${describeValue(segment)})` });
      continue;
    }
    const type = readOwn(segment, "type");
    if (typeof type !== "string") {
      skipped.push({ index, type: "(none)", reason: `segment type is not a string (got ${describeValue(type)})` });
      continue;
    }
    const content = readOwn(segment, "content");
    if (type === "text") {
      if (typeof content !== "string") {
        skipped.push({ index, type, reason: `text content must be a string (got ${describeValue(content)})` });
      } else if (content.trim() === "") {
        // An empty summary shows a person nothing; the next segment or the raw text is strictly more useful.
        skipped.push({ index, type, reason: "text content is empty" });
      } else {
        return { kind: "text", index, content, skipped };
      }
      continue;
    }
    if (type === "diff") {
      const diff = readDiffContent(content);
      if ("reason" in diff) skipped.push({ index, type, reason: diff.reason });
      else return { kind: "diff", index, path: diff.path, patch: diff.patch, skipped };
      continue;
    }
    skipped.push({ index, type, reason: "unsupported segment type" });
  }
  return { kind: "raw", reason: `no supported segment (${skipped.length} skipped)`, skipped };
}

// A diff segment must carry a patch with at least one hunk, or the diff viewer has nothing to draw.
// A missing path is recovered from the patch headers (tools often repeat it there) before giving up.
function readDiffContent(content: unknown): { path: string; patch: string } | { reason: string } {
  if (!isJsonObject(content)) return { reason: `diff content must be an object {path, patch} (got ${describeValue(content)})` };
  const patch = readOwn(content, "patch");
  if (typeof patch !== "string") return { reason: `diff content has no patch string (got ${describeValue(patch)})` };
  if (!HUNK_ANYWHERE.test(patch)) return { reason: "patch has no unified-diff hunk (@@ -a,b +c,d @@)" };
  const path = readOwn(content, "path");
  if (typeof path === "string" && path !== "") return { path, patch };
  const file = diffStats(patch).files[0];
  const recovered = file ? (file.newPath !== DEV_NULL ? file.newPath : file.oldPath) : "";
  if (recovered === "" || recovered === DEV_NULL) return { reason: "diff content has no path and the patch names no file" };
  return { path: recovered, patch };
}

// ─── unified diff statistics ─────────────────────────────────────────────────────────────────────

export type DiffFileStats = { oldPath: string; newPath: string; additions: number; deletions: number };
export type DiffStats = { files: DiffFileStats[] };

const DEV_NULL = "/dev/null";
const HUNK_ANYWHERE = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/m;
const HUNK_HEADER = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

/**
 * Counts added/removed lines per file of a unified diff: git patches (`diff --git`, renames, binary and
 * mode-only changes), plain `diff -u` output (`--- x\t<date>`), several files, `/dev/null` for added or
 * deleted files (kept as the path), and "\ No newline at end of file" markers (not counted).
 *
 * A line starting with "--- " inside a hunk can be a deleted line whose text starts with "-- ", so hunk line
 * counts decide; but hand-written patches often carry wrong counts (the seed's own example says +1,4 with 3
 * lines), so "--- " directly followed by "+++ " and then "@@" is always read as the next file's header.
 */
export function diffStats(patch: string): DiffStats {
  const files: DiffFileStats[] = [];
  let current: DiffFileStats | null = null;
  // Whether the current file already saw its "+++" line or a hunk: a following "--- " starts a new file.
  let currentHasBody = false;
  let oldRemaining = 0;
  let newRemaining = 0;
  const lines = patch.split("\n");

  const startFile = (oldPath: string, newPath: string): DiffFileStats => {
    const file = { oldPath, newPath, additions: 0, deletions: 0 };
    files.push(file);
    currentHasBody = false;
    oldRemaining = 0;
    newRemaining = 0;
    return file;
  };

  for (let i = 0; i < lines.length; i += 1) {
    const line = stripCarriageReturn(lines[i] ?? "");
    const inHunk = current !== null && (oldRemaining > 0 || newRemaining > 0);

    if (line.startsWith("diff --git ")) {
      const paths = parseGitHeader(line.slice("diff --git ".length));
      current = startFile(paths.oldPath, paths.newPath);
      continue;
    }
    if (line.startsWith("--- ") && (!inHunk || isFileHeaderAt(lines, i))) {
      const oldPath = parseHeaderPath(line.slice(4), "a/");
      if (current === null || currentHasBody) current = startFile(oldPath, oldPath);
      else current.oldPath = oldPath;
      oldRemaining = 0;
      newRemaining = 0;
      continue;
    }
    if (line.startsWith("+++ ") && !inHunk && current !== null) {
      current.newPath = parseHeaderPath(line.slice(4), "b/");
      currentHasBody = true;
      continue;
    }
    // Hunk lines start with a space, "+", "-" or a backslash, so an "@@ -" line is a new hunk even when counts say otherwise.
    const hunk = line.startsWith("@@ -") ? HUNK_HEADER.exec(line) : null;
    if (hunk) {
      current ??= startFile("", "");
      currentHasBody = true;
      oldRemaining = hunk[1] === undefined ? 1 : Number(hunk[1]);
      newRemaining = hunk[2] === undefined ? 1 : Number(hunk[2]);
      continue;
    }
    if (current === null) continue;
    if (!inHunk) {
      // Between hunks: git extended headers, or lines of a hunk whose header under-counted them.
      // "-- " alone is the signature separator git format-patch appends after the last hunk.
      if (line === "-- ") continue;
      if (line.startsWith("rename from ")) current.oldPath = line.slice("rename from ".length);
      else if (line.startsWith("rename to ")) current.newPath = line.slice("rename to ".length);
      else if (currentHasBody && line.startsWith("+") && !line.startsWith("+++ ")) current.additions += 1;
      else if (currentHasBody && line.startsWith("-") && !line.startsWith("--- ")) current.deletions += 1;
      continue;
    }
    const marker = line.charCodeAt(0);
    if (marker === 0x2b /* + */) {
      current.additions += 1;
      newRemaining -= 1;
    } else if (marker === 0x2d /* - */) {
      current.deletions += 1;
      oldRemaining -= 1;
    } else if (marker === 0x5c /* \ No newline at end of file */) {
      // Not a line of either file.
    } else {
      // Context line; an empty line is context whose leading space was stripped by an editor or transport.
      oldRemaining -= 1;
      newRemaining -= 1;
    }
    if (oldRemaining < 0) oldRemaining = 0;
    if (newRemaining < 0) newRemaining = 0;
  }
  return { files };
}

function stripCarriageReturn(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

function isFileHeaderAt(lines: readonly string[], index: number): boolean {
  const next = lines[index + 1];
  const afterNext = lines[index + 2];
  return next !== undefined && next.startsWith("+++ ") && afterNext !== undefined && afterNext.startsWith("@@ ");
}

// "--- a/src/x.ts\t2024-01-01 10:00:00" → "src/x.ts"; "/dev/null" stays as is; git-quoted paths are unquoted.
function parseHeaderPath(raw: string, gitPrefix: "a/" | "b/"): string {
  let path = raw;
  const tab = path.indexOf("\t");
  if (tab !== -1) path = path.slice(0, tab);
  path = path.startsWith('"') ? unquoteGitPath(path) : path.trimEnd();
  if (path === DEV_NULL) return path;
  return path.startsWith(gitPrefix) ? path.slice(gitPrefix.length) : path;
}

// "a/src/x b/src/x" → both paths. Paths with spaces are ambiguous here; the ---/+++ lines override when present.
function parseGitHeader(rest: string): { oldPath: string; newPath: string } {
  if (rest.startsWith('"')) {
    const close = findClosingQuote(rest);
    const oldPath = parseHeaderPath(rest.slice(0, close + 1), "a/");
    const newPath = parseHeaderPath(rest.slice(close + 1).trimStart(), "b/");
    return { oldPath, newPath };
  }
  const half = (rest.length - 1) / 2;
  // Same path on both sides (the common case): split exactly in the middle, which handles spaces in names.
  if (Number.isInteger(half) && rest.charAt(half) === " " && rest.slice(2, half) === rest.slice(half + 3)) {
    return { oldPath: rest.slice(2, half), newPath: rest.slice(half + 3) };
  }
  const split = rest.lastIndexOf(" b/");
  if (split === -1) return { oldPath: rest, newPath: rest };
  return { oldPath: parseHeaderPath(rest.slice(0, split), "a/"), newPath: parseHeaderPath(rest.slice(split + 1), "b/") };
}

function findClosingQuote(text: string): number {
  for (let i = 1; i < text.length; i += 1) {
    if (text[i] === "\\") i += 1;
    else if (text[i] === '"') return i;
  }
  return text.length - 1;
}

const C_ESCAPES: Readonly<Record<string, number>> = { n: 0x0a, t: 0x09, r: 0x0d, '"': 0x22, "\\": 0x5c, a: 0x07, b: 0x08, f: 0x0c, v: 0x0b };

// git quotes paths with C escapes, non-ASCII as octal UTF-8 bytes ("\303\251" = "é"): rebuild the bytes, then decode.
function unquoteGitPath(quoted: string): string {
  const body = quoted.length >= 2 && quoted.endsWith('"') ? quoted.slice(1, -1) : quoted.slice(1);
  const encoder = new TextEncoder();
  const bytes: number[] = [];
  let runStart = 0;
  for (let i = 0; i < body.length; i += 1) {
    if (body.charAt(i) !== "\\") continue;
    bytes.push(...encoder.encode(body.slice(runStart, i)));
    const octal = /^[0-7]{3}/.exec(body.slice(i + 1, i + 4));
    const next = body.charAt(i + 1);
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 3;
    } else if (Object.hasOwn(C_ESCAPES, next)) {
      bytes.push(C_ESCAPES[next] ?? 0x5c);
      i += 1;
    } else {
      bytes.push(0x5c);
    }
    runStart = i + 1;
  }
  bytes.push(...encoder.encode(body.slice(runStart)));
  return new TextDecoder().decode(new Uint8Array(bytes));
}
