// The one unified-diff reader: splits a patch into files (header lines, hunk lines, paths, +N −M, binary). The
// display rule's statistics (diffStats) and the diff viewer's per-file git texts (lib/calls/patch-files.ts) both
// read patches through it, so the counts on a page always match the lines drawn. Pure and client-safe.
//
// Reads git patches (`diff --git`, renames, binary and mode-only changes), plain `diff -u` output
// (`--- x\t<date>`), several files, `/dev/null` for added or deleted files (kept as the path), and
// "\ No newline at end of file" markers (not counted). A line starting with "--- " inside a hunk can be a deleted
// line whose text starts with "-- ", so hunk line counts decide; but hand-written patches often carry wrong counts
// (the seed's own example says +1,4 with 3 lines), so "--- " directly followed by "+++ " and then "@@" is always
// read as the next file's header, and lines past an under-counting hunk still count.

export type DiffFile = {
  oldPath: string;
  newPath: string;
  additions: number;
  deletions: number;
  /** The file's header lines ("diff --git", "---", "+++", git extended headers), as written. */
  header: string[];
  /** The hunks' lines: "@@" headers, then " ", "+", "-", "\" lines (a blank context line gets its space back). */
  body: string[];
  /** At least one hunk. */
  hasHunk: boolean;
  /** A "Binary files … differ" or "GIT binary patch" marker. */
  binary: boolean;
};

export type DiffFileStats = { oldPath: string; newPath: string; additions: number; deletions: number };
export type DiffStats = { files: DiffFileStats[] };

const DEV_NULL = "/dev/null";
const HUNK_HEADER = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

type Reader = {
  files: DiffFile[];
  current: DiffFile | null;
  newHeaderSeen: boolean;
  oldRemaining: number;
  newRemaining: number;
};

function startFile(reader: Reader, oldPath: string, newPath: string): DiffFile {
  const file: DiffFile = {
    oldPath,
    newPath,
    additions: 0,
    deletions: 0,
    header: [],
    body: [],
    hasHunk: false,
    binary: false,
  };
  reader.files.push(file);
  reader.current = file;
  reader.newHeaderSeen = false;
  reader.oldRemaining = 0;
  reader.newRemaining = 0;
  return file;
}

/** A header or hunk-header line; false when `line` is a hunk or stray line. */
function readStructure(reader: Reader, lines: readonly string[], i: number, line: string, inHunk: boolean): boolean {
  if (line.startsWith("diff --git ")) {
    const paths = parseGitHeader(line.slice("diff --git ".length));
    startFile(reader, paths.oldPath, paths.newPath).header.push(line);
    return true;
  }
  if (line.startsWith("--- ") && (!inHunk || isFileHeaderAt(lines, i))) {
    const oldPath = parseHeaderPath(line.slice(4), "a/");
    // A "--- " after this file's "+++" or hunks starts the next file.
    const file =
      reader.current === null || reader.newHeaderSeen || reader.current.hasHunk
        ? startFile(reader, oldPath, oldPath)
        : reader.current;
    file.oldPath = oldPath;
    file.header.push(line);
    reader.oldRemaining = 0;
    reader.newRemaining = 0;
    return true;
  }
  if (line.startsWith("+++ ") && !inHunk && reader.current !== null) {
    reader.current.newPath = parseHeaderPath(line.slice(4), "b/");
    reader.current.header.push(line);
    reader.newHeaderSeen = true;
    return true;
  }
  // Hunk lines start with a space, "+", "-" or a backslash, so an "@@ -" line is a new hunk even when counts say otherwise.
  const hunk = line.startsWith("@@ -") ? HUNK_HEADER.exec(line) : null;
  if (hunk === null) return false;
  const file = reader.current ?? startFile(reader, "", "");
  file.body.push(line);
  file.hasHunk = true;
  reader.oldRemaining = hunk[1] === undefined ? 1 : Number(hunk[1]);
  reader.newRemaining = hunk[2] === undefined ? 1 : Number(hunk[2]);
  return true;
}

// Between hunks: git extended headers, binary markers, or lines of a hunk whose header under-counted them.
// "-- " alone is the signature separator git format-patch appends after the last hunk.
function readBetweenHunks(file: DiffFile, line: string): void {
  if (line === "-- ") return;
  if (line.startsWith("Binary files ") || line === "GIT binary patch") file.binary = true;
  else if (!file.hasHunk) {
    if (line.startsWith("rename from ")) file.oldPath = line.slice("rename from ".length);
    else if (line.startsWith("rename to ")) file.newPath = line.slice("rename to ".length);
    file.header.push(line);
  } else if (line.startsWith("+")) {
    file.additions += 1;
    file.body.push(line);
  } else if (line.startsWith("-")) {
    file.deletions += 1;
    file.body.push(line);
  } else if (line.startsWith("\\")) file.body.push(line);
}

function readHunkLine(reader: Reader, file: DiffFile, line: string): void {
  const marker = line.charCodeAt(0);
  if (marker === 0x2b /* + */) {
    file.additions += 1;
    reader.newRemaining -= 1;
  } else if (marker === 0x2d /* - */) {
    file.deletions += 1;
    reader.oldRemaining -= 1;
  } else if (marker !== 0x5c /* \ No newline at end of file: not a line of either file */) {
    // Context; an empty line is context whose leading space was stripped by an editor or transport.
    reader.oldRemaining -= 1;
    reader.newRemaining -= 1;
  }
  reader.oldRemaining = Math.max(0, reader.oldRemaining);
  reader.newRemaining = Math.max(0, reader.newRemaining);
  file.body.push(line === "" ? " " : line);
}

/** The files of a unified diff, in order. Text before the first header or hunk is ignored. */
export function readUnifiedDiff(patch: string): DiffFile[] {
  const lines = patch.split("\n").map(stripCarriageReturn);
  // A patch ending in a newline splits into a last empty string that is no line of the diff.
  if (lines.length > 1 && lines.at(-1) === "") lines.pop();
  const reader: Reader = { files: [], current: null, newHeaderSeen: false, oldRemaining: 0, newRemaining: 0 };
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? "";
    const inHunk = reader.current !== null && (reader.oldRemaining > 0 || reader.newRemaining > 0);
    if (readStructure(reader, lines, i, line, inHunk) || reader.current === null) continue;
    if (inHunk) readHunkLine(reader, reader.current, line);
    else readBetweenHunks(reader.current, line);
  }
  return reader.files;
}

/** Added/removed lines per file (what the display rule and the call page show as +N −M). */
export function diffStats(patch: string): DiffStats {
  return {
    files: readUnifiedDiff(patch).map(({ oldPath, newPath, additions, deletions }) => ({
      oldPath,
      newPath,
      additions,
      deletions,
    })),
  };
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
  return {
    oldPath: parseHeaderPath(rest.slice(0, split), "a/"),
    newPath: parseHeaderPath(rest.slice(split + 1), "b/"),
  };
}

function findClosingQuote(text: string): number {
  for (let i = 1; i < text.length; i += 1) {
    if (text[i] === "\\") i += 1;
    else if (text[i] === '"') return i;
  }
  return text.length - 1;
}

const C_ESCAPES: Readonly<Record<string, number>> = {
  n: 0x0a,
  t: 0x09,
  r: 0x0d,
  '"': 0x22,
  "\\": 0x5c,
  a: 0x07,
  b: 0x08,
  f: 0x0c,
  v: 0x0b,
};

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
