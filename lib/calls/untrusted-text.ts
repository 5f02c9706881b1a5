// Owns how untrusted tool text is turned into what a person sees: secrets masked (unless revealed),
// invisible/bidi characters made visible, long text cut at a safe place. Pure and client-safe; it only
// composes lib/results' findSecrets/maskSecrets/revealInvisible, never re-implements them.
import { findSecrets, maskSecrets, revealInvisible } from "../results/flags.ts";

export type PresentOptions = {
  /** Show credential-looking strings as they are (the person pressed "reveal"). */
  revealSecrets?: boolean;
};

/** The text as the dashboard shows it: masked secrets, then ⟨U+XXXX⟩ for invisible and bidi characters. */
export function presentUntrustedText(text: string, options: PresentOptions = {}): string {
  const masked = options.revealSecrets ? text : maskSecrets(text, findSecrets(text));
  return revealInvisible(masked);
}

/**
 * The text as a copy button hands it to the clipboard: secrets masked (unless revealed) like on screen, but the
 * characters themselves kept (a pasted id or patch must be the original, not its ⟨U+XXXX⟩ rendering).
 */
export function copyableUntrustedText(text: string, options: PresentOptions = {}): string {
  return options.revealSecrets ? text : maskSecrets(text, findSecrets(text));
}

/**
 * Where to cut `text` to at most `limit` UTF-16 units without splitting a surrogate pair or a
 * secret-looking span (half a secret would escape masking). Never returns more than `limit`.
 */
export function safeCutIndex(text: string, limit: number): number {
  if (text.length <= limit) return text.length;
  let cut = Math.max(0, limit);
  // A PEM key is a few KB; this window is wide enough to see any span that crosses the cut.
  const windowStart = Math.max(0, cut - 8192);
  const window = text.slice(windowStart, Math.min(text.length, cut + 8192));
  for (const span of findSecrets(window)) {
    const start = windowStart + span.start;
    const end = windowStart + span.end;
    if (start < cut && end > cut) cut = start;
  }
  const before = text.charCodeAt(cut - 1);
  if (cut > 0 && before >= 0xd800 && before <= 0xdbff) cut -= 1;
  return cut;
}

/**
 * A short, masked, visible-characters preview of the start of a text. `head` may be longer than `limit`
 * (callers fetch a margin so a secret that straddles the limit is still recognised and masked).
 * `knownLonger` says the stored text continues beyond `head`.
 */
export function previewUntrustedText(
  head: string,
  limit: number,
  knownLonger = false,
): { text: string; truncated: boolean } {
  const masked = maskSecrets(head, findSecrets(head));
  const cut = safeCutIndex(masked, limit);
  return { text: revealInvisible(masked.slice(0, cut)), truncated: knownLonger || cut < masked.length };
}

/**
 * Cuts a long text into pieces of at most `size` characters for progressive rendering: never inside a
 * secret or a surrogate pair (each piece is masked on its own), at a line end when one is near.
 * Joining the pieces gives the text back exactly.
 */
export function splitUntrustedText(text: string, size = 64_000): string[] {
  const chunks: string[] = [];
  let rest = text;
  while (rest.length > size) {
    let cut = safeCutIndex(rest, size);
    const lineEnd = rest.lastIndexOf("\n", cut - 1);
    // Ending a piece at a line end keeps block boundaries invisible; a line longer than a piece is cut anyway.
    if (lineEnd > size / 2) cut = lineEnd + 1;
    if (cut <= 0) cut = size;
    chunks.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  chunks.push(rest);
  return chunks;
}
