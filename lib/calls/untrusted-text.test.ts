// What a person sees of untrusted text: secrets masked, invisible characters visible, cuts in safe places.
import { describe, expect, it } from "vitest";
import { presentUntrustedText, previewUntrustedText, safeCutIndex, splitUntrustedText } from "./untrusted-text.ts";

const KEY = "sk-proj-abcdefghij0123456789ABCDEFGH";

describe("presentUntrustedText", () => {
  it("masks secrets and reveals bidi controls", () => {
    const shown = presentUntrustedText(`key=${KEY} \u202Eevil`);
    expect(shown).not.toContain(KEY);
    expect(shown).toContain("[masked openai_key]");
    expect(shown).toContain("⟨U+202E⟩evil");
  });

  it("shows secrets only when asked to", () => {
    expect(presentUntrustedText(`key=${KEY}`, { revealSecrets: true })).toBe(`key=${KEY}`);
  });
});

describe("safeCutIndex", () => {
  it("never splits a secret or a surrogate pair", () => {
    const text = `${"a".repeat(9)} ${KEY} tail`;
    expect(safeCutIndex(text, 20)).toBe(10);
    expect(safeCutIndex("ab\ud83d\ude00cd", 3)).toBe(2);
    expect(safeCutIndex("short", 100)).toBe(5);
  });
});

describe("previewUntrustedText", () => {
  it("masks a secret that straddles the limit", () => {
    const preview = previewUntrustedText(`${"x".repeat(30)}${KEY}`, 40);
    expect(preview.text).not.toContain("abcdefghij");
    expect(preview.truncated).toBe(true);
  });
});

describe("splitUntrustedText", () => {
  it("cuts at line ends, keeps every character and never splits a secret", () => {
    const text = Array.from({ length: 400 }, (_, i) => `line ${i} ${i % 50 === 0 ? KEY : "plain"}`).join("\n");
    const pieces = splitUntrustedText(text, 1000);
    expect(pieces.join("")).toBe(text);
    expect(pieces.length).toBeGreaterThan(5);
    for (const piece of pieces.slice(0, -1)) {
      expect(piece.length).toBeLessThanOrEqual(1000);
      expect(piece.endsWith("\n")).toBe(true);
    }
    const masked = pieces.map((piece) => presentUntrustedText(piece)).join("");
    expect(masked).not.toContain(KEY);
  });

  it("cuts a single long line without splitting a secret", () => {
    const text = `${"x ".repeat(480)}${KEY} ${"y".repeat(2000)}`;
    const pieces = splitUntrustedText(text, 1000);
    expect(pieces.join("")).toBe(text);
    expect(pieces.map((piece) => presentUntrustedText(piece)).join("")).not.toContain(KEY);
  });
});
