// Tests for the lossless storage encoding of result text.
import { describe, expect, it } from "vitest";

import { decodeStoredText, encodeStoredText, hasLoneSurrogate } from "./text-codec";

describe("hasLoneSurrogate", () => {
  it.each([
    ["plain ASCII", "hello", false],
    ["a valid astral pair", "ok 😀 𝄞", false],
    ["a lone high surrogate at the end", "abc\uD83D", true],
    ["a lone high surrogate before text", "\uD83Dabc", true],
    ["a lone low surrogate", "abc\uDE00def", true],
    ["a reversed pair", "\uDE00\uD83D", true],
    ["two high surrogates then a low one", "\uD83D\uD83D\uDE00", true],
    ["empty", "", false],
  ])("%s → %s", (_name, text, expected) => {
    expect(hasLoneSurrogate(text)).toBe(expected);
  });
});

describe("encodeStoredText / decodeStoredText", () => {
  it("stores safe text unchanged", () => {
    const text = "Deployment completed successfully. Instance i-0abc123 is running. 部署完成 😀";
    const encoded = encodeStoredText(text);
    expect(encoded).toEqual({ stored: text, escaped: false });
    expect(decodeStoredText(encoded.stored, encoded.escaped)).toBe(text);
  });

  it.each([
    ["a NUL", "before\u0000after"],
    ["only NUL", "\u0000"],
    ["a lone high surrogate", "truncated emoji \uD83D"],
    ["a lone low surrogate", "\uDE00 at start"],
    ["NUL, lone surrogates and a valid pair together", 'a\u0000b\uD800c\uDFFFd😀"quoted"\\n'],
    ["text that already looks like JSON", '"\\u0000" \u0000'],
  ])("round-trips %s through an escaped, storable form", (_name, text) => {
    const encoded = encodeStoredText(text);
    expect(encoded.escaped).toBe(true);
    // What a database receives has neither NUL nor lone surrogates, so nothing can be altered on the way.
    expect(encoded.stored.includes("\u0000")).toBe(false);
    expect(hasLoneSurrogate(encoded.stored)).toBe(false);
    // Simulate a UTF-8 driver: encoding then decoding must not change the stored form.
    expect(new TextDecoder().decode(new TextEncoder().encode(encoded.stored))).toBe(encoded.stored);
    expect(decodeStoredText(encoded.stored, encoded.escaped)).toBe(text);
  });

  it("round-trips a 5 MB text with a NUL", () => {
    const text = `${"x".repeat(5 * 1024 * 1024)}\u0000`;
    const encoded = encodeStoredText(text);
    expect(decodeStoredText(encoded.stored, encoded.escaped)).toBe(text);
  });

  it("refuses an escaped value that is not a JSON string", () => {
    expect(() => decodeStoredText("{}", true)).toThrow(/not a JSON string/);
  });
});
