// The raw-text route answers exactly the bytes the stored sha256 covers.
import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { sha256Hex } from "../results/hash.ts";
import { textBytes } from "./text-bytes.ts";

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("textBytes", () => {
  it.each([
    ["plain", "hello"],
    ["emoji", "a\ud83d\ude00b"],
    ["NUL", "a\u0000b"],
    ["lone high", "a\ud800b"],
    ["lone low", "\udc00"],
    ["mixed", "\ud83d\ude00\ud800\udfff\udbff"],
  ])("%s hashes like sha256Hex", (_name, text) => {
    expect(sha(textBytes(text))).toBe(sha256Hex(text));
  });
});
