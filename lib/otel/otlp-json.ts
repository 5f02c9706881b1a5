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
    return typeof value === "string" && /^[0-9a-fA-F]*$/.test(value) && value.length % 2 === 0 ? value.toLowerCase() : null;
  },
  bytes: (value) => (typeof value === "string" ? value : ""),
};

export function decodeJsonExport(body: Uint8Array): DecodedExport {
  const parsed = parseJsonBody(body);
  if (!parsed.ok) throw parsed.error;
  if (typeof parsed.value !== "object" || parsed.value === null || Array.isArray(parsed.value)) {
    throw new AppError("bad_request", "Body must be a JSON ExportTraceServiceRequest object ({\"resourceSpans\": […]})");
  }
  return normalizeExport(parsed.value, JSON_CODEC);
}
