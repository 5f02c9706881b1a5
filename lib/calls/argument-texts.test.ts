// Multi-line strings inside tool arguments, and which of them are patches, on arguments real coding agents send.
import { describe, expect, it } from "vitest";
import { argumentTexts, looksLikePatch } from "./argument-texts.ts";

const PATCH = [
  "--- a/src/main.rs",
  "+++ b/src/main.rs",
  "@@ -1,3 +1,3 @@",
  " fn main() {",
  '-    println!("hello");',
  '+    println!("hello, world");',
  " }",
].join("\n");

describe("looksLikePatch", () => {
  it("takes a unified diff with a hunk header and changed lines", () => {
    expect(looksLikePatch(PATCH)).toBe(true);
    expect(looksLikePatch("@@ -3 +3 @@\n-a\n+b")).toBe(true);
  });
  it("refuses text that only mentions diffs, a hunk header with no changes, or plain lines", () => {
    expect(looksLikePatch("line one\nline two")).toBe(false);
    expect(looksLikePatch("@@ -1,2 +1,2 @@\n same\n same")).toBe(false);
    expect(looksLikePatch("Use @@ markers\n- a bullet")).toBe(false);
  });
});

describe("argumentTexts", () => {
  it("finds multi-line strings with their JSON Pointer, nested, and marks the patch", () => {
    const texts = argumentTexts({
      path: "src/main.rs",
      patch: PATCH,
      files: [{ "name/with~slash": "a\nb" }],
      note: "one line",
    });
    expect(texts).toEqual([
      { pointer: "/patch", text: PATCH, patch: true },
      { pointer: "/files/0/name~1with~0slash", text: "a\nb", patch: false },
    ]);
  });
  it("answers nothing for arguments without line breaks, a top-level string is its own text", () => {
    expect(argumentTexts({ q: "paris", n: 3, deep: { ok: true } })).toEqual([]);
    expect(argumentTexts("x\ny")).toEqual([{ pointer: "", text: "x\ny", patch: false }]);
    expect(argumentTexts(null)).toEqual([]);
  });
  it("stops at 20 texts", () => {
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`k${index}`, `${index}\n`]));
    expect(argumentTexts(many)).toHaveLength(20);
  });
});
