// Owns validating a result's structured content against the tool's declared outputSchema (ajv lives only here).

import { Ajv } from "ajv";
import type { AnySchemaObject, ErrorObject, Options, ValidateFunction } from "ajv";
import { Ajv2019 } from "ajv/dist/2019";
import { Ajv2020 } from "ajv/dist/2020";
import draft06MetaSchema from "ajv/dist/refs/json-schema-draft-06.json";

export type SchemaValidation =
  | { status: "skipped"; reason: string }
  | { status: "valid" }
  /** `path` is a JSON Pointer into the validated value ("" = the root). */
  | { status: "invalid"; errors: { path: string; message: string }[] }
  | { status: "schema_error"; message: string };

/** More errors than this tell a reader nothing new; the last entry says how many were left out. */
export const MAX_REPORTED_ERRORS = 50;
const CACHE_LIMIT = 200;

const AJV_OPTIONS: Options = {
  // Tool authors write schemas by hand or generate them; unknown keywords must not fail the whole validation.
  strict: false,
  allErrors: true,
  // No ajv-formats here: `format` is an annotation, not checked (JSON Schema 2019+ default behaviour too).
  validateFormats: false,
  // Never register schemas by $id: two versions of a tool may reuse one $id, which ajv would reject.
  addUsedSchema: false,
  logger: false,
};

type Dialect = "draft-07" | "2019-09" | "2020-12";
type AjvInstance = Ajv | Ajv2019 | Ajv2020;

const instances = new Map<Dialect, AjvInstance>();

function ajvFor(dialect: Dialect): AjvInstance {
  const existing = instances.get(dialect);
  if (existing) return existing;
  let created: AjvInstance;
  if (dialect === "2020-12") created = new Ajv2020(AJV_OPTIONS);
  else if (dialect === "2019-09") created = new Ajv2019(AJV_OPTIONS);
  else {
    created = new Ajv(AJV_OPTIONS);
    // draft-06 is close enough to draft-07 that ajv validates it with the same keywords once it knows the meta-schema.
    created.addMetaSchema(draft06MetaSchema);
  }
  instances.set(dialect, created);
  return created;
}

/**
 * The dialect follows `$schema`; without one it is draft-07 (ajv's default and what most generators emit).
 * Note: MCP 2025-11-25 later made 2020-12 the default; the seed is 2025-06-18, which is silent on it.
 */
function dialectOf(schema: unknown): Dialect | { unsupported: string } {
  if (typeof schema !== "object" || schema === null || !Object.hasOwn(schema, "$schema")) return "draft-07";
  const declared: unknown = Reflect.get(schema, "$schema");
  if (typeof declared !== "string") return { unsupported: "$schema must be a string" };
  if (declared.includes("/draft/2020-12/")) return "2020-12";
  if (declared.includes("/draft/2019-09/")) return "2019-09";
  if (declared.includes("/draft-07/") || declared.includes("/draft-06/")) return "draft-07";
  return { unsupported: `unsupported JSON Schema dialect ${JSON.stringify(declared.slice(0, 100))}` };
}

type CacheEntry = { validate: ValidateFunction } | { compileError: string };

// Insertion-ordered Map as an LRU: a hit is re-inserted at the end, the first key is the least recently used.
const compiled = new Map<string, CacheEntry>();

function remember(key: string, entry: CacheEntry): CacheEntry {
  compiled.set(key, entry);
  if (compiled.size > CACHE_LIMIT) {
    const oldest = compiled.keys().next();
    if (!oldest.done) compiled.delete(oldest.value);
  }
  return entry;
}

function compile(schema: unknown): CacheEntry {
  let key: string;
  try {
    key = JSON.stringify(schema);
  } catch (error) {
    return { compileError: `schema is not serialisable JSON: ${messageOf(error)}` };
  }
  const hit = compiled.get(key);
  if (hit) {
    compiled.delete(key);
    compiled.set(key, hit);
    return hit;
  }
  const dialect = dialectOf(schema);
  if (typeof dialect !== "string") return remember(key, { compileError: dialect.unsupported });
  if (!isSchema(schema)) return remember(key, { compileError: "schema must be a JSON object or a boolean" });
  const ajv = ajvFor(dialect);
  try {
    return remember(key, { validate: ajv.compile(schema) });
  } catch (error) {
    return remember(key, { compileError: messageOf(error) });
  } finally {
    // ajv keeps its own object-keyed cache of every schema it saw; our LRU is what bounds memory, so drop ajv's copy.
    if (typeof schema === "object") ajv.removeSchema(schema);
  }
}

function isSchema(value: unknown): value is AnySchemaObject | boolean {
  return typeof value === "boolean" || (typeof value === "object" && value !== null && !Array.isArray(value));
}

/**
 * Validates structured content against an outputSchema.
 * - isError → skipped: the schema describes successful output; an error result is not expected to match it.
 * - no schema (undefined/null) → skipped.
 * - schema present, structuredContent undefined → invalid: MCP says servers MUST return structured results
 *   conforming to a declared outputSchema (seeds/mcp-tool-result-types.md, "Output Schema").
 * - schema that does not compile (bad keyword values, unresolvable $ref, unknown dialect) → schema_error.
 */
export function validateStructuredContent(
  outputSchema: unknown,
  structuredContent: unknown,
  isError: boolean,
): SchemaValidation {
  if (isError)
    return { status: "skipped", reason: "the result is an error; the output schema describes successful results" };
  if (outputSchema === undefined || outputSchema === null) {
    return { status: "skipped", reason: "the tool declared no output schema" };
  }
  const entry = compile(outputSchema);
  if ("compileError" in entry) return { status: "schema_error", message: entry.compileError };
  if (structuredContent === undefined) {
    return {
      status: "invalid",
      errors: [
        {
          path: "",
          message: "no structured content: a tool that declares an outputSchema must return structured results",
        },
      ],
    };
  }
  if (entry.validate(structuredContent)) return { status: "valid" };
  return { status: "invalid", errors: toErrors(entry.validate.errors ?? []) };
}

function toErrors(errors: ErrorObject[]): { path: string; message: string }[] {
  const reported = errors.slice(0, MAX_REPORTED_ERRORS).map(toError);
  if (errors.length > MAX_REPORTED_ERRORS) {
    reported.push({ path: "", message: `…and ${errors.length - MAX_REPORTED_ERRORS} more errors` });
  }
  return reported;
}

// Point at the offending property itself for required/additionalProperties, so a page can highlight it.
function toError(error: ErrorObject): { path: string; message: string } {
  const params: Record<string, unknown> = error.params;
  const missing = params["missingProperty"];
  if (error.keyword === "required" && typeof missing === "string") {
    return { path: `${error.instancePath}/${escapePointer(missing)}`, message: "is required" };
  }
  const additional = params["additionalProperty"];
  if (error.keyword === "additionalProperties" && typeof additional === "string") {
    return { path: `${error.instancePath}/${escapePointer(additional)}`, message: "is not allowed by the schema" };
  }
  return { path: error.instancePath, message: error.message ?? `fails ${error.keyword}` };
}

function escapePointer(segment: string): string {
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
