// Reading an OTLP/HTTP trace export: media type (protobuf or JSON), Content-Encoding (gzip or none), the body
// limit enforced on the bytes received and again on the bytes a gzip body inflates to (a small bomb is a
// 413, never a few gigabytes of memory), then decoding.
import { gunzip } from "node:zlib";
import { promisify } from "node:util";
import { config } from "../config.ts";
import { AppError } from "../http/app-error.ts";
import { mediaType, tooLarge } from "../http/body.ts";
import type { IncomingRequest } from "../http/incoming.ts";
import { decodeJsonExport } from "./otlp-json.ts";
import { decodeProtobufExport } from "./otlp-proto.ts";
import type { DecodedExport } from "./otlp-types.ts";

const inflate = promisify(gunzip);

export type ExportEncoding = "protobuf" | "json";

export const PROTOBUF_TYPE = "application/x-protobuf";

/** The encoding the answer must use: the request's, as OTLP/HTTP requires (JSON when it cannot be told). */
export function encodingOf(request: IncomingRequest): ExportEncoding {
  const type = mediaType(request.headers.get("content-type"));
  return type === PROTOBUF_TYPE || type === "application/protobuf" ? "protobuf" : "json";
}

function contentEncoding(request: IncomingRequest): "gzip" | "identity" {
  const value = (request.headers.get("content-encoding") ?? "").trim().toLowerCase();
  if (value === "" || value === "identity") return "identity";
  if (value === "gzip" || value === "x-gzip") return "gzip";
  throw new AppError(
    "unsupported_media_type",
    `Content-Encoding "${value.slice(0, 100)}" is not supported; send gzip or no encoding`,
  );
}

async function gunzipBounded(body: Uint8Array, limit: number): Promise<Uint8Array> {
  try {
    return await inflate(body, { maxOutputLength: limit });
  } catch (error) {
    if (
      error instanceof RangeError ||
      (error instanceof Error && "code" in error && error.code === "ERR_BUFFER_TOO_LARGE")
    ) {
      throw tooLarge(limit, " once decompressed");
    }
    throw new AppError(
      "bad_request",
      `Body is not valid gzip: ${error instanceof Error ? error.message : "undecodable"}`,
    );
  }
}

export async function readTraceExport(
  request: IncomingRequest,
  limit: number = config().maxBodyBytes,
): Promise<DecodedExport> {
  const type = mediaType(request.headers.get("content-type"));
  const encoding =
    type === PROTOBUF_TYPE || type === "application/protobuf"
      ? "protobuf"
      : type === "application/json"
        ? "json"
        : null;
  if (encoding === null) {
    throw new AppError(
      "unsupported_media_type",
      `Content-Type must be ${PROTOBUF_TYPE} or application/json, got ${type ? `"${type}"` : "none"}`,
    );
  }
  const coding = contentEncoding(request);
  const read = await request.readBody(limit);
  if (read.tooLarge) throw tooLarge(limit);
  const body = coding === "gzip" ? await gunzipBounded(read.body, limit) : read.body;
  return encoding === "protobuf" ? decodeProtobufExport(body) : decodeJsonExport(body);
}
