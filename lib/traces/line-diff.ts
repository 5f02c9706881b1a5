// Sequence and line diffs (the `diff` package's Myers O((N+M)·D)) and unified-diff text for react-diff-view. Pure,
// client-safe.
import { diffArrays } from "diff";

export type DiffOp =
  { kind: "equal"; a: number; b: number } | { kind: "delete"; a: number } | { kind: "insert"; b: number };

/**
 * Past this many edits the middle is reported as "all of a deleted, all of b inserted": the trace of Myers'
 * algorithm costs O(D²) memory, and two texts that far apart are not read line by line anyway.
 */
export const MAX_EDIT_DISTANCE = 2000;

/**
 * A shortest edit script from `a` to `b` (common prefix and suffix first, so typical edits cost almost nothing;
 * the middle by the `diff` package's Myers implementation).
 */
export function diffSequences<T>(
  a: readonly T[],
  b: readonly T[],
  equal: (x: T, y: T) => boolean = Object.is,
  maxEdits = MAX_EDIT_DISTANCE,
): DiffOp[] {
  let start = 0;
  while (start < a.length && start < b.length && equal(a[start] as T, b[start] as T)) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && equal(a[endA - 1] as T, b[endB - 1] as T)) {
    endA -= 1;
    endB -= 1;
  }
  const ops: DiffOp[] = [];
  for (let i = 0; i < start; i += 1) ops.push({ kind: "equal", a: i, b: i });
  ops.push(...middleOps(a.slice(start, endA), b.slice(start, endB), start, equal, maxEdits));
  for (let i = 0; endA + i < a.length; i += 1) ops.push({ kind: "equal", a: endA + i, b: endB + i });
  return ops;
}

function middleOps<T>(a: T[], b: T[], offset: number, equal: (x: T, y: T) => boolean, maxEdits: number): DiffOp[] {
  const ops: DiffOp[] = [];
  if (a.length === 0 && b.length === 0) return ops;
  const changes = diffArrays(a, b, { comparator: equal, maxEditLength: maxEdits });
  if (changes === undefined) {
    // Too far apart: everything in the middle changed.
    for (let x = 0; x < a.length; x += 1) ops.push({ kind: "delete", a: offset + x });
    for (let y = 0; y < b.length; y += 1) ops.push({ kind: "insert", b: offset + y });
    return ops;
  }
  let x = offset;
  let y = offset;
  for (const change of changes) {
    for (let i = 0; i < change.count; i += 1) {
      if (change.removed) ops.push({ kind: "delete", a: x++ });
      else if (change.added) ops.push({ kind: "insert", b: y++ });
      else ops.push({ kind: "equal", a: x++, b: y++ });
    }
  }
  return ops;
}

type Line = { text: string; key: string };

// A last line without a newline is a different line from the same text with one (as in diff(1)), so that
// a trailing-newline change is a visible change.
function splitLines(text: string): { lines: Line[]; newlineAtEnd: boolean } {
  if (text === "") return { lines: [], newlineAtEnd: true };
  const parts = text.split("\n");
  const newlineAtEnd = parts.at(-1) === "";
  if (newlineAtEnd) parts.pop();
  const lines = parts.map((part, index) => ({
    text: part,
    key: !newlineAtEnd && index === parts.length - 1 ? `${part}\n\\ no newline` : part,
  }));
  return { lines, newlineAtEnd };
}

export type UnifiedDiff = { text: string; added: number; removed: number };

const NO_NEWLINE = "\\ No newline at end of file";

/**
 * A git-style unified diff of two texts (`diff --git a/<name> b/<name>` header, hunks with `context` lines),
 * or null when they are equal. `name` must not contain spaces (the header separates paths by spaces).
 */
export function unifiedDiff(
  oldText: string,
  newText: string,
  options: { name?: string; context?: number } = {},
): UnifiedDiff | null {
  if (oldText === newText) return null;
  const name = (options.name ?? "text").replace(/\s/g, "_");
  const context = options.context ?? 3;
  const before = splitLines(oldText);
  const after = splitLines(newText);
  const ops = diffSequences(before.lines, after.lines, (x, y) => x.key === y.key);

  // Positions (0-based line numbers) before each op, to number the hunks.
  const positions: { a: number; b: number }[] = [];
  let a = 0;
  let b = 0;
  for (const op of ops) {
    positions.push({ a, b });
    if (op.kind !== "insert") a += 1;
    if (op.kind !== "delete") b += 1;
  }

  const ranges: { from: number; to: number }[] = [];
  ops.forEach((op, index) => {
    if (op.kind === "equal") return;
    const from = Math.max(0, index - context);
    const to = Math.min(ops.length - 1, index + context);
    const last = ranges.at(-1);
    if (last !== undefined && from <= last.to + 1) last.to = Math.max(last.to, to);
    else ranges.push({ from, to });
  });

  const out = [`diff --git a/${name} b/${name}`, `--- a/${name}`, `+++ b/${name}`];
  let added = 0;
  let removed = 0;
  for (const range of ranges) {
    const slice = ops.slice(range.from, range.to + 1);
    const start = positions[range.from] ?? { a: 0, b: 0 };
    const oldCount = slice.filter((op) => op.kind !== "insert").length;
    const newCount = slice.filter((op) => op.kind !== "delete").length;
    out.push(
      `@@ -${oldCount === 0 ? start.a : start.a + 1},${oldCount} +${newCount === 0 ? start.b : start.b + 1},${newCount} @@`,
    );
    for (const op of slice) {
      if (op.kind === "equal") {
        out.push(` ${before.lines[op.a]?.text ?? ""}`);
        if (op.a === before.lines.length - 1 && !before.newlineAtEnd) out.push(NO_NEWLINE);
      } else if (op.kind === "delete") {
        removed += 1;
        out.push(`-${before.lines[op.a]?.text ?? ""}`);
        if (op.a === before.lines.length - 1 && !before.newlineAtEnd) out.push(NO_NEWLINE);
      } else {
        added += 1;
        out.push(`+${after.lines[op.b]?.text ?? ""}`);
        if (op.b === after.lines.length - 1 && !after.newlineAtEnd) out.push(NO_NEWLINE);
      }
    }
  }
  return { text: `${out.join("\n")}\n`, added, removed };
}
