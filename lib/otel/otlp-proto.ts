// OTLP/HTTP protobuf: decodes ExportTraceServiceRequest and encodes ExportTraceServiceResponse and the
// google.rpc.Status error body, with protobufjs and the OpenTelemetry .proto definitions vendored in lib/otel/proto
// (opentelemetry-proto v1.4.0), compiled to a static descriptor: no .proto file is read at run time. Built on first use.
import protobuf from "protobufjs";
import { AppError } from "../http/app-error.ts";
import { normalizeExport, type WireCodec } from "./otlp-normalize.ts";
import type { DecodedExport } from "./otlp-types.ts";
import { TRACE_DESCRIPTOR } from "./proto/trace-descriptor.ts";

type Codecs = { request: protobuf.Type; response: protobuf.Type; status: protobuf.Type };

function loadCodecs(): Codecs {
  const root = protobuf.Root.fromJSON(TRACE_DESCRIPTOR);
  // google.rpc.Status, the OTLP error body (code, message; details are optional and never sent here).
  const status = new protobuf.Type("Status")
    .add(new protobuf.Field("code", 1, "int32"))
    .add(new protobuf.Field("message", 2, "string"));
  new protobuf.Root().define("google.rpc").add(status);
  return {
    request: root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest"),
    response: root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse"),
    status,
  };
}

let codecs: Codecs | undefined;
function getCodecs(): Codecs {
  codecs ??= loadCodecs();
  return codecs;
}

// protobufjs decodes 64-bit integers as Long objects (the `long` package); their toString() is exact.
type LongLike = { toString(): string; toNumber(): number; high: number; low: number };

function isLong(value: unknown): value is LongLike {
  return typeof value === "object" && value !== null && "high" in value && "low" in value && "toNumber" in value;
}

/** A fixed64/int64 field as a decimal string. */
function int64String(value: unknown): string {
  if (isLong(value)) return value.toString();
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  return "0";
}

function hex(value: unknown): string | null {
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex");
  // protobufjs leaves an absent bytes field at its prototype default, an empty array.
  return value === undefined || value === null || (Array.isArray(value) && value.length === 0) ? "" : null;
}

const PROTOBUF_CODEC: WireCodec = {
  int64: int64String,
  id: hex,
  bytes: (value) =>
    value instanceof Uint8Array ? Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("base64") : "",
};

export function decodeProtobufExport(body: Uint8Array): DecodedExport {
  let message: protobuf.Message;
  try {
    message = getCodecs().request.decode(body);
  } catch (error) {
    throw new AppError(
      "bad_request",
      `Body is not a valid protobuf ExportTraceServiceRequest: ${error instanceof Error ? error.message : "undecodable"}`,
    );
  }
  // The decoded message is walked as is: protobufjs keeps defaults on the prototype and bytes as Uint8Array.
  return normalizeExport(message, PROTOBUF_CODEC);
}

/** ExportTraceServiceResponse; partial_success only when something was rejected or worth a warning. */
export function encodeProtobufResponse(partial: { rejectedSpans: number; errorMessage: string } | null): Uint8Array {
  const { response } = getCodecs();
  const value =
    partial === null
      ? {}
      : { partialSuccess: { rejectedSpans: partial.rejectedSpans, errorMessage: partial.errorMessage } };
  return response.encode(response.fromObject(value)).finish();
}

export function encodeProtobufStatus(code: number, message: string): Uint8Array {
  const { status } = getCodecs();
  return status.encode(status.fromObject({ code, message })).finish();
}

/** For tests and the benchmark: an ExportTraceServiceRequest from its OTLP/JSON-like object form (ids as bytes). */
export function encodeProtobufRequest(value: Record<string, unknown>): Uint8Array {
  const { request } = getCodecs();
  return request.encode(request.fromObject(value)).finish();
}
