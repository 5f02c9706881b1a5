// The one unified-diff reader: what the call page counts (+N −M) is what the diff viewer draws, for every shape.
import { parseDiff } from "react-diff-view";
import { describe, expect, it } from "vitest";
import { splitPatchFiles } from "../calls/patch-files.ts";
import { diffStats, readUnifiedDiff } from "./unified-diff.ts";

const PATCHES: Record<string, string> = {
  seed: '--- src/main.rs\n+++ src/main.rs\n@@ -1,3 +1,4 @@\n fn main() {\n+ println!("hello");\n }',
  git: "diff --git a/a.txt b/a.txt\nindex 1..2 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n-x\n+y\n z\n",
  twoFiles: "--- a/one\n+++ b/one\n@@ -1 +1 @@\n-1\n+one\n--- a/two\n+++ b/two\n@@ -1,2 +1,1 @@\n-2\n keep\n",
  renamed:
    "diff --git a/old b/new\nsimilarity index 90%\nrename from old\nrename to new\n--- a/old\n+++ b/new\n@@ -1 +1 @@\n-a\n+b\n",
  added: "diff --git a/n b/n\nnew file mode 100644\n--- /dev/null\n+++ b/n\n@@ -0,0 +1,2 @@\n+a\n+b\n",
  deletedLineLooksLikeHeader: "--- f\n+++ f\n@@ -1,2 +1,1 @@\n--- not a header\n keep\n",
  underCounted: "--- f\n+++ f\n@@ -1,1 +1,1 @@\n-a\n+b\n+c\n+d\n",
  crlf: "--- f\r\n+++ f\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n",
  noNewline: "--- f\n+++ f\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n",
  blankContext: "@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n",
  binary: "diff --git a/img.png b/img.png\nBinary files a/img.png and b/img.png differ\n",
};

describe("readUnifiedDiff", () => {
  it.each(Object.entries(PATCHES))("%s: the viewer's lines agree with the counts", (_name, patch) => {
    const stats = diffStats(patch).files;
    const files = splitPatchFiles(patch, "fallback");
    expect(files).toHaveLength(stats.length);
    files.forEach((file, index) => {
      const changes = parseDiff(file.gitText).flatMap((parsed) => parsed.hunks.flatMap((hunk) => hunk.changes));
      expect({ additions: file.additions, deletions: file.deletions }).toEqual({
        additions: stats[index]?.additions,
        deletions: stats[index]?.deletions,
      });
      expect(changes.filter((change) => change.type === "insert")).toHaveLength(file.additions);
      expect(changes.filter((change) => change.type === "delete")).toHaveLength(file.deletions);
    });
  });

  it("keeps headers, renames, /dev/null and binary markers per file", () => {
    expect(readUnifiedDiff(PATCHES.renamed ?? "")[0]).toMatchObject({
      oldPath: "old",
      newPath: "new",
      additions: 1,
      deletions: 1,
      hasHunk: true,
      binary: false,
    });
    expect(readUnifiedDiff(PATCHES.added ?? "")[0]).toMatchObject({ oldPath: "/dev/null", newPath: "n", additions: 2 });
    expect(readUnifiedDiff(PATCHES.binary ?? "")[0]).toMatchObject({
      oldPath: "img.png",
      hasHunk: false,
      binary: true,
    });
    expect(
      readUnifiedDiff(PATCHES.twoFiles ?? "").map((file) => [file.newPath, file.additions, file.deletions]),
    ).toEqual([
      ["one", 1, 1],
      ["two", 0, 1],
    ]);
    expect(readUnifiedDiff(PATCHES.blankContext ?? "")[0]?.body).toEqual(["@@ -1,3 +1,3 @@", " a", " ", "-b", "+c"]);
    expect(readUnifiedDiff("hello\nworld")).toEqual([]);
  });
});
