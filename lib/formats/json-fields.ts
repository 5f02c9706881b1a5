// Typed readers for untrusted JSON: each one either returns the expected shape or throws a FormatError naming the path.
import { FormatError } from "./format-error";
import { isLosslessNumber, parseJsonLossless, stringifyJsonLossless } from "./lossless-json";

export type JsonRecord = { [key: string]: unknown };

// A number kept with its source digits (lossless-json) is an object in JS but a number in JSON.
export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !isLosslessNumber(value);
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

// Paths read like `messages[3].content[1].tool_use_id`; the root has the empty path.
export function childPath(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  if (!IDENTIFIER.test(key)) return `${path}[${JSON.stringify(key)}]`;
  return path === "" ? key : `${path}.${key}`;
}

export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return typeof value;
}

function fail(path: string, expected: string, value: unknown): never {
  throw new FormatError(path, `expected ${expected}, got ${describeValue(value)}`);
}

export function expectRecord(value: unknown, path: string, expected = "an object"): JsonRecord {
  if (!isRecord(value)) fail(path, expected, value);
  return value;
}

export function expectArray(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) fail(path, "an array", value);
  return value;
}

export function readString(record: JsonRecord, key: string, path: string): string {
  const value = record[key];
  if (typeof value !== "string") fail(childPath(path, key), "a string", value);
  return value;
}

// Absent and null both read as undefined: vendors emit `"content": null` where they mean "none".
export function readOptionalString(record: JsonRecord, key: string, path: string): string | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") fail(childPath(path, key), "a string", value);
  return value;
}

export function readOptionalBoolean(record: JsonRecord, key: string, path: string): boolean | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean") fail(childPath(path, key), "a boolean", value);
  return value;
}

export function readArray(record: JsonRecord, key: string, path: string): unknown[] {
  return expectArray(record[key], childPath(path, key));
}

export function readOptionalArray(record: JsonRecord, key: string, path: string): unknown[] | undefined {
  const value = record[key];
  if (value === undefined || value === null) return undefined;
  return expectArray(value, childPath(path, key));
}

// First key present (not undefined/null) among aliases, e.g. Gemini's camelCase and snake_case spellings.
export function pickKey(record: JsonRecord, keys: readonly string[]): string | undefined {
  return keys.find((key) => record[key] !== undefined && record[key] !== null);
}

export type ParsedJson = { ok: true; value: unknown } | { ok: false; error: string };

// Numbers a double cannot hold keep their digits (lossless-json), so arguments re-serialise exactly.
export function parseJson(text: string): ParsedJson {
  try {
    return { ok: true, value: parseJsonLossless(text) };
  } catch (error) {
    return { ok: false, error: `invalid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}

// Arguments text must always be a string, and numbers keep their source digits.
export function stringifyJson(value: unknown): string {
  return stringifyJsonLossless(value);
}
