// Prefixes of stored texts decode to prefixes of the original, escaped or not.
import { describe, expect, it } from "vitest";
import { encodeStoredText } from "../results/text-codec.ts";
import { decodeStoredHead } from "./stored-text-head.ts";

describe("decodeStoredHead", () => {
  it("returns plain text as is", () => {
    expect(decodeStoredHead("hello", false, false)).toBe("hello");
  });

  it("decodes a complete escaped text exactly", () => {
    const text = "a\u0000b\ud800c";
    const stored = encodeStoredText(text);
    expect(stored.escaped).toBe(true);
    expect(decodeStoredHead(stored.stored, true, true)).toBe(text);
  });

  it("decodes every prefix of an escaped text to a prefix of the original", () => {
    const text = 'x\u0000y "quoted" \\ back\nline\ud83d\ude00 end\ud800';
    const stored = encodeStoredText(text).stored;
    for (let cut = 0; cut <= stored.length; cut += 1) {
      const decoded = decodeStoredHead(stored.slice(0, cut), true, false);
      expect(text.startsWith(decoded), `cut ${cut}: ${JSON.stringify(decoded)}`).toBe(true);
    }
  });
});
