// Owns the threads list's keyset cursor: an opaque, URL-safe token for a position in the
// (lastActivityAt desc, id desc) order. Pure; node and browser alike.

export type ThreadCursor = { lastActivityAt: string; id: number };

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64Url(token: string): string | null {
  if (!/^[A-Za-z0-9_-]*$/.test(token)) return null;
  const padded = token.replaceAll("-", "+").replaceAll("_", "/") + "=".repeat((4 - (token.length % 4)) % 4);
  try {
    const binary = atob(padded);
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}

export function encodeThreadCursor(cursor: ThreadCursor): string {
  return toBase64Url(JSON.stringify([cursor.lastActivityAt, cursor.id]));
}

/** null when the token was not made by encodeThreadCursor (tampered, truncated, or from elsewhere). */
export function decodeThreadCursor(token: string): ThreadCursor | null {
  const json = fromBase64Url(token);
  if (json === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [at, id] = value;
  if (typeof at !== "string" || typeof id !== "number" || !Number.isSafeInteger(id) || id < 0) return null;
  if (Number.isNaN(Date.parse(at))) return null;
  return { lastActivityAt: new Date(at).toISOString(), id };
}
