"use client";
// A call's arguments: formatted JSON when they parsed, the raw text the model produced one click away.
import { useState } from "react";
import type { ArgumentsView as Arguments } from "@/lib/calls/schemas.ts";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";

export function ArgumentsView({
  args,
  revealSecrets = false,
  label = "Arguments",
}: {
  args: Arguments;
  revealSecrets?: boolean;
  label?: string;
}) {
  const [mode, setMode] = useState<"formatted" | "raw">(args.formatted ? "formatted" : "raw");
  const formatted =
    args.formatted === null
      ? null
      : args.formatted.kind === "value"
        ? JSON.stringify(args.formatted.value, null, 2)
        : `${args.formatted.text}${args.formatted.truncated ? "\n… (cut for display)" : ""}`;
  if (args.raw === null && formatted === null) return <p className="muted small">No arguments.</p>;
  return (
    <div className="arguments-view">
      <div className="segmented" role="group" aria-label={`${label} view`}>
        <button
          type="button"
          className="segment"
          aria-pressed={mode === "formatted"}
          disabled={formatted === null}
          onClick={() => setMode("formatted")}
        >
          Formatted JSON
        </button>
        <button
          type="button"
          className="segment"
          aria-pressed={mode === "raw"}
          disabled={args.raw === null}
          onClick={() => setMode("raw")}
        >
          Raw arguments
        </button>
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
    </div>
  );
}
