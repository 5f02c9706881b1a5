// Owns safe reading of untrusted JSON text: one guarded parse, own-property reads, short value descriptions.

export type JsonObject = { readonly [key: string]: unknown };

export type ParsedJson = { ok: true; value: unknown } | { ok: false };

const NOT_JSON: ParsedJson = { ok: false };

// A leading BOM is not JSON (RFC 8259 §8.1) but files read by tools often carry one; parsers MAY ignore it.
function firstMeaningfulIndex(text: string): number {
  let i = 0;
  if (text.charCodeAt(0) === 0xfeff) i = 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    // JSON whitespace only: space, tab, LF, CR.
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return i;
    i += 1;
  }
  return i;
}

/**
 * Parses `text` as JSON only when its first character could start the wanted kind of value, so the
 * common plain-text result ("Deployment completed…") never pays for a thrown SyntaxError.
 * JSON.parse is used (never eval); it defines a `__proto__` key as an ordinary own property.
 */
export function parseJsonText(text: string, objectOnly: boolean): ParsedJson {
  const start = firstMeaningfulIndex(text);
  if (start >= text.length) return NOT_JSON;
  const first = text.charCodeAt(start);
  const isObjectStart = first === 0x7b; /* { */
  if (objectOnly && !isObjectStart) return NOT_JSON;
  if (!objectOnly && !isObjectStart && !couldStartJsonValue(first)) return NOT_JSON;
  try {
    return { ok: true, value: JSON.parse(start === 0 ? text : text.slice(start)) };
  } catch {
    return NOT_JSON;
  }
}

function couldStartJsonValue(c: number): boolean {
  return (
    c === 0x5b /* [ */ ||
    c === 0x22 /* " */ ||
    c === 0x2d /* - */ ||
    (c >= 0x30 && c <= 0x39) /* 0-9 */ ||
    c === 0x74 /* t */ ||
    c === 0x66 /* f */ ||
    c === 0x6e /* n */
  );
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Own properties only: an inherited (or polluted) `Object.prototype` member never counts as a field. */
export function hasOwn(object: JsonObject, key: string): boolean {
  return Object.hasOwn(object, key);
}

export function readOwn(object: JsonObject, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** A short, bounded description of a value for problem messages (values may be megabytes long). */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return value.length > 40 ? `${JSON.stringify(value.slice(0, 40))}…` : JSON.stringify(value);
    case "number":
    case "boolean":
      return String(value);
    case "object":
      return "an object";
    default:
      return typeof value;
  }
}
