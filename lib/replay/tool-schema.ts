// Tool input schemas across vendors: Gemini declares parameters in its OpenAPI-subset Schema (type names upper
// case: OBJECT, STRING…); Anthropic and OpenAI take JSON Schema (lower case). Only the type names differ for the
// shapes Gemini's Schema allows, so the conversion lower-cases them, at every level, and changes nothing else.
import { isRecord } from "../formats/json-fields";

const GEMINI_TYPES = new Set(["OBJECT", "STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "NULL"]);

export function isGeminiSchema(schema: unknown): boolean {
  return isRecord(schema) && typeof schema.type === "string" && GEMINI_TYPES.has(schema.type);
}

/** A JSON Schema for any declared input schema (Gemini Schema converted; JSON Schema as it is). */
export function jsonSchemaOf(schema: unknown): unknown {
  return isGeminiSchema(schema) ? lowerTypes(schema) : schema;
}

function lowerTypes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(lowerTypes);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [
      key,
      key === "type" && typeof child === "string" && GEMINI_TYPES.has(child) ? child.toLowerCase() : lowerTypes(child),
    ]),
  );
}
