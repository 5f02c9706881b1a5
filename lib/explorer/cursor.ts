// The explorer's keyset cursor: an opaque URL-safe token for a position in the chosen order, [sort key, id].
// The sort key is an ISO time (newest/oldest) or a number (latency, confidence). Pure; node and browser alike.

export type ExplorerCursor = { key: string | number; id: number };

export function encodeExplorerCursor(cursor: ExplorerCursor): string {
  const bytes = new TextEncoder().encode(JSON.stringify([cursor.key, cursor.id]));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** null when the token was not made by encodeExplorerCursor (tampered, truncated, or from elsewhere). */
export function decodeExplorerCursor(token: string): ExplorerCursor | null {
  if (!/^[A-Za-z0-9_-]*$/.test(token)) return null;
  const padded = token.replaceAll("-", "+").replaceAll("_", "/") + "=".repeat((4 - (token.length % 4)) % 4);
  let value: unknown;
  try {
    value = JSON.parse(
      new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(atob(padded), (c) => c.charCodeAt(0))),
    );
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [key, id] = value;
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 0) return null;
  if (typeof key === "string" && !Number.isNaN(Date.parse(key))) return { key, id };
  if (typeof key === "number" && Number.isFinite(key)) return { key, id };
  return null;
}
