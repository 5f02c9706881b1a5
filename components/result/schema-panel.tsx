// Structured output against the tool's declared outputSchema: the value as a tree (offending nodes
// marked) beside the schema, with the validation outcome and every error path.
import type { JsonPreview } from "@/lib/calls/schemas.ts";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import type { SchemaTarget } from "@/lib/results/analyze.ts";
import type { SchemaValidation } from "@/lib/results/output-schema.ts";
import { JsonView } from "./json-tree.tsx";

const TARGET_NAMES: Record<SchemaTarget, string> = {
  structuredContent: "MCP structuredContent",
  text_json: "the result text parsed as JSON",
  none: "nothing (no structured value)",
};

function Outcome({ schema }: { schema: SchemaValidation }) {
  switch (schema.status) {
    case "valid":
      return <span className="badge badge-ok">valid</span>;
    case "invalid":
      return <span className="badge badge-bad">invalid</span>;
    case "schema_error":
      return <span className="badge badge-warn">schema error</span>;
    default:
      return <span className="badge badge-neutral">skipped</span>;
  }
}

export function SchemaPanel(props: {
  schema: SchemaValidation;
  target: SchemaTarget;
  structured: JsonPreview | null;
  outputSchema: JsonPreview | null;
  revealSecrets: boolean;
}) {
  const { schema, target, structured, outputSchema, revealSecrets } = props;
  const errors = new Map(schema.status === "invalid" ? schema.errors.map((error) => [error.path, error.message]) : []);
  return (
    <section className="result-panel" aria-label="Output schema validation" data-testid="schema-panel">
      <h3 className="result-panel-title">
        Output schema <Outcome schema={schema} />
        <span className="small muted"> checked against {TARGET_NAMES[target]}</span>
      </h3>
      {schema.status === "skipped" ? <p className="small muted">Skipped: {schema.reason}.</p> : null}
      {schema.status === "schema_error" ? (
        <p className="notice notice-warn small" role="note">
          The declared schema could not be used: {presentUntrustedText(schema.message, { revealSecrets })}
        </p>
      ) : null}
      {schema.status === "invalid" ? (
        <ul className="problems notice notice-bad" data-testid="schema-errors">
          {schema.errors.map((error, index) => (
            <li key={index}>
              <code className="mono">
                {error.path === "" ? "(root)" : presentUntrustedText(error.path, { revealSecrets })}
              </code>{" "}
              {presentUntrustedText(error.message, { revealSecrets })}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="schema-grid">
        <div>
          <h4>{target === "structuredContent" ? "structuredContent" : "Structured value"}</h4>
          {structured ? (
            <JsonView preview={structured} label="Structured content" revealSecrets={revealSecrets} errors={errors} />
          ) : (
            <p className="muted small">None.</p>
          )}
        </div>
        <div>
          <h4>Declared outputSchema</h4>
          {outputSchema ? (
            <JsonView preview={outputSchema} label="Declared output schema" revealSecrets={revealSecrets} />
          ) : (
            <p className="muted small">The tool declared none.</p>
          )}
        </div>
      </div>
    </section>
  );
}
