// The call half of the detail page: where it belongs, what was asked (arguments, declaration), its
// status and timing, and its own timeline events (errors, timeout, cancellation).
import Link from "next/link";
import { threadHref } from "@/components/ui/hrefs.ts";
import { Latency } from "@/components/ui/latency.tsx";
import { StatusBadge } from "@/components/ui/status-badge.tsx";
import { TimeAgo } from "@/components/ui/time-ago.tsx";
import type { CallEventView, CallInfo } from "@/lib/calls/schemas.ts";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import { CopyButton } from "@/components/ui/copy-button.tsx";
import { ArgumentsView } from "./arguments-view.tsx";
import { JsonView } from "./json-tree.tsx";
import { ToolHints } from "./tool-hints.tsx";

function When({ iso }: { iso: string | null }) {
  if (!iso) return <span className="muted">—</span>;
  return (
    <>
      <span className="mono">{iso}</span>{" "}
      <span className="muted small">
        (<TimeAgo iso={iso} />)
      </span>
    </>
  );
}

// eslint-disable-next-line max-lines-per-function -- one definition list of the call's fields in page order; the verdict header rework (explorer) will split it
export function CallOverview({ call, events }: { call: CallInfo; events: CallEventView[] }) {
  const tool = presentUntrustedText(call.toolName);
  const duration = call.completedAt ? Date.parse(call.completedAt) - Date.parse(call.requestedAt) : null;
  return (
    <section className="card call-card" aria-labelledby="call-title">
      <div className="call-title-row">
        <h1 id="call-title" className="mono">
          {tool}
        </h1>
        <StatusBadge status={call.status} />
        {call.subscription ? (
          <span className={`chip ${call.subscription === "active" ? "chip-ok" : ""}`}>
            subscription {call.subscription}
          </span>
        ) : null}
      </div>
      <dl className="kv kv-wide">
        <dt>Thread</dt>
        <dd>
          <Link href={threadHref(call.groupId)} className="mono" data-testid="call-thread-link">
            {presentUntrustedText(call.groupId)}
          </Link>
        </dd>
        <dt>id</dt>
        <dd className="mono">
          {presentUntrustedText(call.callKey)} <CopyButton value={call.callKey} label="Copy id" />
        </dd>
        <dt>call_id</dt>
        <dd className="mono">
          {call.callId === null ? (
            <span className="muted">none</span>
          ) : (
            <>
              {presentUntrustedText(call.callId)} <CopyButton value={call.callId} label="Copy call_id" />
            </>
          )}
        </dd>
        {call.vendor ? (
          <>
            <dt>Vendor</dt>
            <dd>{call.vendor}</dd>
          </>
        ) : null}
        {call.step !== null ? (
          <>
            <dt>Step</dt>
            <dd>{call.step}</dd>
          </>
        ) : null}
        <dt>Requested</dt>
        <dd>
          <When iso={call.requestedAt} />
        </dd>
        <dt>Deadline</dt>
        <dd>
          <When iso={call.deadlineAt} />
          {call.status === "timed_out" ? <span className="badge badge-warn"> passed</span> : null}
        </dd>
        <dt>Completed</dt>
        <dd>
          <When iso={call.completedAt} />
          {call.completedAt !== null ? (
            <span className="small" data-testid="call-took">
              {" "}
              · took <Latency reportedMs={null} observedMs={duration !== null && duration > 0 ? duration : null} />
            </span>
          ) : null}
        </dd>
        {call.timedOutAt ? (
          <>
            <dt>Timed out</dt>
            <dd>
              <When iso={call.timedOutAt} />
            </dd>
          </>
        ) : null}
        <dt>Results</dt>
        <dd>
          {call.resultCount.toLocaleString("en-US")}
          {call.lastResultAt ? (
            <span className="small muted">
              {" "}
              · last <TimeAgo iso={call.lastResultAt} />
            </span>
          ) : null}
        </dd>
      </dl>

      {call.declaration ? (
        <ToolHints title={call.declaration.title} annotations={call.declaration.annotations} />
      ) : null}

      <h2 className="section-title">Arguments</h2>
      <ArgumentsView args={call.arguments} />

      {call.declaration ? (
        <details className="declaration">
          <summary>
            Tool declaration
            {call.declaration.description ? (
              <span className="muted"> — {presentUntrustedText(call.declaration.description).slice(0, 160)}</span>
            ) : null}
          </summary>
          <div className="schema-grid">
            <div>
              <h3>inputSchema</h3>
              {call.declaration.inputSchema ? (
                <JsonView preview={call.declaration.inputSchema} label="Input schema" />
              ) : (
                <p className="muted small">None.</p>
              )}
            </div>
            <div>
              <h3>outputSchema</h3>
              {call.outputSchema ? (
                <JsonView preview={call.outputSchema} label="Output schema" />
              ) : (
                <p className="muted small">None.</p>
              )}
            </div>
          </div>
          <h3>Whole declaration</h3>
          <JsonView preview={call.declaration.value} label="Tool declaration" />
        </details>
      ) : null}

      {events.length > 0 ? (
        <>
          <h2 className="section-title">Events</h2>
          <ul className="call-events">
            {events.map((event) => (
              <li key={event.id}>
                <span
                  className={`chip ${event.kind === "error" ? "chip-bad" : event.kind === "timeout" ? "chip-warn" : ""}`}
                >
                  {event.kind.replaceAll("_", " ")}
                </span>
                {event.layer ? <span className="chip">{event.layer}</span> : null}{" "}
                <span className="mono small">{event.occurredAt}</span>
                {event.text ? <span> {presentUntrustedText(event.text)}</span> : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
