// Test factory: one received span (a bare resource and scope, started and ended now) and an export of spans as
// decoded from the wire, for tests that exercise the mapping and storage without an exporter.
import type { Attributes, DecodedExport, ReceivedSpan } from "../otlp-types.ts";

export function receivedSpan(
  traceId: string,
  name: string,
  attributes: Attributes,
  spanId = "a".repeat(16),
): ReceivedSpan {
  const start = String(BigInt(Date.now()) * 1_000_000n);
  return {
    origin: { resource: { attributes: {} }, scope: { name: "test", attributes: {} } },
    span: {
      traceId,
      spanId,
      parentSpanId: null,
      name,
      kind: 1,
      startNs: start,
      endNs: start,
      status: { code: 0 },
      events: [],
      links: [],
      attributes,
    },
  };
}

export function decodedExport(spans: ReceivedSpan[]): DecodedExport {
  return { spans, rejected: { count: 0, reasons: [] } };
}
