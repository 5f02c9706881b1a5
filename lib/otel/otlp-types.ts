// The OTLP trace data model as Toolscope keeps it: one plain, JSON-safe shape that both wire encodings
// (protobuf and OTLP/JSON) decode into, that the span table stores, and that the mapping reads. Client-safe.

/** An attribute value as JSON: int64 beyond 2^53 stays a decimal string, bytes become base64 strings. */
export type AttributeValue = string | number | boolean | null | AttributeValue[] | { [key: string]: AttributeValue };
export type Attributes = Record<string, AttributeValue>;

export type SpanEvent = { timeNs: string; name: string; attributes: Attributes; droppedAttributesCount?: number };
export type SpanLink = {
  traceId: string;
  spanId: string;
  traceState?: string;
  attributes: Attributes;
  flags?: number;
  droppedAttributesCount?: number;
};

/** What a span shares with its batch neighbours: the resource and the instrumentation scope. */
export type SpanOrigin = {
  resource: { attributes: Attributes; droppedAttributesCount?: number; schemaUrl?: string };
  scope: {
    name: string;
    version?: string;
    attributes: Attributes;
    droppedAttributesCount?: number;
    schemaUrl?: string;
  };
};

export const SPAN_KINDS = ["unspecified", "internal", "server", "client", "producer", "consumer"] as const;
export const STATUS_UNSET = 0;
export const STATUS_OK = 1;
export const STATUS_ERROR = 2;

export type OtelSpan = {
  /** 32 lower-case hex digits. */
  traceId: string;
  /** 16 lower-case hex digits. */
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: number;
  /** Unix nanoseconds as a decimal string (fixed64 does not fit a double). */
  startNs: string;
  endNs: string;
  attributes: Attributes;
  events: SpanEvent[];
  links: SpanLink[];
  status: { code: number; message?: string };
  traceState?: string;
  flags?: number;
  droppedAttributesCount?: number;
  droppedEventsCount?: number;
  droppedLinksCount?: number;
};

/** A span with the resource and scope it arrived with (shared by reference within a request). */
export type ReceivedSpan = { span: OtelSpan; origin: SpanOrigin };

/** A decoded export request: spans kept, spans refused (with why), in arrival order. */
export type DecodedExport = { spans: ReceivedSpan[]; rejected: { count: number; reasons: string[] } };

/** Nanoseconds (decimal string) → milliseconds since the epoch, exact to the millisecond. */
export function nanosToMillis(ns: string): number {
  if (ns.length <= 15) return Math.floor(Number(ns) / 1e6);
  return Number(ns.slice(0, -6));
}

/** Sortable form of a nanosecond timestamp (fixed width, so string order is time order). */
export function sortableNanos(ns: string): string {
  return ns.padStart(20, "0");
}
