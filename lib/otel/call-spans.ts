// The call page's "OpenTelemetry spans" panel: the spans a call was mapped from, every attribute, event, link,
// the resource and the scope kept raw — values masked and cut like all untrusted text before they leave.
import "server-only";
import { previewUntrustedText } from "../calls/untrusted-text.ts";
import { getDatabase, type Database } from "../db/client.ts";
import {
  nanosToMillis,
  SPAN_KINDS,
  STATUS_ERROR,
  STATUS_OK,
  type Attributes,
  type OtelSpan,
  type SpanOrigin,
} from "./otlp-types.ts";
import { findCallSpanRefs, findSpans } from "./repository.ts";
import type { CallSpans, SpanAttributeView, SpanView } from "./schemas.ts";
import { chatView, toolView } from "./span-views.ts";

/** Longest attribute value sent to the page (messages can be megabytes; the raw span is in the database). */
const VALUE_LIMIT = 20_000;

function attributeViews(attributes: Attributes): SpanAttributeView[] {
  return Object.keys(attributes)
    .sort()
    .map((key) => {
      const raw = attributes[key];
      const text = typeof raw === "string" ? raw : JSON.stringify(raw ?? null);
      const preview = previewUntrustedText(
        text.slice(0, VALUE_LIMIT + 64),
        VALUE_LIMIT,
        text.length > VALUE_LIMIT + 64,
      );
      return { key, value: preview.text, truncated: preview.truncated };
    });
}

function iso(ns: string): string {
  return new Date(nanosToMillis(ns)).toISOString();
}

function roleOf(span: OtelSpan): string {
  if (toolView(span)) return "tool execution";
  if (chatView(span)) return "model call";
  return "span";
}

function refsOf(dataJson: string | null): { traceId: string; spanIds: string[] } | null {
  if (dataJson === null) return null;
  try {
    const data: unknown = JSON.parse(dataJson);
    if (typeof data !== "object" || data === null || !("otel" in data)) return null;
    const otel = data.otel;
    if (typeof otel !== "object" || otel === null || !("traceId" in otel) || !("spanIds" in otel)) return null;
    const { traceId, spanIds } = otel;
    if (typeof traceId !== "string" || !Array.isArray(spanIds)) return null;
    return { traceId, spanIds: spanIds.filter((id): id is string => typeof id === "string") };
  } catch {
    return null;
  }
}

function toView(span: OtelSpan, origin: SpanOrigin | null, receivedAt: Date): SpanView {
  const startMs = nanosToMillis(span.startNs);
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    parentSpanId: span.parentSpanId,
    name: previewUntrustedText(span.name, 500).text,
    kind: SPAN_KINDS[span.kind] ?? String(span.kind),
    role: roleOf(span),
    startedAt: iso(span.startNs),
    endedAt: iso(span.endNs),
    durationMs: Math.max(0, nanosToMillis(span.endNs) - startMs),
    status: {
      code: span.status.code === STATUS_ERROR ? "error" : span.status.code === STATUS_OK ? "ok" : "unset",
      message: span.status.message ?? null,
    },
    attributes: attributeViews(span.attributes),
    events: span.events.map((event) => ({
      name: event.name,
      at: iso(event.timeNs),
      attributes: attributeViews(event.attributes),
    })),
    links: span.links.map((link) => ({
      traceId: link.traceId,
      spanId: link.spanId,
      attributes: attributeViews(link.attributes),
    })),
    resource: attributeViews(origin?.resource.attributes ?? {}),
    scope: {
      name: origin?.scope.name ?? "",
      version: origin?.scope.version ?? null,
      attributes: attributeViews(origin?.scope.attributes ?? {}),
    },
    dropped: {
      attributes: span.droppedAttributesCount ?? 0,
      events: span.droppedEventsCount ?? 0,
      links: span.droppedLinksCount ?? 0,
    },
    receivedAt: receivedAt.toISOString(),
  };
}

/** The spans a call came from, or null for calls that did not arrive over OpenTelemetry. */
export async function getCallSpans(options: { callRowId: number; database?: Database }): Promise<CallSpans | null> {
  const db = options.database ?? (await getDatabase());
  const refs = refsOf(await findCallSpanRefs(db.client, options.callRowId));
  if (refs === null) return null;
  const rows = await findSpans(db.client, refs.traceId, refs.spanIds);
  const spans = rows.map((row) =>
    toView(
      JSON.parse(row.spanJson) as OtelSpan,
      row.scopeJson === null ? null : (JSON.parse(row.scopeJson) as SpanOrigin),
      row.receivedAt,
    ),
  );
  // Tool execution first: it is the call itself; the model calls around it follow.
  spans.sort((a, b) => Number(b.role === "tool execution") - Number(a.role === "tool execution"));
  return { traceId: refs.traceId, spans };
}
