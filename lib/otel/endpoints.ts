// POST /v1/traces (and /api/otel/v1/traces) – the OTLP/HTTP trace receiver: protobuf or JSON, gzip or not,
// answered as the OTLP specification says: 200 with an ExportTraceServiceResponse (partial_success counting
// refused spans and explaining them), 400 undecodable, 413 too large, 415 wrong media type or encoding,
// 429 / 503 with Retry-After; error bodies are google.rpc.Status in the request's encoding.
import { endpoint } from "../api/endpoint.ts";
import { AppError, toAppError } from "../http/app-error.ts";
import { bytesReply, jsonReply, type Reply } from "../http/reply.ts";
import { encodeProtobufResponse, encodeProtobufStatus } from "./otlp-proto.ts";
import { encodingOf, PROTOBUF_TYPE, readTraceExport, type ExportEncoding } from "./read-export.ts";
import { acceptTraceExport } from "./service.ts";

// google.rpc.Code for each HTTP status the receiver answers.
const RPC_CODE: Record<number, number> = {
  400: 3,
  401: 16,
  403: 7,
  404: 5,
  413: 8,
  415: 3,
  422: 3,
  429: 8,
  500: 13,
  503: 14,
};

function errorReply(error: AppError, encoding: ExportEncoding): Reply {
  const headers = error.responseHeaders();
  const code = RPC_CODE[error.status] ?? 2;
  if (encoding === "protobuf")
    return bytesReply(
      encodeProtobufStatus(code, error.message),
      { ...headers, "content-type": PROTOBUF_TYPE },
      error.status,
    );
  // google.rpc.Status in JSON, with Toolscope's one error object beside it (Status readers ignore unknown fields).
  return jsonReply(error.status, { code, message: error.message, ...error.toBody() }, headers);
}

export const otlpTracesEndpoint = endpoint({
  name: "POST /v1/traces",
  access: "ingest",
  async handle(request) {
    const encoding = encodingOf(request);
    try {
      const decoded = await readTraceExport(request);
      const partial = await acceptTraceExport({ decoded });
      if (encoding === "protobuf")
        return bytesReply(encodeProtobufResponse(partial), { "content-type": PROTOBUF_TYPE });
      return jsonReply(
        200,
        partial === null
          ? {}
          : { partialSuccess: { rejectedSpans: String(partial.rejectedSpans), errorMessage: partial.errorMessage } },
      );
    } catch (error) {
      if (!(error instanceof AppError)) console.error("[toolscope] POST /v1/traces failed", error);
      return errorReply(toAppError(error), encoding);
    }
  },
});
