// Owns content hashing of results (node-only: node:crypto) — keep it out of client bundles.

import { createHash } from "node:crypto";

import { hasLoneSurrogate } from "./text-codec";

/**
 * sha256 as 64 lowercase hex characters; strings are hashed as their UTF-8 bytes.
 *
 * One exception, for strings that are not well-formed UTF-16: Node would encode each lone surrogate as
 * U+FFFD, so "a\uD800" and "a\uFFFD" would hash alike and a changed redelivery could pass for a duplicate.
 * A lone surrogate is hashed as its generalized-UTF-8 (WTF-8) bytes instead (e.g. U+D800 → ED A0 80),
 * which no valid UTF-8 text contains. Hashes of well-formed strings are plain UTF-8 hashes.
 */
export function sha256Hex(data: string | Uint8Array): string {
  const hash = createHash("sha256");
  if (typeof data !== "string" || !hasLoneSurrogate(data)) {
    hash.update(data);
    return hash.digest("hex");
  }
  let runStart = 0;
  for (let i = 0; i < data.length; i += 1) {
    const c = data.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    const next = data.charCodeAt(i + 1);
    if (c < 0xdc00 && next >= 0xdc00 && next <= 0xdfff) {
      i += 1; // a valid pair stays in the UTF-8 run
      continue;
    }
    hash.update(data.slice(runStart, i), "utf8");
    hash.update(Uint8Array.of(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)));
    runStart = i + 1;
  }
  hash.update(data.slice(runStart), "utf8");
  return hash.digest("hex");
}
