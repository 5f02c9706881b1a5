// Tests for result content hashing.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";

import { sha256Hex } from "./hash";

describe("sha256Hex", () => {
  it("matches the FIPS 180-2 test vectors", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("hashes strings as UTF-8, the same as their bytes", () => {
    const text = "café 😀 部署";
    expect(sha256Hex(text)).toBe(sha256Hex(new TextEncoder().encode(text)));
    expect(sha256Hex(Uint8Array.of(0x63, 0x61, 0x66, 0xc3, 0xa9))).toBe(sha256Hex("café"));
  });

  it("keeps a lone surrogate distinct from U+FFFD by hashing it as WTF-8", () => {
    expect(sha256Hex("a\uD800b")).not.toBe(sha256Hex("a\uFFFDb"));
    expect(sha256Hex("a\uD800b")).toBe(
      createHash("sha256")
        .update(Uint8Array.of(0x61, 0xed, 0xa0, 0x80, 0x62))
        .digest("hex"),
    );
    expect(sha256Hex("\uDFFF😀")).toBe(
      createHash("sha256")
        .update(Uint8Array.of(0xed, 0xbf, 0xbf, 0xf0, 0x9f, 0x98, 0x80))
        .digest("hex"),
    );
  });
});
