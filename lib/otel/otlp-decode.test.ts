import { JsonTraceSerializer, ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import { describe, expect, it } from "vitest";
import { decodeJsonExport } from "./otlp-json.ts";
import { decodeProtobufExport } from "./otlp-proto.ts";
import { runAiSdkToolLoop } from "./testing/ai-sdk-run.ts";

describe("OTLP decoding", () => {
  it("decodes the real exporters' protobuf and JSON encodings of the same spans to the same records", async () => {
    const { spans } = await runAiSdkToolLoop({ mode: "otel" });
    const fromProto = decodeProtobufExport(ProtobufTraceSerializer.serializeRequest(spans) ?? new Uint8Array());
    const fromJson = decodeJsonExport(JsonTraceSerializer.serializeRequest(spans) ?? new Uint8Array());
    expect(fromProto.rejected.count).toBe(0);
    expect(fromProto.spans).toHaveLength(spans.length);
    expect(JSON.parse(JSON.stringify(fromProto))).toEqual(JSON.parse(JSON.stringify(fromJson)));
    const tool = fromProto.spans.find((received) => received.span.attributes["gen_ai.tool.name"] === "flaky");
    expect(tool?.span.status.code).toBe(2);
    expect(tool?.span.events[0]?.name).toBe("exception");
    expect(tool?.span.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(tool?.span.startNs).toMatch(/^\d{19}$/);
    expect(tool?.origin.scope.name).toBe("ai-sdk-test");
  });

  it("refuses spans with malformed ids one by one and counts them", () => {
    const body = JSON.stringify({
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId: "0af7651916cd43dd8448eb211c80319c",
                  spanId: "b7ad6b7169203331",
                  name: "ok",
                  startTimeUnixNano: "1700000000000000000",
                  endTimeUnixNano: "1700000000500000000",
                },
                { traceId: "zz", spanId: "b7ad6b7169203331", name: "bad trace" },
                { traceId: "0af7651916cd43dd8448eb211c80319c", spanId: "0000000000000000", name: "zero span" },
              ],
            },
          ],
        },
      ],
    });
    const decoded = decodeJsonExport(new TextEncoder().encode(body));
    expect(decoded.spans.map((received) => received.span.name)).toEqual(["ok"]);
    expect(decoded.rejected).toEqual({
      count: 2,
      reasons: [
        "1 × invalid trace_id (must be 16 bytes, not all zero)",
        "1 × invalid span_id (must be 8 bytes, not all zero)",
      ],
    });
  });

  it("answers 400 for bytes that are not an ExportTraceServiceRequest", () => {
    expect(() => decodeProtobufExport(new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]))).toThrow(
      /not a valid protobuf/,
    );
    expect(() => decodeJsonExport(new TextEncoder().encode("{oops"))).toThrow(/not valid JSON/);
  });

  it("answers 400, naming the field, when the export's skeleton has the wrong types (never 200 with nothing stored)", () => {
    const decode = (value: unknown) => () => decodeJsonExport(new TextEncoder().encode(JSON.stringify(value)));
    expect(decode({ resourceSpans: "x" })).toThrow("resourceSpans must be an array, got string");
    expect(decode({ resource_spans: [7] })).toThrow("resource_spans[0] must be an object");
    expect(decode({ resourceSpans: [{ scopeSpans: {} }] })).toThrow(
      "resourceSpans[0].scopeSpans must be an array, got object",
    );
    expect(decode({ resourceSpans: [{ scopeSpans: [{ spans: [null] }] }] })).toThrow(
      "resourceSpans[0].scopeSpans[0].spans[0] must be an object",
    );
    // Absent or null lists are an empty export, which OTLP allows.
    expect(decode({})().spans).toEqual([]);
    expect(decode({ resourceSpans: [{ scopeSpans: null }] })().spans).toEqual([]);
  });
});
