// Request bodies: media types, the size limit, JSON parsing, text decoding. One place, so one kind of bad
// input gets one status everywhere (415 wrong type, 413 too large, 400 malformed JSON — a JSON body that is not
// UTF-8 too, since JSON text is UTF-8 — and 422 for a text body that is not UTF-8).
import { isUtf8 } from "node:buffer";
import { config } from "../config.ts";
import { AppError } from "./app-error.ts";
import type { IncomingRequest } from "./incoming.ts";

/** The media type of a Content-Type header, lower-cased, without parameters ("" when absent). */
export function mediaType(contentType: string | null): string {
  return contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
}

export function isJsonContentType(contentType: string | null): boolean {
  const type = mediaType(contentType);
  return type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

export function unsupportedMediaType(expected: string, contentType: string | null): AppError {
  return new AppError(
    "unsupported_media_type",
    `Content-Type must be ${expected}, got ${contentType ? `"${contentType}"` : "none"}`,
  );
}

/**
 * A Content-Encoding these routes do not decode (only OTLP takes gzip: lib/otel/read-export.ts), as a 415 that
 * names it — the encoded bytes would otherwise be judged as text and refused as "not UTF-8" or "not JSON".
 */
export function unsupportedEncoding(contentEncoding: string | null): AppError | null {
  const value = (contentEncoding ?? "").trim().toLowerCase();
  if (value === "" || value === "identity") return null;
  return new AppError(
    "unsupported_media_type",
    `Content-Encoding "${value.slice(0, 100)}" is not supported here; send the body unencoded`,
  );
}

export function tooLarge(limit: number, hint = ""): AppError {
  return new AppError("too_large", `Body exceeds the ${limit}-byte limit (TOOLSCOPE_MAX_BODY_BYTES)${hint}`);
}

// JSON.parse keeps "__proto__" as an own property, but code that later copies objects key by key
// (validators, spreads) would turn it into a prototype. The raw bytes stay in the audit log untouched.
function withoutProtoKeys(key: string, value: unknown): unknown {
  return key === "__proto__" ? undefined : value;
}

/**
 * A JSON body's text. Buffer#toString would turn every byte sequence that is not UTF-8 into U+FFFD: an id or a
 * result "stored byte-for-byte" would silently be another one, its sha256 not that of what was sent.
 */
function jsonText(body: Uint8Array): string {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (!isUtf8(bytes))
    throw new AppError("malformed_json", "Body is not valid JSON: it is not UTF-8 (JSON text must be UTF-8)");
  return bytes.toString("utf8");
}

/**
 * Why a JSON text could not be read. A parser's RangeError is the stack running out on deep nesting (JSON.parse's
 * reviver and the lossless parser recurse): valid JSON, but too deep to read, which "not valid JSON" misstated.
 */
function unreadableJson(error: unknown): AppError {
  if (error instanceof RangeError) {
    return new AppError(
      "malformed_json",
      "Body is JSON nested too deeply to read (its arrays and objects, one within another, exhaust the parser's stack); nest it less deeply",
    );
  }
  return new AppError(
    "malformed_json",
    `Body is not valid JSON: ${error instanceof Error ? error.message : "unparseable"}`,
  );
}

export function parseJsonBody(body: Uint8Array): { ok: true; value: unknown } | { ok: false; error: AppError } {
  try {
    return { ok: true, value: JSON.parse(jsonText(body), withoutProtoKeys) };
  } catch (error) {
    return { ok: false, error: error instanceof AppError ? error : unreadableJson(error) };
  }
}

/** Removes own `__proto__` keys at any depth (see withoutProtoKeys) from a value another parser built. */
function dropProtoKeys(value: unknown): unknown {
  if (Array.isArray(value)) {
    value.forEach((item, index) => (value[index] = dropProtoKeys(item)));
  } else if (typeof value === "object" && value !== null) {
    if (Object.prototype.hasOwnProperty.call(value, "__proto__")) Reflect.deleteProperty(value, "__proto__");
    for (const [key, item] of Object.entries(value)) Reflect.set(value, key, dropProtoKeys(item));
  }
  return value;
}

/**
 * A JSON body: content type checked before reading, size limit enforced while reading, then parsed — by
 * JSON.parse, or by `parse` (e.g. a parser that keeps numbers' source digits).
 */
export async function readJsonBody(
  request: IncomingRequest,
  options: { limit?: number; parse?: (text: string) => unknown } = {},
): Promise<unknown> {
  const contentType = request.headers.get("content-type");
  if (!isJsonContentType(contentType)) throw unsupportedMediaType("application/json", contentType);
  const encoding = unsupportedEncoding(request.headers.get("content-encoding"));
  if (encoding) throw encoding;
  const limit = options.limit ?? config().maxBodyBytes;
  const read = await request.readBody(limit);
  if (read.tooLarge) throw tooLarge(limit);
  if (options.parse) {
    const text = jsonText(read.body);
    try {
      return dropProtoKeys(options.parse(text));
    } catch (error) {
      throw unreadableJson(error);
    }
  }
  const parsed = parseJsonBody(read.body);
  if (!parsed.ok) throw parsed.error;
  return parsed.value;
}

/** A UTF-8 text body of one of `accepted` media types (JSON types always count as text). */
export async function readTextBody(
  request: IncomingRequest,
  options: { accepted: readonly string[]; limit?: number; tooLargeHint?: string },
): Promise<string> {
  const contentType = request.headers.get("content-type");
  if (!isJsonContentType(contentType) && !options.accepted.includes(mediaType(contentType))) {
    throw unsupportedMediaType(["application/json", ...options.accepted].join(", "), contentType);
  }
  const encoding = unsupportedEncoding(request.headers.get("content-encoding"));
  if (encoding) throw encoding;
  const limit = options.limit ?? config().maxBodyBytes;
  const read = await request.readBody(limit);
  if (read.tooLarge) throw tooLarge(limit, options.tooLargeHint);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(read.body);
  } catch {
    throw new AppError("invalid", "Body is not valid UTF-8");
  }
}
