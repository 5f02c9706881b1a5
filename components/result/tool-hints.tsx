// An MCP tool's title and annotations (readOnlyHint, destructiveHint, idempotentHint, openWorldHint, …) as its
// server declared them. The MCP spec: clients MUST treat annotations as untrusted unless they come from trusted
// servers — so they are shown as claims, never as facts, and never change how anything else is shown.
import { Fragment } from "react";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";

const HINTS: Record<string, [string, string]> = {
  readOnlyHint: ["read-only", "changes nothing"],
  destructiveHint: ["destructive", "may destroy or overwrite"],
  idempotentHint: ["idempotent", "repeating it has no further effect"],
  openWorldHint: ["open world", "reaches outside systems"],
};

function hintText(key: string, value: unknown): string {
  const known = HINTS[key];
  if (known !== undefined && typeof value === "boolean") return value ? `${known[0]} — ${known[1]}` : `not ${known[0]}`;
  return typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
}

export function ToolHints({
  title,
  annotations,
}: {
  title: string | null;
  annotations: Record<string, unknown> | null;
}) {
  if (title === null && (annotations === null || Object.keys(annotations).length === 0)) return null;
  return (
    <section className="tool-hints" aria-label="Tool hints declared by its server" data-testid="tool-hints">
      <p className="small muted">
        <span className="badge badge-warn">untrusted</span> What the tool&apos;s server says about it — hints, not
        verified.
      </p>
      <dl className="kv">
        {title !== null ? (
          <>
            <dt>Title</dt>
            <dd>{presentUntrustedText(title)}</dd>
          </>
        ) : null}
        {annotations !== null
          ? Object.entries(annotations).map(([key, value]) => (
              <Fragment key={key}>
                <dt className="mono">{presentUntrustedText(key)}</dt>
                <dd>{presentUntrustedText(hintText(key, value))}</dd>
              </Fragment>
            ))
          : null}
      </dl>
    </section>
  );
}
