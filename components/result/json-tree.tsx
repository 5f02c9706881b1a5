"use client";
// A JSON value as a collapsible tree (structuredContent, schemas, envelope data). Keys and strings are
// untrusted: shown as text with secrets masked and invisible characters revealed. Nodes named by a
// validation error (JSON Pointer) are marked with the message.
import { useState } from "react";
import type { JsonPreview } from "@/lib/calls/schemas.ts";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";

type TreeOptions = { revealSecrets: boolean; errors: ReadonlyMap<string, string> };

const PAGE = 100;

function escapePointer(segment: string): string {
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}

function entriesOf(value: object): [string, unknown][] {
  return Array.isArray(value)
    ? value.map((item, index): [string, unknown] => [String(index), item])
    : Object.entries(value);
}

function Primitive({ value, options }: { value: unknown; options: TreeOptions }) {
  if (typeof value === "string")
    return <span className="json-string">&quot;{presentUntrustedText(value, options)}&quot;</span>;
  if (typeof value === "number") return <span className="json-number">{String(value)}</span>;
  if (typeof value === "boolean" || value === null) return <span className="json-literal">{String(value)}</span>;
  return <span className="json-literal">{typeof value}</span>;
}

function JsonNode({
  name,
  value,
  path,
  depth,
  options,
}: {
  name: string | null;
  value: unknown;
  path: string;
  depth: number;
  options: TreeOptions;
}) {
  const container = typeof value === "object" && value !== null;
  const entries = container ? entriesOf(value) : [];
  const [open, setOpen] = useState(depth < 2 && entries.length <= 50);
  const [limit, setLimit] = useState(PAGE);
  const error = options.errors.get(path);
  const label = name === null ? null : <span className="json-key">{presentUntrustedText(name, options)}</span>;
  return (
    <li className={`json-node${error ? " json-invalid" : ""}`} data-json-path={path}>
      {container ? (
        <button type="button" className="json-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
          <span aria-hidden="true">{open ? "▾" : "▸"}</span>
          {label}
          {label ? ": " : null}
          <span className="json-summary">{Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`}</span>
        </button>
      ) : (
        <span className="json-leaf">
          {label}
          {label ? ": " : null}
          <Primitive value={value} options={options} />
        </span>
      )}
      {error ? (
        <span className="json-error" role="note">
          {error}
        </span>
      ) : null}
      {container && open ? (
        <ul className="json-children">
          {entries.slice(0, limit).map(([key, child]) => (
            <JsonNode
              key={key}
              name={key}
              value={child}
              path={`${path}/${escapePointer(key)}`}
              depth={depth + 1}
              options={options}
            />
          ))}
          {entries.length > limit ? (
            <li>
              <button type="button" className="link-button small" onClick={() => setLimit(limit + PAGE)}>
                Show {Math.min(PAGE, entries.length - limit)} more of {(entries.length - limit).toLocaleString("en-US")}
              </button>
            </li>
          ) : null}
        </ul>
      ) : null}
    </li>
  );
}

const NO_ERRORS: ReadonlyMap<string, string> = new Map();

export function JsonTree({
  value,
  label,
  revealSecrets = false,
  errors = NO_ERRORS,
}: {
  value: unknown;
  label: string;
  revealSecrets?: boolean;
  errors?: ReadonlyMap<string, string>;
}) {
  return (
    <ul className="json-tree mono" aria-label={label}>
      <JsonNode name={null} value={value} path="" depth={0} options={{ revealSecrets, errors }} />
    </ul>
  );
}

/** A JsonPreview from the server: a tree when the value was small enough, else its cut pretty text. */
export function JsonView({
  preview,
  label,
  revealSecrets = false,
  errors,
}: {
  preview: JsonPreview;
  label: string;
  revealSecrets?: boolean;
  errors?: ReadonlyMap<string, string>;
}) {
  if (preview.kind === "value")
    return <JsonTree value={preview.value} label={label} revealSecrets={revealSecrets} errors={errors} />;
  return (
    <>
      <pre className="raw code-block" tabIndex={0} aria-label={label}>
        {presentUntrustedText(preview.text, { revealSecrets })}
      </pre>
      {preview.truncated ? (
        <p className="small muted">Too large for a tree: the start of the pretty-printed JSON is shown.</p>
      ) : null}
    </>
  );
}
