// The OTLP receiver's contract for the OpenAPI document, and the call page's span DTOs. Client-safe.
import { z } from "zod";

export const exportTraceServiceResponseSchema = z
  .object({
    partialSuccess: z
      .object({
        rejectedSpans: z.string().describe("int64 as a decimal string (OTLP/JSON)"),
        errorMessage: z.string().describe("Why spans were refused, or warnings about accepted ones"),
      })
      .optional()
      .describe("Absent when every span was stored"),
  })
  .meta({ id: "ExportTraceServiceResponse" });

export const otlpStatusSchema = z
  .object({
    code: z.number().int().describe("google.rpc.Code (3 invalid argument, 8 resource exhausted, 14 unavailable…)"),
    message: z.string(),
    error: z
      .object({ code: z.string(), message: z.string() })
      .describe("Toolscope's error object, the same as on every route"),
  })
  .meta({ id: "OtlpStatus" });

/** One attribute as the call page shows it: the key, the value as JSON text (masked, cut when long). */
export type SpanAttributeView = { key: string; value: string; truncated: boolean };

export type SpanView = {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: string;
  /** What the span was to this call: the tool execution, the model call that requested it, the one that read its result. */
  role: string;
  startedAt: string;
  endedAt: string;
  durationMs: number;
  status: { code: "unset" | "ok" | "error"; message: string | null };
  attributes: SpanAttributeView[];
  events: { name: string; at: string; attributes: SpanAttributeView[] }[];
  links: { traceId: string; spanId: string; attributes: SpanAttributeView[] }[];
  resource: SpanAttributeView[];
  scope: { name: string; version: string | null; attributes: SpanAttributeView[] };
  dropped: { attributes: number; events: number; links: number };
  receivedAt: string;
};

export type CallSpans = { traceId: string; spans: SpanView[] };
