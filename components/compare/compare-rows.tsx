// The aligned calls of two threads, one card per step: what each side called, and how arguments and results differ.
import { StatusBadge } from "@/components/ui/status-badge.tsx";
import type { ComparedCall, CompareRow, RowVerdict, TextDiff, ThreadComparison } from "@/lib/traces/compare-threads.ts";
import { findSecrets, maskSecrets, revealInvisible } from "@/lib/results/flags.ts";
import { UnifiedDiffView } from "./unified-diff-view.tsx";
import "./compare-divergence.css";

// One-sided texts are shown up to here; the thread page has the rest.
const SIDE_TEXT_LIMIT = 4000;

function present(text: string): string {
  const cut =
    text.length > SIDE_TEXT_LIMIT
      ? `${text.slice(0, SIDE_TEXT_LIMIT)}\n… (${(text.length - SIDE_TEXT_LIMIT).toLocaleString("en-US")} more characters)`
      : text;
  return revealInvisible(maskSecrets(cut, findSecrets(cut)));
}

function CallLabel({ call, side }: { call: ComparedCall | null; side: "A" | "B" }) {
  if (call === null) return <span className="compare-call compare-call-missing">{side}: —</span>;
  return (
    <span className="compare-call">
      <span className="compare-side-tag">{side}</span> <strong>{present(call.toolName)}</strong>{" "}
      <span className="mono small muted">{present(call.callKey)}</span> <StatusBadge status={call.status} />
      {call.step !== null ? <span className="small muted"> step {call.step}</span> : null}
      {call.resultCount > 1 ? <span className="small muted"> {call.resultCount} results (first compared)</span> : null}
    </span>
  );
}

const VERDICTS: Record<RowVerdict, { label: string; className: string }> = {
  same: { label: "same", className: "badge-ok" },
  differs: { label: "differs", className: "badge-bad" },
  only_a: { label: "only in A", className: "badge-warn" },
  only_b: { label: "only in B", className: "badge-warn" },
  edited: { label: "edited in the fork", className: "badge-pending" },
};

function DiffSection({
  title,
  diff,
  a,
  b,
}: {
  title: "Arguments" | "Result";
  diff: TextDiff;
  a: string | null;
  b: string | null;
}) {
  const name = title.toLowerCase();
  if (diff.same) {
    return (
      <div className="compare-section">
        <h3>{title}</h3> <span className="small muted">{a === null ? "none on either side" : "identical"}</span>
      </div>
    );
  }
  return (
    <div className="compare-section">
      <h3>{title}</h3>{" "}
      {diff.diff !== null ? (
        <>
          <span className="small">
            <span className="compare-added">+{diff.added}</span>{" "}
            <span className="compare-removed">−{diff.removed}</span>
            {diff.prettyJson ? <span className="muted"> · JSON compared pretty-printed</span> : null}
          </span>
          <UnifiedDiffView diff={diff.diff} label={`${title} diff`} />
        </>
      ) : a !== null && b !== null ? (
        <span className="small muted">differ in whitespace only (the JSON values are equal)</span>
      ) : (
        <>
          <span className="small muted">
            {a === null && b === null
              ? "none"
              : `only ${a === null ? "B" : "A"} has ${name === "result" ? "a result" : "arguments"}`}
          </span>
          {(a ?? b) ? <pre className="raw compare-side-text">{present(a ?? b ?? "")}</pre> : null}
        </>
      )}
    </div>
  );
}

type Props = {
  rows: CompareRow[];
  firstDivergence?: ThreadComparison["firstDivergence"];
  forkPoint?: ThreadComparison["forkPoint"];
};

function ForkPoint({ forkPoint }: { forkPoint: NonNullable<ThreadComparison["forkPoint"]> }) {
  const fork = forkPoint.side.toUpperCase();
  const original = forkPoint.side === "a" ? "B" : "A";
  return (
    <div className="compare-fork-point" data-testid="compare-fork-point">
      <span>
        Fork point{forkPoint.atStep !== null ? ` (step ${forkPoint.atStep})` : ""}: above, {fork} is {original}&apos;s
        history copied with its edits; below, {fork}&apos;s own model
      </span>
    </div>
  );
}

export function CompareRows({ rows, firstDivergence = null, forkPoint = null }: Props) {
  return (
    <ol className="compare-rows">
      {forkPoint !== null && forkPoint.lastHistoryRow === -1 ? (
        <li className="compare-row-item">
          <ForkPoint forkPoint={forkPoint} />
        </li>
      ) : null}
      {rows.map((row) => {
        const verdict = VERDICTS[row.verdict];
        const first = row.index === firstDivergence;
        return (
          <li key={row.index} className="compare-row-item">
            <article
              className={`card compare-row compare-row-${verdict.label.replace(/\s/g, "-")}${first ? " is-first-divergence" : ""}`}
              data-testid="compare-row"
              id={first ? "first-divergence" : undefined}
              aria-label={`Step-aligned call ${row.index + 1}${first ? ", the first divergence" : ""}`}
            >
              <div className="compare-row-head">
                {/* Each row's heading: its Arguments / Result headings (h3) sit under it, not straight under the page's h1. */}
                <h2 className="compare-row-index mono">
                  <span className="sr-only">Call </span>#{row.index + 1}
                </h2>
                <CallLabel call={row.a} side="A" />
                <CallLabel call={row.b} side="B" />
                <span className="compare-badges">
                  {first ? <span className="badge badge-bad compare-first-badge">first divergence</span> : null}
                  <span className={`badge ${verdict.className}`}>{verdict.label}</span>
                </span>
              </div>
              {row.verdict === "same" ? null : (
                <>
                  <DiffSection
                    title="Arguments"
                    diff={row.arguments}
                    a={row.a?.argumentsText ?? null}
                    b={row.b?.argumentsText ?? null}
                  />
                  <DiffSection
                    title="Result"
                    diff={row.result}
                    a={row.a?.resultText ?? null}
                    b={row.b?.resultText ?? null}
                  />
                </>
              )}
            </article>
            {forkPoint !== null && forkPoint.lastHistoryRow === row.index ? <ForkPoint forkPoint={forkPoint} /> : null}
          </li>
        );
      })}
    </ol>
  );
}
