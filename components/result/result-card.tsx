"use client";
// One result of a call: header facts, warnings (error, invisible characters, masked secrets — revealed one
// value at a time in the page's SecretsPanel), the display segment, the raw text one click away, envelope, MCP and schema panels.
import { useState } from "react";
import { TimeAgo } from "@/components/ui/time-ago.tsx";
import type { JsonPreview, ResultDetail } from "@/lib/calls/schemas.ts";
import { DisplaySection } from "./display-section.tsx";
import { EnvelopePanel } from "./envelope-panel.tsx";
import { formatBytes } from "@/components/ui/format.ts";
import { McpPanel } from "./mcp-panel.tsx";
import { RawTextPanel } from "./raw-text-panel.tsx";
import { SchemaPanel } from "./schema-panel.tsx";
import { VendorContent } from "./vendor-content.tsx";

const ERROR_SOURCE_NAMES: Record<string, string> = {
  mcp: "MCP isError",
  envelope: "the envelope",
  error_prefix: 'the "Error: " prefix',
  span_status: "the OpenTelemetry span's ERROR status",
  vendor_flag: "the vendor's error flag",
  error_key: 'an "error" key in the response',
};

export function ResultCard({ result, outputSchema }: { result: ResultDetail; outputSchema: JsonPreview | null }) {
  // Texts arrive masked from the server (lib/audit/mask); a value is revealed one at a time in the page's
  // "Masked values" panel, so the panels below always show the masked text.
  const revealSecrets = false;
  const [rawOpen, setRawOpen] = useState(false);
  const { flags } = result;
  const titleId = `result-${result.id}-title`;
  const rawId = `result-${result.id}-raw`;
  const showSchema = outputSchema !== null || (result.mcp?.structuredContent ?? null) !== null;
  return (
    <article
      className="card result-card"
      aria-labelledby={titleId}
      data-testid="result-card"
      data-result-id={result.id}
    >
      <header className="result-header">
        <h2 id={titleId} className="result-title">
          Result #{result.ordinal + 1}
        </h2>
        <span className="small muted" title="The result's ordinal as stored and as audit reasons name it">
          ordinal {result.ordinal}
        </span>
        <span className="small muted">
          received <TimeAgo iso={result.receivedAt} /> · {formatBytes(result.textBytes)}
        </span>
        {result.isError ? <span className="badge badge-bad">error</span> : <span className="badge badge-ok">ok</span>}
        {result.late ? (
          <span className="badge badge-warn" title="Arrived after the call's deadline">
            late
          </span>
        ) : null}
        <span className="result-actions">
          {flags.secretCount > 0 ? (
            <a className="button" href="#masked-values" data-testid="reveal-secrets">
              Reveal a value…
            </a>
          ) : null}
          {result.display.kind !== "raw" ? (
            <button
              type="button"
              className="button"
              aria-expanded={rawOpen}
              aria-controls={rawId}
              onClick={() => setRawOpen(!rawOpen)}
            >
              {rawOpen ? "Hide raw text" : "Raw text"}
            </button>
          ) : null}
        </span>
      </header>

      {result.isError ? (
        <p className="notice notice-bad" role="note">
          This result reports an error, signalled by{" "}
          {result.errorSources.map((source) => ERROR_SOURCE_NAMES[source] ?? source).join(", ")}.
        </p>
      ) : null}
      {flags.invisibleCount > 0 ? (
        <p className="notice notice-warn" role="note" data-testid="invisible-warning">
          <strong>Hidden characters:</strong> this text contains {flags.invisibleCount.toLocaleString("en-US")}{" "}
          invisible or bidirectional control {flags.invisibleCount === 1 ? "character" : "characters"} (
          {flags.invisibleCodePoints.join(", ")}). They are shown as ⟨U+…⟩ markers; what a model reads may differ from
          what a person sees. Copy and download keep them.
        </p>
      ) : null}
      {flags.secretCount > 0 ? (
        <p className="notice notice-warn" role="note" data-testid="secrets-warning">
          <strong>Credentials?</strong> {flags.secretCount.toLocaleString("en-US")} credential-looking{" "}
          {flags.secretCount === 1 ? "string is" : "strings are"} masked (
          {flags.secretKinds.join(", ").replaceAll("_", " ")}). They left the server masked; reveal one under “Masked
          values”.
        </p>
      ) : null}

      {rawOpen && result.display.kind !== "raw" ? (
        <section id={rawId} className="result-panel" aria-label="Raw text">
          <h3 className="result-panel-title">Raw text</h3>
          <RawTextPanel
            resultId={result.id}
            text={result.text}
            sha256={result.textSha256}
            bytes={result.textBytes}
            revealSecrets={revealSecrets}
          />
        </section>
      ) : null}

      <DisplaySection result={result} revealSecrets={revealSecrets} />
      {result.content ? (
        <VendorContent blocks={result.content.blocks} format={result.content.format} revealSecrets={revealSecrets} />
      ) : null}

      {result.envelope || result.mcp || showSchema ? (
        <div className="result-panels">
          {result.envelope ? <EnvelopePanel envelope={result.envelope} revealSecrets={revealSecrets} /> : null}
          {result.mcp ? <McpPanel mcp={result.mcp} revealSecrets={revealSecrets} /> : null}
          {showSchema ? (
            <SchemaPanel
              schema={result.schema}
              target={result.schemaTarget}
              structured={result.mcp?.structuredContent ?? null}
              outputSchema={outputSchema}
              revealSecrets={revealSecrets}
            />
          ) : null}
        </div>
      ) : null}
    </article>
  );
}
