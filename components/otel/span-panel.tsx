// The call page's OpenTelemetry panel: the spans a call was mapped from, with every attribute, event, link,
// the resource and the instrumentation scope exactly as received (values masked and cut on the server).
// Plain markup with <details>: nothing here needs client state.
import type { CallSpans, SpanAttributeView, SpanView } from "@/lib/otel/schemas.ts";

function Attributes({ items, label }: { items: SpanAttributeView[]; label: string }) {
  if (items.length === 0) return <p className="small muted">No {label}.</p>;
  return (
    <table className="otel-attributes small">
      <caption className="sr-only">{label}</caption>
      <thead>
        <tr>
          <th scope="col">key</th>
          <th scope="col">value</th>
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={item.key}>
            <th scope="row" className="mono">
              {item.key}
            </th>
            <td className="mono otel-value">
              {item.value}
              {item.truncated ? <span className="muted"> … (cut)</span> : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Span({ span, open }: { span: SpanView; open: boolean }) {
  return (
    <details className="card otel-span" open={open} data-testid="otel-span">
      <summary>
        <span className="chip">{span.role}</span> <span className="mono">{span.name}</span>{" "}
        <span className={`chip ${span.status.code === "error" ? "chip-bad" : ""}`}>{span.status.code}</span>{" "}
        <span className="small muted">
          {span.durationMs} ms · {span.kind}
        </span>
      </summary>
      <dl className="kv small">
        <dt>trace / span</dt>
        <dd className="mono">
          {span.traceId} / {span.spanId}
          {span.parentSpanId ? ` (parent ${span.parentSpanId})` : " (root)"}
        </dd>
        <dt>started / ended</dt>
        <dd className="mono">
          {span.startedAt} / {span.endedAt}
        </dd>
        {span.status.message ? (
          <>
            <dt>status message</dt>
            <dd className="mono">{span.status.message}</dd>
          </>
        ) : null}
        <dt>received</dt>
        <dd className="mono">{span.receivedAt}</dd>
        {span.dropped.attributes + span.dropped.events + span.dropped.links > 0 ? (
          <>
            <dt>dropped by the SDK</dt>
            <dd>
              {span.dropped.attributes} attributes, {span.dropped.events} events, {span.dropped.links} links
            </dd>
          </>
        ) : null}
      </dl>
      <h3 className="small">Attributes</h3>
      <Attributes items={span.attributes} label="attributes" />
      {span.events.map((event, index) => (
        <div key={`${event.name}-${index}`}>
          <h3 className="small">
            Event <span className="mono">{event.name}</span> <span className="muted mono">{event.at}</span>
          </h3>
          <Attributes items={event.attributes} label={`attributes of event ${event.name}`} />
        </div>
      ))}
      {span.links.map((link) => (
        <div key={`${link.traceId}-${link.spanId}`}>
          <h3 className="small">
            Link{" "}
            <span className="mono">
              {link.traceId} / {link.spanId}
            </span>
          </h3>
          <Attributes items={link.attributes} label="link attributes" />
        </div>
      ))}
      <h3 className="small">
        Resource · scope{" "}
        <span className="mono">
          {span.scope.name}
          {span.scope.version ? ` ${span.scope.version}` : ""}
        </span>
      </h3>
      <Attributes items={span.resource} label="resource attributes" />
      {span.scope.attributes.length > 0 ? <Attributes items={span.scope.attributes} label="scope attributes" /> : null}
    </details>
  );
}

export function SpanPanel({ spans }: { spans: CallSpans }) {
  return (
    <section className="otel-section" aria-labelledby="otel-title">
      <h2 id="otel-title" className="section-title">
        OpenTelemetry spans <span className="muted">({spans.spans.length})</span>
      </h2>
      <p className="small muted">
        What this call was read from (trace <span className="mono">{spans.traceId}</span>): every attribute, event,
        link, resource and scope field as received.
      </p>
      {spans.spans.map((span, index) => (
        <Span key={span.spanId} span={span} open={index === 0} />
      ))}
    </section>
  );
}
