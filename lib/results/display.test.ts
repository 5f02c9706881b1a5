// Tests for the display-segment rule and unified-diff statistics, starting from the callback seed's examples.
import { describe, expect, it } from "vitest";

import { chooseDisplay } from "./display";
import { diffStats } from "./unified-diff.ts";

// seeds/tool-result-callback-protocol.txt — "A diff display with text fallback".
const SEED_PATCH = '--- src/main.rs\n+++ src/main.rs\n@@ -1,3 +1,4 @@\n fn main() {\n+ println!("hello");\n }';
const SEED_DIFF_WITH_FALLBACK = [
  { type: "diff", content: { path: "src/main.rs", patch: SEED_PATCH } },
  { type: "text", content: "edit_file src/main.rs — 1 insertion" },
];

describe("chooseDisplay", () => {
  it("picks the seed's diff segment first", () => {
    expect(chooseDisplay(SEED_DIFF_WITH_FALLBACK)).toEqual({
      kind: "diff",
      index: 0,
      path: "src/main.rs",
      patch: SEED_PATCH,
      skipped: [],
    });
  });

  it("picks the seed's text-only segment", () => {
    expect(chooseDisplay([{ type: "text", content: "Deployed instance i-0abc123" }])).toEqual({
      kind: "text",
      index: 0,
      content: "Deployed instance i-0abc123",
      skipped: [],
    });
  });

  it("skips unknown types and malformed known types, saying why, then falls back", () => {
    const choice = chooseDisplay([
      { type: "image", content: { url: "https://example.com/a.png" } },
      { type: "diff", content: { path: "src/main.rs" } },
      { type: "diff", content: "--- a\n+++ b" },
      { type: "diff", content: { path: "x", patch: "just some words" } },
      { type: "text", content: { summary: "not a string" } },
      { type: "text", content: "   " },
      "text",
      { content: "no type" },
      { type: "text", content: "edit_file src/main.rs — 1 insertion" },
    ]);
    expect(choice).toEqual({
      kind: "text",
      index: 8,
      content: "edit_file src/main.rs — 1 insertion",
      skipped: [
        { index: 0, type: "image", reason: "unsupported segment type" },
        { index: 1, type: "diff", reason: "diff content has no patch string (got undefined)" },
        { index: 2, type: "diff", reason: 'diff content must be an object {path, patch} (got "--- a\\n+++ b")' },
        { index: 3, type: "diff", reason: "patch has no unified-diff hunk (@@ -a,b +c,d @@)" },
        { index: 4, type: "text", reason: "text content must be a string (got an object)" },
        { index: 5, type: "text", reason: "text content is empty" },
        { index: 6, type: "(none)", reason: 'segment is not an object (got "text")' },
        { index: 7, type: "(none)", reason: "segment type is not a string (got undefined)" },
      ],
    });
  });

  it("recovers a missing diff path from the patch headers", () => {
    const patch = "--- a/lib/app.ts\n+++ b/lib/app.ts\n@@ -1 +1 @@\n-old\n+new\n";
    expect(chooseDisplay([{ type: "diff", content: { patch } }])).toMatchObject({ kind: "diff", path: "lib/app.ts" });
    const added = "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+hi\n";
    expect(chooseDisplay([{ type: "diff", content: { patch: added } }])).toMatchObject({ path: "new.txt" });
    expect(chooseDisplay([{ type: "diff", content: { patch: "@@ -1 +1 @@\n-a\n+b" } }])).toMatchObject({
      kind: "raw",
      skipped: [{ index: 0, type: "diff", reason: "diff content has no path and the patch names no file" }],
    });
  });

  it.each([
    [undefined, "no display_as"],
    [null, "no display_as"],
    [[], "display_as is empty"],
    [{ type: "text", content: "x" }, "display_as is not an array (got an object)"],
    [[{ type: "html", content: "<b>x</b>" }], "no supported segment (1 skipped)"],
  ])("falls back to the raw text for %j", (displayAs, reason) => {
    expect(chooseDisplay(displayAs)).toMatchObject({ kind: "raw", reason });
  });

  it("does not read a segment type through __proto__", () => {
    const segments: unknown = JSON.parse('[{"__proto__": {"type": "text"}, "content": "x"}]');
    expect(chooseDisplay(segments)).toMatchObject({ kind: "raw", skipped: [{ index: 0, type: "(none)" }] });
  });
});

