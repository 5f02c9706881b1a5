// Turns a decoded OTLP export request — protobufjs messages or parsed OTLP/JSON — into Toolscope's span
// shape (otlp-types.ts), checking what the mapping relies on. A span with a malformed trace or span id is
// refused on its own (counted in partial_success), never the whole batch.
import type {
  AttributeValue,
  Attributes,
  DecodedExport,
  OtelSpan,
  ReceivedSpan,
  SpanEvent,
  SpanLink,
  SpanOrigin,
} from "./otlp-types.ts";

/** How the two encodings differ: 64-bit integers (protobufjs Long vs JSON string/number) and bytes (Uint8Array vs hex/base64). */
export type WireCodec = {
  int64(value: unknown): string;
  /** Trace/span ids: bytes in protobuf, hex strings in OTLP/JSON. Returns lower-case hex or null when malformed. */
  id(value: unknown): string | null;
  /** AnyValue.bytesValue → base64. */
  bytes(value: unknown): string;
};

type Record_ = { [key: string]: unknown };

function isObject(value: unknown): value is Record_ {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

function snake(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * A field by its lowerCamelCase name, or its proto (snake_case) name, which OTLP/JSON receivers also accept.
 * Own properties only: protobufjs keeps unset fields' defaults on the prototype, and AnyValue is a oneof.
 */
function field(object: Record_, key: string): unknown {
  if (Object.hasOwn(object, key)) return object[key];
  const alternative = snake(key);
  return alternative !== key && Object.hasOwn(object, alternative) ? object[alternative] : undefined;
}

function list(object: Record_, key: string): unknown[] {
  const value = field(object, key);
  return Array.isArray(value) ? value : [];
}

function text(object: Record_, key: string): string | undefined {
  const value = field(object, key);
  return typeof value === "string" && value !== "" ? value : undefined;
}

function count(object: Record_, key: string): number | undefined {
  const value = field(object, key);
  const number = typeof value === "string" ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) && number > 0 ? number : undefined;
}

const SPAN_KIND_NAMES: Record<string, number> = {
  SPAN_KIND_UNSPECIFIED: 0,
  SPAN_KIND_INTERNAL: 1,
  SPAN_KIND_SERVER: 2,
  SPAN_KIND_CLIENT: 3,
  SPAN_KIND_PRODUCER: 4,
  SPAN_KIND_CONSUMER: 5,
};
const STATUS_NAMES: Record<string, number> = { STATUS_CODE_UNSET: 0, STATUS_CODE_OK: 1, STATUS_CODE_ERROR: 2 };

function enumValue(value: unknown, names: Record<string, number>): number {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string") return names[value] ?? (/^\d+$/.test(value) ? Number(value) : 0);
  return 0;
}

function anyValue(value: unknown, codec: WireCodec, depth: number): AttributeValue {
  if (!isObject(value) || depth > 32) return null;
  const string = field(value, "stringValue");
  if (typeof string === "string") return string;
  const bool = field(value, "boolValue");
  if (typeof bool === "boolean") return bool;
  const int = field(value, "intValue");
  if (int !== undefined && int !== null) {
    const decimal = codec.int64(int);
    const number = Number(decimal);
    return Number.isSafeInteger(number) ? number : decimal;
  }
  const double = field(value, "doubleValue");
  if (typeof double === "number") return Number.isFinite(double) ? double : String(double);
  if (typeof double === "string") return Number.isFinite(Number(double)) ? Number(double) : double;
  const array = field(value, "arrayValue");
  if (isObject(array)) return list(array, "values").map((item) => anyValue(item, codec, depth + 1));
  const kvlist = field(value, "kvlistValue");
  if (isObject(kvlist)) return keyValues(list(kvlist, "values"), codec, depth + 1);
  const bytes = field(value, "bytesValue");
  if (bytes !== undefined && bytes !== null) return codec.bytes(bytes);
  return null;
}

function keyValues(items: unknown[], codec: WireCodec, depth = 0): Attributes {
  // A null-prototype record: attribute keys are data ("__proto__" included), never object machinery.
  const attributes: Attributes = Object.create(null) as Attributes;
  for (const item of items) {
    if (!isObject(item)) continue;
    const key = field(item, "key");
    if (typeof key !== "string") continue;
    attributes[key] = anyValue(field(item, "value"), codec, depth);
  }
  return attributes;
}

function origin(resourceSpans: Record_, scopeSpans: Record_, codec: WireCodec): SpanOrigin {
  const resource = field(resourceSpans, "resource");
  const scope = field(scopeSpans, "scope");
  const resourceObject = isObject(resource) ? resource : {};
  const scopeObject = isObject(scope) ? scope : {};
  return {
    resource: {
      attributes: keyValues(list(resourceObject, "attributes"), codec),
      ...optional("droppedAttributesCount", count(resourceObject, "droppedAttributesCount")),
      ...optional("schemaUrl", text(resourceSpans, "schemaUrl")),
    },
    scope: {
      name: text(scopeObject, "name") ?? "",
      ...optional("version", text(scopeObject, "version")),
      attributes: keyValues(list(scopeObject, "attributes"), codec),
      ...optional("droppedAttributesCount", count(scopeObject, "droppedAttributesCount")),
      ...optional("schemaUrl", text(scopeSpans, "schemaUrl")),
    },
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: V });
}

