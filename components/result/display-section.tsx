"use client";
// The seed's display rule for one result: the first supported display segment (diff or text) is drawn,
// unsupported ones are listed as skipped with the reason, and the raw text is shown when none is usable.
import { DiffViewer } from "@/components/diff/diff-viewer.tsx";
import type { ResultDetail } from "@/lib/calls/schemas.ts";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import { LargeText } from "./large-text.tsx";
import { RawTextPanel } from "./raw-text-panel.tsx";

export function DisplaySection({ result, revealSecrets }: { result: ResultDetail; revealSecrets: boolean }) {
  const { display } = result;
  const choice =
    display.kind === "diff"
      ? `diff segment #${display.index + 1}`
      : display.kind === "text"
        ? `text segment #${display.index + 1}`
        : `raw text — ${display.reason}`;
  return (
    <section
      className="result-panel display-section"
      aria-label="Display"
      data-testid="display-section"
      data-display-kind={display.kind}
    >
      <h3 className="result-panel-title">
        Display <span className="small muted">{choice}</span>
      </h3>
      {display.skipped.length > 0 ? (
        <details className="skipped">
          <summary className="small">
            {display.skipped.length} display {display.skipped.length === 1 ? "segment" : "segments"} skipped
          </summary>
          <ul className="small" data-testid="skipped-segments">
            {display.skipped.map((segment) => (
              <li key={segment.index}>
                #{segment.index + 1}{" "}
                <code className="mono">{presentUntrustedText(segment.type, { revealSecrets })}</code>:{" "}
                {presentUntrustedText(segment.reason, { revealSecrets })}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {display.kind === "diff" ? (
        <DiffViewer path={display.path} patch={display.patch} revealSecrets={revealSecrets} />
      ) : null}
      {display.kind === "text" ? (
        <LargeText text={display.content} revealSecrets={revealSecrets} label="Text segment" className="display-text" />
      ) : null}
      {display.kind === "raw" ? (
        <RawTextPanel
          resultId={result.id}
          text={result.text}
          sha256={result.textSha256}
          bytes={result.textBytes}
          revealSecrets={revealSecrets}
        />
      ) : null}
    </section>
  );
}