describe("diffStats", () => {
  it("counts the seed's patch despite its hunk header over-counting", () => {
    expect(diffStats(SEED_PATCH)).toEqual({
      files: [{ oldPath: "src/main.rs", newPath: "src/main.rs", additions: 1, deletions: 0 }],
    });
  });

  it("reads a multi-file git patch: modify, add, delete, rename, binary, no-newline markers", () => {
    const patch = [
      "diff --git a/src/app.ts b/src/app.ts",
      "index 3b18e51..a9c2f4e 100644",
      "--- a/src/app.ts",
      "+++ b/src/app.ts",
      "@@ -1,4 +1,4 @@",
      " import { run } from './run';",
      "-run(1);",
      "+run(2);",
      " ",
      " export {};",
      "@@ -10,2 +10,3 @@ function tail() {",
      " a",
      " b",
      "+c",
      "\\ No newline at end of file",
      "diff --git a/docs/new.md b/docs/new.md",
      "new file mode 100644",
      "index 0000000..e69de29",
      "--- /dev/null",
      "+++ b/docs/new.md",
      "@@ -0,0 +1,2 @@",
      "+# New",
      "+text",
      "diff --git a/old.txt b/old.txt",
      "deleted file mode 100644",
      "--- a/old.txt",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-gone",
      "diff --git a/before name.txt b/after name.txt",
      "similarity index 90%",
      "rename from before name.txt",
      "rename to after name.txt",
      "diff --git a/logo.png b/logo.png",
      "index 1..2 100644",
      "Binary files a/logo.png and b/logo.png differ",
      "",
    ].join("\n");
    expect(diffStats(patch).files).toEqual([
      { oldPath: "src/app.ts", newPath: "src/app.ts", additions: 2, deletions: 1 },
      { oldPath: "/dev/null", newPath: "docs/new.md", additions: 2, deletions: 0 },
      { oldPath: "old.txt", newPath: "/dev/null", additions: 0, deletions: 1 },
      { oldPath: "before name.txt", newPath: "after name.txt", additions: 0, deletions: 0 },
      { oldPath: "logo.png", newPath: "logo.png", additions: 0, deletions: 0 },
    ]);
  });

  it("reads plain `diff -u` output with timestamps and several files, without git headers", () => {
    const patch = [
      "--- config.ini\t2024-05-01 10:00:00.000000000 +0200",
      "+++ config.ini\t2024-05-02 09:30:00.000000000 +0200",
      "@@ -1,2 +1,2 @@",
      "-port=80",
      "+port=8080",
      " host=localhost",
      "--- notes.txt\t2024-05-01 10:00:00.000000000 +0200",
      "+++ notes.txt\t2024-05-02 09:30:00.000000000 +0200",
      "@@ -3 +3,2 @@",
      " keep",
      "+add",
    ].join("\n");
    expect(diffStats(patch).files).toEqual([
      { oldPath: "config.ini", newPath: "config.ini", additions: 1, deletions: 1 },
      { oldPath: "notes.txt", newPath: "notes.txt", additions: 1, deletions: 0 },
    ]);
  });

  it("counts a deleted line that itself starts with '-- ' as a deletion", () => {
    const patch = ["--- a/query.sql", "+++ b/query.sql", "@@ -1,2 +1,1 @@", "--- drop this comment", " SELECT 1;"].join(
      "\n",
    );
    expect(diffStats(patch).files).toEqual([
      { oldPath: "query.sql", newPath: "query.sql", additions: 0, deletions: 1 },
    ]);
  });

  it("splits files even when a hand-written hunk header over-counts", () => {
    const patch = `${SEED_PATCH}\n--- src/lib.rs\n+++ src/lib.rs\n@@ -1,1 +1,1 @@\n-a\n+b`;
    expect(diffStats(patch).files).toEqual([
      { oldPath: "src/main.rs", newPath: "src/main.rs", additions: 1, deletions: 0 },
      { oldPath: "src/lib.rs", newPath: "src/lib.rs", additions: 1, deletions: 1 },
    ]);
  });

  it("ignores CRLF line ends, the format-patch signature and git-quoted paths", () => {
    const patch = [
      'diff --git "a/caf\\303\\251.txt" "b/caf\\303\\251.txt"',
      '--- "a/caf\\303\\251.txt"',
      '+++ "b/caf\\303\\251.txt"',
      "@@ -1 +1 @@",
      "-x",
      "+y",
      "-- ",
      "2.43.0",
      "",
    ].join("\r\n");
    expect(diffStats(patch).files).toEqual([{ oldPath: "café.txt", newPath: "café.txt", additions: 1, deletions: 1 }]);
  });

  it("counts a 20,000-line diff", () => {
    const body = Array.from({ length: 10_000 }, (_, i) => `-old ${i}\n+new ${i}`).join("\n");
    const patch = `--- a/big.txt\n+++ b/big.txt\n@@ -1,10000 +1,10000 @@\n${body}\n`;
    expect(diffStats(patch).files).toEqual([
      { oldPath: "big.txt", newPath: "big.txt", additions: 10_000, deletions: 10_000 },
    ]);
  });

  it("returns no files for text that is not a diff", () => {
    expect(diffStats("hello\nworld")).toEqual({ files: [] });
  });
});
