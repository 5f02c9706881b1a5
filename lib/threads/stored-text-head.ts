// Owns decoding the first characters of a stored text (lib/results/text-codec) when only a prefix was read
// from the database, so lists never load a 5 MB result to show 300 characters of it. Pure.
import { decodeStoredText } from "../results/text-codec.ts";

/**
 * `head` is the first characters of the stored column; `complete` says it is the whole column.
 * Plain stored text is its own prefix. Escaped text is a JSON string literal: a prefix of it is decoded
 * by dropping the opening quote and any escape sequence the cut went through (at most 6 characters: \uXXXX).
 */
export function decodeStoredHead(head: string, escaped: boolean, complete: boolean): string {
  if (!escaped) return head;
  if (complete) {
    try {
      return decodeStoredText(head, true);
    } catch {
      // A corrupt row: fall through and show what can be read.
    }
  }
  const body = head.startsWith('"') ? head.slice(1) : head;
  for (let drop = 0; drop <= Math.min(6, body.length); drop += 1) {
    try {
      const value: unknown = JSON.parse(`"${body.slice(0, body.length - drop)}"`);
      if (typeof value === "string") return value;
    } catch {
      // The cut is inside an escape sequence (or the closing quote): drop one more character.
    }
  }
  return "";
}
