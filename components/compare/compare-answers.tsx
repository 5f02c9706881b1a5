// The compare page's honest parts: the model's text answers diffed (a fork's changed final answer), what was left
// out at scale, and the "only differences" switch (a link: the choice is in the address, ?show=differences).
import Link from "next/link";
import type { ThreadComparison } from "@/lib/traces/compare-threads.ts";
import { UnifiedDiffView } from "./unified-diff-view.tsx";

export function CompareAnswers({ comparison }: { comparison: ThreadComparison }) {
  const { answers, a, b } = comparison;
  const counts = `A: ${a.answerCount.toLocaleString("en-US")} · B: ${b.answerCount.toLocaleString("en-US")}`;
  return (
    <section className="card compare-answers" aria-labelledby="compare-answers-title" data-testid="compare-answers">
      <h2 id="compare-answers-title">The model&apos;s text answers</h2>
      <p className="small muted">
        {counts} · each answer under a numbered marker, compared in order
        {answers.same ? (a.answerCount === 0 ? " · none on either side" : " · identical") : null}
        {!answers.same && answers.diff === null
          ? a.answerCount === 0
            ? " · only B has text answers"
            : b.answerCount === 0
              ? " · only A has text answers"
              : " · they differ in whitespace only"
          : null}
      </p>
      {answers.diff !== null ? (
        <UnifiedDiffView diff={answers.diff} label="Difference in the model's text answers" />
      ) : null}
    </section>
  );
}

/** What the comparison could not cover: said, not silently counted as "no difference". */
export function divergenceText(comparison: ThreadComparison, limit: number): string {
  if (comparison.firstDivergence !== null) return "";
  if (!comparison.truncated) return "The two runs never diverge.";
  const rest = (side: ThreadComparison["a"]) => (side.callCount - side.shownCalls).toLocaleString("en-US");
  return `No divergence in the first ${limit.toLocaleString("en-US")} calls of each side; the other ${rest(comparison.a)} calls of A and ${rest(comparison.b)} of B were not compared.`;
}

export function DifferencesToggle({
  a,
  b,
  only,
  differing,
}: {
  a: string;
  b: string;
  only: boolean;
  differing: number;
}) {
  const params = new URLSearchParams({ a, b });
  if (!only) params.set("show", "differences");
  return (
    <Link className="button" href={`/compare?${params}`} data-testid="compare-only-differences">
      {only ? "Show every row" : `Show only differences (${differing.toLocaleString("en-US")})`}
    </Link>
  );
}
