// Test support: the small checker the fake provider's request validators share. A failed check throws
// RequestRefused with the path in the provider's own spelling, which fake-validation.ts turns into that API's 400.
import { isRecord, type JsonRecord } from "../formats/json-fields.ts";

export class RequestRefused extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(path === "" ? message : `${path}: ${message}`);
  }
}

export function refuse(path: string, message: string): never {
  throw new RequestRefused(path, message);
}

export function record(value: unknown, path: string): JsonRecord {
  if (!isRecord(value)) refuse(path, `expected an object, got ${JSON.stringify(value)?.slice(0, 60) ?? "nothing"}`);
  return value;
}

export function list(value: unknown, path: string, options: { nonEmpty?: boolean } = {}): unknown[] {
  if (!Array.isArray(value)) refuse(path, "expected an array");
  if (options.nonEmpty === true && value.length === 0) refuse(path, "must not be empty");
  return value;
}

export function text(value: unknown, path: string): string {
  if (typeof value !== "string") refuse(path, "Field required (a string)");
  return value;
}

export function optionalText(value: unknown, path: string): void {
  if (value !== undefined && typeof value !== "string") refuse(path, "expected a string");
}

/** The provider refuses fields it does not know (Anthropic "Extra inputs are not permitted", OpenAI "Unknown parameter", Gemini "Cannot find field"). */
export function onlyKeys(value: JsonRecord, allowed: readonly string[], path: string): void {
  for (const key of Object.keys(value))
    if (!allowed.includes(key))
      refuse(path === "" ? key : `${path}.${key}`, "Unknown field: extra inputs are not permitted");
}

/** A tool's input schema: a JSON Schema object whose type is "object" (every vendor documents this). */
export function objectSchema(value: unknown, path: string, typeName = "object"): void {
  const schema = record(value, path);
  if (schema.type !== typeName) refuse(`${path}.type`, `the input schema must have type "${typeName}"`);
}

export function pattern(value: string, re: RegExp, path: string): void {
  if (!re.test(value)) refuse(path, `"${value}" does not match ${String(re)}`);
}
