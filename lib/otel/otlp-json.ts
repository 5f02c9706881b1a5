// OTLP/JSON (the OTLP/HTTP JSON encoding): trace and span ids are hex strings, 64-bit integers are decimal
// strings or numbers, enums are integers (names are accepted too), bytes are base64.
import { AppError } from "../http/app-error.ts";
import { parseJsonBody } from "../http/body.ts";
import { normalizeExport, type WireCodec } from "./otlp-normalize.ts";
import type { DecodedExport } from "./otlp-types.ts";

function int64(value: unknown): string {
  if (typeof value === "string" && /^-?\d+$/.test(value)) return value.replace(/^(-?)0+(?=\d)/, "$1");
  if (typeof value === "number" && Number.isFinite(value)) return BigInt(Math.trunc(value)).toString();
  return "0";
}

const JSON_CODEC: WireCodec = {
  int64,
  id: (value) => {
    if (value === undefined || value === null || value === "") return "";
    return typeof value === "string" && /^[0-9a-fA-F]*$/.test(value) && value.length % 2 === 0
      ? value.toLowerCase()
      : null;
  },
  bytes: (value) => (typeof value === "string" ? value : ""),
};

/** A list field of the export's skeleton: absent, or an array of objects (camelCase or proto field name). */
function objects(parent: Record<string, unknown>, key: string, snake: string, path: string): Record<string, unknown>[] {
  const name = Object.hasOwn(parent, key) ? key : Object.hasOwn(parent, snake) ? snake : null;
  if (name === null || parent[name] === null) return [];
  const value = parent[name];
  if (!Array.isArray(value)) throw new AppError("bad_request", `${path}${name} must be an array, got ${typeof value}`);
  return value.map((item, index) => {
    if (typeof item !== "object" || item === null || Array.isArray(item))
      throw new AppError("bad_request", `${path}${name}[${index}] must be an object`);
    return item as Record<string, unknown>;
  });
}

/**
 * The export's skeleton (resourceSpans → scopeSpans → spans) holds the types OTLP/JSON gives it. A wrong type
 * there is an undecodable request (400, as OTLP asks), not an empty export answered 200 with nothing stored.
 */
function checkSkeleton(request: Record<string, unknown>): void {
  objects(request, "resourceSpans", "resource_spans", "").forEach((resource, r) =>
    objects(resource, "scopeSpans", "scope_spans", `resourceSpans[${r}].`).forEach((scope, s) =>
      objects(scope, "spans", "spans", `resourceSpans[${r}].scopeSpans[${s}].`),
    ),
  );
}

export function decodeJsonExport(body: Uint8Array): DecodedExport {
  const parsed = parseJsonBody(body);
  if (!parsed.ok) throw parsed.error;
  if (typeof parsed.value !== "object" || parsed.value === null || Array.isArray(parsed.value)) {
    throw new AppError("bad_request", 'Body must be a JSON ExportTraceServiceRequest object ({"resourceSpans": […]})');
  }
  checkSkeleton(parsed.value as Record<string, unknown>);
  return normalizeExport(parsed.value, JSON_CODEC);
}
