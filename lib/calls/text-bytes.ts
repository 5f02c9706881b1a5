// Owns turning a stored result text back into the exact bytes its sha256 was computed over: UTF-8, and
// for the rare text with a lone surrogate the same generalized UTF-8 (WTF-8) bytes lib/results/hash uses.
import { hasLoneSurrogate } from "../results/text-codec.ts";

const encoder = new TextEncoder();

export function textBytes(text: string): Uint8Array {
  if (!hasLoneSurrogate(text)) return encoder.encode(text);
  const parts: Uint8Array[] = [];
  let runStart = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    const next = text.charCodeAt(i + 1);
    if (c < 0xdc00 && next >= 0xdc00 && next <= 0xdfff) {
      i += 1; // a valid pair stays in the UTF-8 run
      continue;
    }
    parts.push(
      encoder.encode(text.slice(runStart, i)),
      Uint8Array.of(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)),
    );
    runStart = i + 1;
  }
  parts.push(encoder.encode(text.slice(runStart)));
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
