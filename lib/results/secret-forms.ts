// The transformed forms a secret leaks in, found in text: JSON \u escapes (a provider's error body quoting the key as
// "\u0073\u006b…") and any long run of a known key's characters (a call id or name made of the key's first 40
// characters). Pure: page masking (lib/audit/mask.ts) and provider-key masking (lib/models/targets.ts) use it.

/** A run this long of a key's characters is masked: long enough not to hit words, short enough to leak little. */
export const MIN_KEY_RUN = 8;

export type Span = { start: number; end: number };

/** The text with JSON \uXXXX escapes decoded, and for each decoded character where it starts and ends in the original. */
export type DecodedView = { text: string; starts: Int32Array; ends: Int32Array };

const UNICODE_ESCAPE = /\\u[0-9a-fA-F]{4}/;

/**
 * Null when `text` holds no \uXXXX escape (the common case). Only those: they are how a JSON encoder hides a key's
 * letters ("\u0073\u006b-…"); the one-character escapes (\n, \") never stand for a key's characters.
 */
export function decodeUnicodeEscapes(text: string): DecodedView | null {
  if (!UNICODE_ESCAPE.test(text)) return null;
  const chars: string[] = [];
  const starts = new Int32Array(text.length);
  const ends = new Int32Array(text.length);
  for (let i = 0; i < text.length;) {
    const width = text[i] === "\\" && text[i + 1] === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)) ? 6 : 1;
    chars.push(width === 6 ? String.fromCharCode(Number.parseInt(text.slice(i + 2, i + 6), 16)) : (text[i] ?? ""));
    starts[chars.length - 1] = i;
    ends[chars.length - 1] = i + width;
    i += width;
  }
  return { text: chars.join(""), starts, ends };
}

/** Maps a span of the decoded text back onto the original text. */
export function originalSpan(view: DecodedView, span: Span): Span {
  return { start: view.starts[span.start] ?? span.start, end: view.ends[span.end - 1] ?? span.end };
}

/** The vendor prefix of a key ("sk-proj-", "sk-ant-api03-"): every key of its kind starts so, it is no secret. */
function publicPrefix(key: string): string {
  return /^(?:[A-Za-z]+[0-9]*[-_])+/.exec(key)?.[0] ?? "";
}

/**
 * Every maximal run of at least MIN_KEY_RUN characters of `text` that is also a run of `key` (and not only of its
 * public prefix), left to right, non-overlapping. Linear in the text: a window is looked up in the key's set of
 * MIN_KEY_RUN-grams before it is grown.
 */
export function keyRuns(text: string, key: string): Span[] {
  if (key.length < MIN_KEY_RUN || text.length < MIN_KEY_RUN) return [];
  const grams = new Set<string>();
  for (let i = 0; i + MIN_KEY_RUN <= key.length; i += 1) grams.add(key.slice(i, i + MIN_KEY_RUN));
  const prefix = publicPrefix(key);
  const spans: Span[] = [];
  for (let i = 0; i + MIN_KEY_RUN <= text.length;) {
    if (!grams.has(text.slice(i, i + MIN_KEY_RUN))) {
      i += 1;
      continue;
    }
    let end = i + MIN_KEY_RUN;
    while (end < text.length && key.includes(text.slice(i, end + 1))) end += 1;
    if (!prefix.includes(text.slice(i, end))) spans.push({ start: i, end });
    i = end;
  }
  return spans;
}

/** Runs of any of `keys` in `text`, in its plain and its JSON-escaped form, as spans of the original text. */
export function knownKeySpans(text: string, keys: readonly string[]): Span[] {
  if (keys.length === 0) return [];
  const spans = keys.flatMap((key) => keyRuns(text, key));
  const view = decodeUnicodeEscapes(text);
  if (view) for (const key of keys) for (const span of keyRuns(view.text, key)) spans.push(originalSpan(view, span));
  return mergeSpans(spans);
}

/** Sorted, with overlapping or touching spans joined. */
export function mergeSpans(spans: Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Span[] = [];
  for (const span of sorted) {
    const last = merged.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

/** `text` with every span replaced by `replacement(original span text)`. Spans must be sorted and disjoint. */
export function replaceSpans(text: string, spans: Span[], replacement: (value: string) => string): string {
  if (spans.length === 0) return text;
  const parts: string[] = [];
  let copiedUpTo = 0;
  for (const span of spans) {
    parts.push(text.slice(copiedUpTo, span.start), replacement(text.slice(span.start, span.end)));
    copiedUpTo = span.end;
  }
  parts.push(text.slice(copiedUpTo));
  return parts.join("");
}