const ZERO_TRACE = "0".repeat(32);
const ZERO_SPAN = "0".repeat(16);

function span(value: Record_, codec: WireCodec): OtelSpan | string {
  const traceId = codec.id(field(value, "traceId"));
  if (traceId === null || traceId.length !== 32 || traceId === ZERO_TRACE)
    return "invalid trace_id (must be 16 bytes, not all zero)";
  const spanId = codec.id(field(value, "spanId"));
  if (spanId === null || spanId.length !== 16 || spanId === ZERO_SPAN)
    return "invalid span_id (must be 8 bytes, not all zero)";
  const parent = codec.id(field(value, "parentSpanId"));
  if (parent === null || (parent !== "" && parent.length !== 16))
    return "invalid parent_span_id (must be empty or 8 bytes)";
  const status = field(value, "status");
  const statusObject = isObject(status) ? status : {};
  const events = list(value, "events")
    .filter(isObject)
    .map((event): SpanEvent => ({
      timeNs: codec.int64(field(event, "timeUnixNano")),
      name: text(event, "name") ?? "",
      attributes: keyValues(list(event, "attributes"), codec),
      ...optional("droppedAttributesCount", count(event, "droppedAttributesCount")),
    }));
  const links = list(value, "links")
    .filter(isObject)
    .map((link): SpanLink => ({
      traceId: codec.id(field(link, "traceId")) ?? "",
      spanId: codec.id(field(link, "spanId")) ?? "",
      ...optional("traceState", text(link, "traceState")),
      attributes: keyValues(list(link, "attributes"), codec),
      ...optional("flags", count(link, "flags")),
      ...optional("droppedAttributesCount", count(link, "droppedAttributesCount")),
    }));
  const message = text(statusObject, "message");
  return {
    traceId,
    spanId,
    parentSpanId: parent === "" || parent === ZERO_SPAN ? null : parent,
    name: typeof field(value, "name") === "string" ? String(field(value, "name")) : "",
    kind: enumValue(field(value, "kind"), SPAN_KIND_NAMES),
    startNs: codec.int64(field(value, "startTimeUnixNano")),
    endNs: codec.int64(field(value, "endTimeUnixNano")),
    attributes: keyValues(list(value, "attributes"), codec),
    events,
    links,
    status: { code: enumValue(field(statusObject, "code"), STATUS_NAMES), ...optional("message", message) },
    ...optional("traceState", text(value, "traceState")),
    ...optional("flags", count(value, "flags")),
    ...optional("droppedAttributesCount", count(value, "droppedAttributesCount")),
    ...optional("droppedEventsCount", count(value, "droppedEventsCount")),
    ...optional("droppedLinksCount", count(value, "droppedLinksCount")),
  };
}

/** At most this many distinct refusal reasons are reported (each with its count). */
const MAX_REASONS = 5;

export function normalizeExport(request: unknown, codec: WireCodec): DecodedExport {
  const spans: ReceivedSpan[] = [];
  const reasons = new Map<string, number>();
  let rejected = 0;
  const refuse = (reason: string) => {
    rejected += 1;
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  };
  const requestObject = isObject(request) ? request : {};
  for (const resourceSpans of list(requestObject, "resourceSpans")) {
    if (!isObject(resourceSpans)) continue;
    for (const scopeSpans of list(resourceSpans, "scopeSpans")) {
      if (!isObject(scopeSpans)) continue;
      const spanOrigin = origin(resourceSpans, scopeSpans, codec);
      for (const item of list(scopeSpans, "spans")) {
        if (!isObject(item)) {
          refuse("a span is not an object");
          continue;
        }
        const result = span(item, codec);
        if (typeof result === "string") refuse(result);
        else spans.push({ span: result, origin: spanOrigin });
      }
    }
  }
  const described = [...reasons].slice(0, MAX_REASONS).map(([reason, n]) => `${n} × ${reason}`);
  return { spans, rejected: { count: rejected, reasons: described } };
}
