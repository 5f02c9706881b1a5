// Owns the lossless database encoding of result text: plain when safe, JSON-escaped when a database would alter it.
//
// PostgreSQL rejects U+0000 in `text` columns, and both the SQLite and PostgreSQL drivers encode strings as
// UTF-8, turning a lone UTF-16 surrogate into U+FFFD. Either would silently change what the tool returned.
// JSON.stringify escapes both (NUL as \u0000, lone surrogates as \udXXX since ES2019), so the escaped
// form is plain ASCII-safe text that every database keeps byte for byte.

export type StoredText = { stored: string; escaped: boolean };

/** True when the string holds a high surrogate not followed by a low one, or a low one not preceded by a high one. */
export function hasLoneSurrogate(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c >= 0xdc00) return true; // a low surrogate not consumed as the second half of a pair
    const next = text.charCodeAt(i + 1);
    if (!(next >= 0xdc00 && next <= 0xdfff)) return true;
    i += 1;
  }
  return false;
}

/** Whether a database would store this string unchanged: no NUL and well-formed UTF-16. */
export function isStorableAsIs(text: string): boolean {
  return !text.includes("\u0000") && !hasLoneSurrogate(text);
}

/**
 * For text kept for people rather than byte for byte (an error message, a stop reason): NUL written out as
 * `\u0000`, lone surrogates as U+FFFD, so both databases take it alike.
 */
export function storableText(text: string): string {
  return isStorableAsIs(text) ? text : text.replaceAll("\u0000", "\\u0000").toWellFormed();
}

/** The common case costs two scans and no copy: `stored === text` and `escaped === false`. */
export function encodeStoredText(text: string): StoredText {
  if (isStorableAsIs(text)) return { stored: text, escaped: false };
  return { stored: JSON.stringify(text), escaped: true };
}

/** Inverse of encodeStoredText. Throws when an escaped value is not a JSON string: the row is corrupt. */
export function decodeStoredText(stored: string, escaped: boolean): string {
  if (!escaped) return stored;
  const value: unknown = JSON.parse(stored);
  if (typeof value !== "string") throw new Error("escaped stored text is not a JSON string");
  return value;
}
