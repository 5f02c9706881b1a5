// Owns which untrusted URLs and media the dashboard turns into live links, images or players: only
// http(s) links, and data: URLs built by us for an allow-list of media types. Pure and client-safe.

/** The URL, normalised, when it is an absolute http: or https: URL; null for anything else (javascript:, data:, relative…). */
export function safeHttpUrl(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 8192) return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  return url.href;
}

/** Raster formats browsers decode safely as <img>. Never SVG: it is a document that can carry script and links. */
export const INLINE_IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const AUDIO_TYPE = /^audio\/[a-z0-9][a-z0-9.+-]{0,60}$/;

function isBase64(data: string): boolean {
  return data.length > 0 && data.length % 4 === 0 && BASE64.test(data);
}

function mediaType(mimeType: string): string {
  return (mimeType.split(";")[0] ?? "").trim().toLowerCase();
}

/** A data: URL for an MCP image block, or null when the type is not allowed or the data is not base64. */
export function imageDataUrl(mimeType: string, data: string): string | null {
  const type = mediaType(mimeType);
  if (!INLINE_IMAGE_TYPES.some((allowed) => allowed === type) || !isBase64(data)) return null;
  return `data:${type};base64,${data}`;
}

/** A data: URL for an MCP audio block (any audio/* subtype made of token characters), or null. */
export function audioDataUrl(mimeType: string, data: string): string | null {
  const type = mediaType(mimeType);
  if (!AUDIO_TYPE.test(type) || !isBase64(data)) return null;
  return `data:${type};base64,${data}`;
}

/** Decoded size in bytes of a base64 string (for "image/tiff, 12.3 KB, not shown"). */
export function base64ByteLength(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}
