// The replay's message history at the shown step: pending calls, events left out of the encoding, what was
// adjusted, renamed ids, the end of the request JSON (cut and masked on the server), and event N as recorded.
import { useLayoutEffect, useRef } from "react";
import type { PartialTurn } from "@/lib/replay/render-window.ts";
import { REPLAY_VENDOR_LABELS, type ReplayStepView } from "@/lib/traces/schemas.ts";
import { ReplayAdjustments } from "./replay-adjustments.tsx";

const HISTORY_ARRAY = {
  anthropic: "messages",
  "openai-chat": "messages",
  "openai-responses": "input",
  gemini: "contents",
} as const;

function shownItems(history: NonNullable<ReplayStepView["history"]>, items: string): string {
  const shown = (history.totalItems - history.hiddenItems).toLocaleString("en-US");
  // A long history is rendered from a window at its end (lib/replay/render-window): the whole count is not known here.
  if (history.renderedFrom !== null)
    return `Showing the last ${shown} ${items} (rendered from event ${(history.renderedFrom + 1).toLocaleString("en-US")} on; lists of adjustments and left-out parts cover those events)`;
  return `Showing the last ${shown} of ${history.totalItems.toLocaleString("en-US")} ${items}`;
}

const count = (n: number, what: string) => `${n.toLocaleString("en-US")} ${what}${n === 1 ? "" : "s"}`;

// A huge turn rendered in part (lib/replay/render-window): said in words, with the counts, where the JSON is.
function partialTurnText(turn: PartialTurn, from: number | null): string {
  const others =
    turn.omittedOther > 0 ? ` (nor ${count(turn.omittedOther, "other item")} of it: reasoning, assistant text)` : "";
  const kept =
    from === null
      ? "those its results answer"
      : `those its results answer and those from event ${(from + 1).toLocaleString("en-US")} on`;
  return (
    `The turn from event ${(turn.first + 1).toLocaleString("en-US")} asked for ${count(turn.calls, "tool call")}: ${count(turn.omittedCalls, "tool call")} of that turn are not shown${others}. ` +
    `The request holds the other ${turn.shownCalls.toLocaleString("en-US")}: ${kept}. Copy and Download give the whole request.`
  );
}

type History = NonNullable<ReplayStepView["history"]>;

// The shown end of the request JSON, with what it leaves out said first.
function RequestJson({
  history,
  encoding,
  step,
  stale,
}: {
  history: History;
  encoding: ReplayStepView["encoding"];
  step: number;
  stale: boolean;
}) {
  const label = REPLAY_VENDOR_LABELS[encoding];
  const json = useRef<HTMLPreElement>(null);
  // Step N is the end of the history: open the box at its last lines, so stepping shows the event just added
  // (a long history would otherwise open at the top of its shown part, the same lines step after step).
  useLayoutEffect(() => {
    const element = json.current;
    if (element !== null) element.scrollTop = element.scrollHeight;
  }, [history.json, encoding, step]);
  return (
    <>
      <p className="small muted">
        Shown with secret-looking strings masked and invisible characters marked; Copy and Download give the exact JSON.
      </p>
      {history.partialTurn !== null ? (
        <p className="small replay-truncated" data-testid="replay-partial-turn">
          {partialTurnText(history.partialTurn, history.renderedFrom)}
        </p>
      ) : null}
      {history.hiddenItems > 0 || history.hiddenChars !== 0 ? (
        <p className="small replay-truncated">
          {history.hiddenItems > 0 ? shownItems(history, HISTORY_ARRAY[encoding]) : "Showing the end of the history"}
          {history.hiddenChars === null
            ? ", its last lines"
            : history.hiddenChars > 0
              ? `, from character ${history.hiddenChars.toLocaleString("en-US")} on`
              : ""}
          : where this step is. Copy and Download give all of it.
        </p>
      ) : null}
      <pre
        ref={json}
        className={`raw replay-json${stale ? " is-stale" : ""}`}
        tabIndex={0}
        aria-label={`${label} request JSON at step ${step}`}
        data-testid="replay-json"
      >
        {history.hiddenChars !== 0 ? "…\n" : ""}
        {history.json}
      </pre>
    </>
  );
}

export function ReplayHistoryPanel({ view, stale }: { view: ReplayStepView; stale: boolean }) {
  const { history, encoding } = view;
  const label = REPLAY_VENDOR_LABELS[encoding];
  return (
    <section className="card replay-history" aria-label="Message history">
      <div className="panel-header">
        <h2>
          History at step {view.step} · {label}
        </h2>
        {stale ? <span className="small muted">updating…</span> : null}
      </div>
      {history !== null && history.pending.length > 0 ? (
        <div className="replay-pending" data-testid="replay-pending">
          <strong>Pending at this step:</strong>{" "}
          {history.pending.map((call) => (
            <span key={call.callId} className="badge badge-pending mono">
              {call.name} {call.callId}
            </span>
          ))}
          {history.pendingTotal > history.pending.length ? (
            <span className="small muted">
              {" "}
              … and {(history.pendingTotal - history.pending.length).toLocaleString("en-US")} more
            </span>
          ) : null}
          <p className="small muted">
            The model asked for these; the request is sendable once a result for each is appended.
          </p>
        </div>
      ) : null}
      {history !== null && history.skippedTotal > 0 ? (
        <details className="replay-skipped">
          <summary>
            {history.skippedTotal.toLocaleString("en-US")} event{history.skippedTotal === 1 ? "" : "s"} left out of this
            encoding
          </summary>
          <ul className="small">
            {history.skipped.map((skipped) => (
              <li key={`${skipped.index}:${skipped.part ?? ""}`}>
                Event {skipped.index + 1}: {skipped.reason}
              </li>
            ))}
            {history.skippedTotal > history.skipped.length ? (
              <li>… and {(history.skippedTotal - history.skipped.length).toLocaleString("en-US")} more</li>
            ) : null}
          </ul>
        </details>
      ) : null}
      {history !== null ? <ReplayAdjustments adjustments={history.adjustments} /> : null}
      {history !== null && history.adjustmentsTotal > history.adjustments.length ? (
        <p className="small muted">
          … and {(history.adjustmentsTotal - history.adjustments.length).toLocaleString("en-US")} more adjustments (Copy
          and Download include them all).
        </p>
      ) : null}
      {history !== null && history.renamed.length > 0 ? (
        <p className="small muted">
          Ids renamed to the vendor&apos;s pattern: {history.renamed.map(([from, to]) => `${from} → ${to}`).join(", ")}
          {history.renamedTotal > history.renamed.length
            ? ` … and ${(history.renamedTotal - history.renamed.length).toLocaleString("en-US")} more`
            : ""}
        </p>
      ) : null}
      {history === null ? (
        <p role="alert" className="replay-notice replay-notice-bad">
          This step cannot be rendered as {label}: {view.error}
        </p>
      ) : (
        <RequestJson history={history} encoding={encoding} step={view.step} stale={stale} />
      )}
      {view.current !== null ? (
        <details className="replay-current">
          <summary>
            Event {view.step} as recorded ({view.current.path})
            {view.current.origin === "toolscope" ? " — no vendor payload: Toolscope's record of it" : ""}
          </summary>
          <pre className="raw">{view.current.raw}</pre>
        </details>
      ) : null}
    </section>
  );
}
