// Patches of every common shape reach react-diff-view's parser as files with the right lines and stats.
import { describe, expect, it } from "vitest";
import { parseDiff } from "react-diff-view";
import { splitPatchFiles } from "./patch-files.ts";

const SEED = '--- src/main.rs\n+++ src/main.rs\n@@ -1,3 +1,4 @@\n fn main() {\n+ println!("hello");\n }';

function parsedChanges(gitText: string) {
  const [file] = parseDiff(gitText);
  return file?.hunks.flatMap((hunk) => hunk.changes.map((change) => `${change.type}:${change.content}`)) ?? [];
}

describe("splitPatchFiles", () => {
  it("reads the seed's own example (with its wrong hunk count)", () => {
    const [file, ...rest] = splitPatchFiles(SEED, "src/main.rs");
    expect(rest).toEqual([]);
    expect(file).toMatchObject({
      oldPath: "src/main.rs",
      newPath: "src/main.rs",
      kind: "modify",
      additions: 1,
      deletions: 0,
    });
    expect(parsedChanges(file?.gitText ?? "")).toEqual([
      "normal:fn main() {",
      'insert: println!("hello");',
      "normal:}",
    ]);
    // A trailing newline adds no phantom context line, even when the hunk header over-counts.
    expect(parsedChanges(splitPatchFiles(`${SEED}\n`, "src/main.rs")[0]?.gitText ?? "")).toHaveLength(3);
  });

  it("splits a multi-file git patch and keeps add/delete/rename", () => {
    const patch = [
      "diff --git a/new.txt b/new.txt",
      "new file mode 100644",
      "--- /dev/null",
      "+++ b/new.txt",
      "@@ -0,0 +1,2 @@",
      "+one",
      "+two",
      "diff --git a/old.txt b/old.txt",
      "deleted file mode 100644",
      "--- a/old.txt",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-gone",
      "diff --git a/a.ts b/b.ts",
      "similarity index 90%",
      "rename from a.ts",
      "rename to b.ts",
      "--- a/a.ts",
      "+++ b/b.ts",
      "@@ -1,2 +1,2 @@",
      " keep",
      "-x",
      "+y",
      "",
    ].join("\n");
    const files = splitPatchFiles(patch, "fallback");
    expect(files.map((f) => [f.kind, f.oldPath, f.newPath, f.additions, f.deletions])).toEqual([
      ["add", "/dev/null", "new.txt", 2, 0],
      ["delete", "old.txt", "/dev/null", 0, 1],
      ["rename", "a.ts", "b.ts", 1, 1],
    ]);
    expect(parsedChanges(files[2]?.gitText ?? "")).toEqual(["normal:keep", "delete:x", "insert:y"]);
  });

  it("uses the segment path for a bare hunk and keeps blank context lines", () => {
    const [file] = splitPatchFiles("@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n", "notes.md");
    expect(file).toMatchObject({ oldPath: "notes.md", newPath: "notes.md", additions: 1, deletions: 1 });
    expect(parsedChanges(file?.gitText ?? "")).toEqual(["normal:a", "normal:", "delete:b", "insert:c"]);
  });

  it("splits plain diff -u output with several files and CRLF line ends", () => {
    const patch =
      "--- a.txt\t2024-01-01\r\n+++ a.txt\t2024-01-02\r\n@@ -1 +1 @@\r\n-1\r\n+2\r\n--- b.txt\r\n+++ b.txt\r\n@@ -1 +1,2 @@\r\n x\r\n+y\r\n";
    const files = splitPatchFiles(patch, "x");
    expect(files.map((f) => [f.newPath, f.additions, f.deletions])).toEqual([
      ["a.txt", 1, 1],
      ["b.txt", 1, 0],
    ]);
    expect(parsedChanges(files[1]?.gitText ?? "")).toEqual(["normal:x", "insert:y"]);
  });

  it("treats a deleted line starting with '-- ' as a line, not a header", () => {
    const [file, ...rest] = splitPatchFiles("--- f\n+++ f\n@@ -1,2 +1,1 @@\n--- not a header\n keep\n", "f");
    expect(rest).toEqual([]);
    expect(file?.deletions).toBe(1);
    expect(parsedChanges(file?.gitText ?? "")).toEqual(["delete:-- not a header", "normal:keep"]);
  });

  it("keeps hostile file names as data", () => {
    const [file] = splitPatchFiles(
      "--- a/<img src=x onerror=alert(1)>.js\n+++ b/<img src=x onerror=alert(1)>.js\n@@ -1 +1 @@ <script>alert(1)</script>\n-a\n+b\n",
      "x",
    );
    expect(file?.newPath).toBe("<img src=x onerror=alert(1)>.js");
    expect(parsedChanges(file?.gitText ?? "")).toEqual(["delete:a", "insert:b"]);
  });
});
