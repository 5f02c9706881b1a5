"use client";
// A call's arguments: formatted JSON when they parsed (or the same value as a collapsible tree), the raw text the
// model produced one click away, a copy button, and every multi-line string inside them (a patch, a file's
// content) shown as text — a unified diff also as a diff — instead of one escaped JSON string.
import { useState } from "react";
import { DiffViewer } from "@/components/diff/diff-viewer.tsx";
import { CopyButton } from "@/components/ui/copy-button.tsx";
import { argumentTexts, type ArgumentText } from "@/lib/calls/argument-texts.ts";
import type { ArgumentsView as Arguments } from "@/lib/calls/schemas.ts";
import { copyableUntrustedText, presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import "./arguments-view.css";
import { JsonTree } from "./json-tree.tsx";

type Mode = "formatted" | "tree" | "raw";

function ArgumentTextBlock({
  entry,
  label,
  revealSecrets,
}: {
  entry: ArgumentText;
  label: string;
  revealSecrets: boolean;
}) {
  const [asDiff, setAsDiff] = useState(false);
  const name = entry.pointer === "" ? "text" : entry.pointer.slice(1);
  const title = `${label}: ${name}`;
  return (
    <section className="argument-text" aria-label={title} data-testid="argument-text">
      <div className="argument-text-head">
        <span className="mono small">{presentUntrustedText(name)}</span>
        <span className="muted small">{entry.text.split("\n").length.toLocaleString("en-US")} lines</span>
        {entry.patch ? (
          <button
            type="button"
            className="button button-small"
            aria-pressed={asDiff}
            onClick={() => setAsDiff(!asDiff)}
          >
            View as diff
          </button>
        ) : null}
        <CopyButton value={copyableUntrustedText(entry.text, { revealSecrets })} label={`Copy ${name}`} />
      </div>
      {asDiff ? (
        <DiffViewer path={name} patch={entry.text} revealSecrets={revealSecrets} />
      ) : (
        <pre className="raw code-block argument-text-body" tabIndex={0} aria-label={`${title} (text)`}>
          {presentUntrustedText(entry.text, { revealSecrets })}
        </pre>
      )}
    </section>
  );
}

export function ArgumentsView({
  args,
  revealSecrets = false,
  label = "Arguments",
}: {
  args: Arguments;
  revealSecrets?: boolean;
  label?: string;
}) {
  const [mode, setMode] = useState<Mode>(args.formatted ? "formatted" : "raw");
  const value = args.formatted?.kind === "value" ? args.formatted.value : undefined;
  const formatted =
    args.formatted === null
      ? null
      : args.formatted.kind === "value"
        ? JSON.stringify(args.formatted.value, null, 2)
        : `${args.formatted.text}${args.formatted.truncated ? "\n… (cut for display)" : ""}`;
  if (args.raw === null && formatted === null) return <p className="muted small">No arguments.</p>;
  const texts = value === undefined ? [] : argumentTexts(value);
  // What "Copy" takes: the model's own text when it is here whole, else the formatted JSON.
  const copyText = args.raw?.complete ? args.raw.head : (formatted ?? args.raw?.head ?? "");
  const segment = (which: Mode, text: string, disabled: boolean) => (
    <button
      type="button"
      className="segment"
      aria-pressed={mode === which}
      disabled={disabled}
      onClick={() => setMode(which)}
    >
      {text}
    </button>
  );
  return (
    <div className="arguments-view">
      <div className="arguments-toolbar">
        <div className="segmented" role="group" aria-label={`${label} view`}>
          {segment("formatted", "Formatted JSON", formatted === null)}
          {segment("tree", "Tree", value === undefined || value === null || typeof value !== "object")}
          {segment("raw", "Raw arguments", args.raw === null)}
        </div>
        <CopyButton value={copyableUntrustedText(copyText, { revealSecrets })} label={`Copy ${label.toLowerCase()}`} />
      </div>
      {args.parseError ? (
        <p className="notice notice-warn small" role="note">
          The arguments are not valid JSON: {args.parseError}
        </p>
      ) : null}
      {mode === "formatted" && formatted !== null ? (
        <pre className="raw code-block" tabIndex={0} aria-label={`${label} (formatted JSON)`}>
          {presentUntrustedText(formatted, { revealSecrets })}
        </pre>
      ) : null}
      {mode === "tree" && value !== undefined ? (
        <JsonTree value={value} label={`${label} (tree)`} revealSecrets={revealSecrets} />
      ) : null}
      {mode === "raw" && args.raw !== null ? (
        <>
          <pre className="raw code-block" tabIndex={0} aria-label={`${label} (raw text)`}>
            {presentUntrustedText(args.raw.head, { revealSecrets })}
          </pre>
          {args.raw.complete ? null : (
            <p className="muted small">
              Showing the first {args.raw.head.length.toLocaleString("en-US")} of{" "}
              {args.raw.length.toLocaleString("en-US")} characters.
            </p>
          )}
        </>
      ) : null}
      {texts.map((entry) => (
        <ArgumentTextBlock key={entry.pointer} entry={entry} label={label} revealSecrets={revealSecrets} />
      ))}
    </div>
  );
}
