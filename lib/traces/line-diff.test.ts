// Line diff: shortest edit scripts (checked against an LCS oracle), and unified text that react-diff-view parses back.
import { parseDiff } from "react-diff-view";
import { describe, expect, it } from "vitest";
import { diffSequences, unifiedDiff, type DiffOp } from "./line-diff.ts";

// Applying the script to `a` must give `b`, and its equal ops must be a longest common subsequence.
function apply<T>(a: readonly T[], b: readonly T[], ops: DiffOp[]): T[] {
  const out: T[] = [];
  let nextA = 0;
  let nextB = 0;
  for (const op of ops) {
    if (op.kind === "equal") {
      expect(op.a).toBe(nextA);
      expect(op.b).toBe(nextB);
      expect(a[op.a]).toEqual(b[op.b]);
      out.push(a[op.a] as T);
      nextA += 1;
      nextB += 1;
    } else if (op.kind === "delete") {
      expect(op.a).toBe(nextA);
      nextA += 1;
    } else {
      expect(op.b).toBe(nextB);
      out.push(b[op.b] as T);
      nextB += 1;
    }
  }
  expect(nextA).toBe(a.length);
  return out;
}

function lcsLength<T>(a: readonly T[], b: readonly T[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    let diagonal = 0;
    b.forEach((y, j) => {
      const above = row[j + 1] ?? 0;
      row[j + 1] = x === y ? diagonal + 1 : Math.max(above, row[j] ?? 0);
      diagonal = above;
    });
  }
  return row[b.length] ?? 0;
}

// A small deterministic PRNG, so a failure reproduces.
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe("diffSequences", () => {
  it("finds a shortest edit script on random sequences", () => {
    const next = random(7);
    for (let round = 0; round < 300; round += 1) {
      const a = Array.from({ length: Math.floor(next() * 30) }, () => "abcd"[Math.floor(next() * 4)] ?? "a");
      const b = Array.from({ length: Math.floor(next() * 30) }, () => "abcd"[Math.floor(next() * 4)] ?? "a");
      const ops = diffSequences(a, b);
      expect(apply(a, b, ops)).toEqual(b);
      expect(ops.filter((op) => op.kind === "equal")).toHaveLength(lcsLength(a, b));
    }
  });

  it("handles empty sides", () => {
    expect(diffSequences([], [])).toEqual([]);
    expect(diffSequences(["x"], [])).toEqual([{ kind: "delete", a: 0 }]);
    expect(diffSequences([], ["y"])).toEqual([{ kind: "insert", b: 0 }]);
  });

  it("falls back to replace-all past the edit limit, still a valid script", () => {
    const a = Array.from({ length: 50 }, (_, i) => `a${i}`);
    const b = Array.from({ length: 50 }, (_, i) => `b${i}`);
    const ops = diffSequences(a, b, Object.is, 10);
    expect(apply(a, b, ops)).toEqual(b);
    expect(ops.filter((op) => op.kind === "delete")).toHaveLength(50);
  });

  it("diffs 20,000 lines with a few edits exactly", () => {
    const a = Array.from({ length: 20_000 }, (_, i) => `line ${i}`);
    const b = [...a];
    b[100] = "changed";
    b.splice(15_000, 0, "inserted");
    const ops = diffSequences(a, b);
    expect(ops.filter((op) => op.kind !== "equal")).toHaveLength(3);
  });
});

describe("unifiedDiff", () => {
  it("is null for equal texts", () => {
    expect(unifiedDiff("same\n", "same\n")).toBeNull();
  });

  it("writes git-style hunks with context that parseDiff reads back", () => {
    const before = ["{", '  "city": "Paris",', '  "unit": "celsius",', '  "days": 3', "}", ""].join("\n");
    const after = ["{", '  "city": "Tokyo",', '  "unit": "celsius",', '  "days": 3', "}", ""].join("\n");
    const diff = unifiedDiff(before, after, { name: "arguments" });
    expect(diff).toEqual({
      added: 1,
      removed: 1,
      text: [
        "diff --git a/arguments b/arguments",
        "--- a/arguments",
        "+++ b/arguments",
        "@@ -1,5 +1,5 @@",
        " {",
        '-  "city": "Paris",',
        '+  "city": "Tokyo",',
        '   "unit": "celsius",',
        '   "days": 3',
        " }",
        "",
      ].join("\n"),
    });
    const [file] = parseDiff(diff?.text ?? "");
    expect(file?.hunks).toHaveLength(1);
    expect(file?.hunks[0]?.changes.map((change) => change.type)).toEqual([
      "normal",
      "delete",
      "insert",
      "normal",
      "normal",
      "normal",
    ]);
  });

  it("splits far-apart changes into separate hunks", () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i}`);
    const changed = [...lines];
    changed[2] = "first change";
    changed[35] = "second change";
    const diff = unifiedDiff(`${lines.join("\n")}\n`, `${changed.join("\n")}\n`);
    const [file] = parseDiff(diff?.text ?? "");
    expect(file?.hunks.map((hunk) => [hunk.oldStart, hunk.newStart])).toEqual([
      [1, 1],
      [33, 33],
    ]);
  });

  it("shows a trailing-newline change and texts that are added whole", () => {
    const noNewline = unifiedDiff("a\nb", "a\nb\n");
    expect(noNewline?.text).toContain("-b\n\\ No newline at end of file\n+b\n");
    const added = unifiedDiff("", "new\n");
    expect(added?.text).toContain("@@ -0,0 +1,1 @@\n+new\n");
  });
});
