// /compare?a=<group>&b=<group> – two threads side by side: calls aligned step by step, argument and result diffs.
import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { ComparePicker } from "@/components/compare/compare-picker.tsx";
import { CompareAnswers, DifferencesToggle, divergenceText } from "@/components/compare/compare-answers.tsx";
import { CompareRows } from "@/components/compare/compare-rows.tsx";
import { SecretsPanel } from "@/components/secrets/secrets-panel.tsx";
import { replayHref } from "@/components/replay/trace-hrefs.ts";
import { threadHref } from "@/components/ui/hrefs.ts";
import { AppError } from "@/lib/http/app-error.ts";
import {
  compareThreads,
  listComparableThreads,
  MAX_COMPARED_CALLS,
  type CompareSide,
  type ThreadComparison,
} from "@/lib/traces/service.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Compare threads" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

function single(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value)?.trim() ?? "";
}

function SideSummary({ side, label }: { side: CompareSide; label: "A" | "B" }) {
  return (
    <div className="compare-side-summary">
      <span className="compare-side-tag">{label}</span>{" "}
      <Link className="mono" href={threadHref(side.groupId)}>
        {side.groupId}
      </Link>{" "}
      <span className="small muted">
        {side.vendor ? `${side.vendor} · ` : ""}
        {side.callCount.toLocaleString("en-US")} calls
        {side.shownCalls < side.callCount ? ` (first ${side.shownCalls.toLocaleString("en-US")} compared)` : ""}
      </span>{" "}
      <Link className="small" href={replayHref(side.groupId)}>
        replay
      </Link>
    </div>
  );
}

export default function ComparePage({ searchParams }: { searchParams: SearchParams }) {
  return (
    <>
      <div className="page-header">
        <div className="page-title">
          <h1>Compare threads</h1>
          <p className="page-description small muted">
            A run and its re-run: calls aligned step by step by tool name; arguments and first results diffed (JSON
            pretty-printed), and the model&apos;s text answers. Up to {MAX_COMPARED_CALLS.toLocaleString("en-US")} calls
            per thread — the page says when a thread has more.
          </p>
        </div>
      </div>
      <Suspense
        fallback={
          <div className="card page-skeleton" aria-busy="true" aria-label="Loading the comparison">
            <div className="skeleton-line" />
            <div className="skeleton-line" />
          </div>
        }
      >
        <CompareBody searchParams={searchParams} />
      </Suspense>
    </>
  );
}

async function CompareBody({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const a = single(query.a);
  const b = single(query.b);
  const onlyDifferences = single(query.show) === "differences";
  const threads = await listComparableThreads();
  let comparison: ThreadComparison | null = null;
  let problem: string | null = null;
  if (a !== "" && b !== "") {
    try {
      comparison = await compareThreads({ a, b });
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== "not_found") throw error;
      problem = error.message;
    }
  }
  return (
    <>
      <ComparePicker a={a} b={b} threads={threads} />
      {problem !== null ? (
        <p className="card import-error" role="alert" data-testid="compare-error">
          {problem}
        </p>
      ) : null}
      {comparison !== null ? (
        <section aria-label="Comparison" className="compare">
          <div className="card compare-summary" data-testid="compare-summary">
            <SideSummary side={comparison.a} label="A" />
            <SideSummary side={comparison.b} label="B" />
            <p className="small compare-counts">
              {comparison.truncated
                ? `Of the first ${MAX_COMPARED_CALLS.toLocaleString("en-US")} calls of each side: `
                : null}
              <strong>{comparison.summary.matched}</strong> aligned ·{" "}
              <strong>{comparison.summary.argumentsDiffer}</strong> with different arguments ·{" "}
              <strong>{comparison.summary.resultsDiffer}</strong> with different results ·{" "}
              <strong>{comparison.summary.onlyA}</strong> only in A · <strong>{comparison.summary.onlyB}</strong> only
              in B
            </p>
            <p className="small" data-testid="compare-divergence">
              {comparison.firstDivergence === null ? (
                divergenceText(comparison, MAX_COMPARED_CALLS)
              ) : (
                <>
                  First divergence: <a href="#first-divergence">call #{comparison.firstDivergence + 1}</a>
                </>
              )}
              {comparison.summary.edited > 0 ? ` · ${comparison.summary.edited} edited in the fork` : ""}
              {comparison.forkPoint !== null
                ? ` · ${comparison.forkPoint.side.toUpperCase()} is a fork of ${comparison.forkPoint.side === "a" ? "B" : "A"}${comparison.forkPoint.atStep !== null ? ` at step ${comparison.forkPoint.atStep}` : ""}`
                : ""}
            </p>
          </div>
          <CompareAnswers comparison={comparison} />
          <div className="toolbar compare-toolbar">
            <DifferencesToggle
              a={a}
              b={b}
              only={onlyDifferences}
              differing={comparison.rows.filter((row) => row.verdict !== "same").length}
            />
          </div>
          {comparison.rows.length === 0 ? (
            <p className="card muted">Neither thread has calls.</p>
          ) : onlyDifferences && comparison.rows.every((row) => row.verdict === "same") ? (
            <p className="card muted">No differences among the compared calls.</p>
          ) : (
            <CompareRows
              rows={onlyDifferences ? comparison.rows.filter((row) => row.verdict !== "same") : comparison.rows}
              firstDivergence={comparison.firstDivergence}
              forkPoint={comparison.forkPoint}
            />
          )}
          <SecretsPanel
            secrets={comparison.secrets}
            scopes={[
              { kind: "thread", id: comparison.a.groupId },
              { kind: "thread", id: comparison.b.groupId },
            ]}
          />
        </section>
      ) : null}
    </>
  );
}
