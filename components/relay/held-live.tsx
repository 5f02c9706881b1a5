"use client";
// The Held page: results stopped at a breakpoint before they reach the runtime, live. Each can be released as
// is, edited (text, envelope, display segments), replaced with an error, or dropped; decided ones show who did
// what and, when the delivered text differs, a diff against what the tool sent.
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { HeldPage, HeldResultView } from "@/lib/relay/schemas.ts";
import { queryKeys } from "../providers/query-keys.ts";
import { EmptyState } from "../ui/empty-state.tsx";
import { CallLink, ThreadLink } from "../ui/entity-links.tsx";
import { LiveIndicator } from "../ui/live-indicator.tsx";
import { PageHeader } from "../ui/page-header.tsx";
import { TimeAgo } from "../ui/time-ago.tsx";
import { useLiveQuery } from "../ui/use-live-query.ts";
import { sendJson } from "@/components/ui/fetch-json.ts";
import { TextDiff } from "./text-diff.tsx";

function HeldCard({ hold, onDone }: { hold: HeldResultView; onDone: () => void }) {
  const [mode, setMode] = useState<"view" | "edit" | "error">("view");
  const [text, setText] = useState(hold.originalText);
  const [error, setError] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const decide = async (body: Record<string, unknown>) => {
    setBusy(true);
    setProblem(null);
    try {
      await sendJson("POST", `/api/held/${hold.id}/decision`, body);
      onDone();
    } catch (failure) {
      setProblem(failure instanceof Error ? failure.message : "Could not decide");
    } finally {
      setBusy(false);
    }
  };
  return (
    <article className="card panel" data-testid="held-result" aria-labelledby={`held-${hold.id}`}>
      <div className="panel-header">
        <h3 id={`held-${hold.id}`} className="mono">
          {hold.toolName ?? "unregistered call"} · {hold.callKey}
        </h3>
        <span className="badge badge-warn">held by “{hold.ruleName}”</span>
      </div>
      <p className="small muted">
        Thread <ThreadLink groupId={hold.groupId} />
        {hold.toolCallId ? (
          <>
            {" "}
            · call <CallLink callRowId={hold.toolCallId} callKey={hold.callKey} />
          </>
        ) : null}{" "}
        · relay {hold.relay} · held <TimeAgo iso={hold.heldAt} /> · on timeout (
        {new Date(hold.timeoutAt).toLocaleTimeString()}):{" "}
        {hold.onTimeout === "error" ? "an error is delivered" : "released as received"}
      </p>
      {mode === "edit" ? (
        <label className="field">
          <span>Result text delivered to the runtime</span>
          <textarea className="input mono" rows={6} value={text} onChange={(event) => setText(event.target.value)} />
        </label>
      ) : (
        <pre className="mono small held-text">{hold.originalText}</pre>
      )}
      {mode === "error" ? (
        <label className="field">
          <span>Error message (delivered as “Error: …”)</span>
          <input className="input" value={error} onChange={(event) => setError(event.target.value)} />
        </label>
      ) : null}
      {problem ? (
        <p className="notice notice-bad" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="field-actions">
        {mode === "view" ? (
          <>
            <button
              className="button button-primary"
              type="button"
              disabled={busy}
              onClick={() => void decide({ action: "release" })}
            >
              Release
            </button>
            <button className="button" type="button" onClick={() => setMode("edit")}>
              Edit…
            </button>
            <button className="button" type="button" onClick={() => setMode("error")}>
              Replace with an error…
            </button>
            <button className="button" type="button" disabled={busy} onClick={() => void decide({ action: "drop" })}>
              Drop
            </button>
          </>
        ) : (
          <>
            <button
              className="button button-primary"
              type="button"
              disabled={busy}
              onClick={() =>
                void decide(mode === "edit" ? { action: "edit", text } : { action: "error", error: error || undefined })
              }
            >
              {mode === "edit" ? "Deliver the edited result" : "Deliver the error"}
            </button>
            <button className="button" type="button" onClick={() => setMode("view")}>
              Cancel
            </button>
          </>
        )}
      </div>
    </article>
  );
}

export function DecidedHolds({ decided }: { decided: HeldResultView[] }) {
  if (decided.length === 0) return <p className="muted card panel-empty">Nothing decided yet.</p>;
  return (
    <div className="stack">
      {decided.map((hold) => (
        <article key={hold.id} className="card panel" data-testid="decided-hold">
          <p className="small">
            <span className="badge badge-neutral">{hold.status.replaceAll("_", " ")}</span>{" "}
            <span className="mono">{hold.toolName ?? "?"}</span> ·{" "}
            {hold.toolCallId ? <CallLink callRowId={hold.toolCallId} callKey={hold.callKey} /> : hold.callKey} · by{" "}
            <strong>{hold.decidedBy}</strong> {hold.decidedAt ? <TimeAgo iso={hold.decidedAt} /> : null} · rule “
            {hold.ruleName}”
          </p>
          {hold.deliveredText !== null && hold.deliveredText !== hold.originalText ? (
            <TextDiff
              before={hold.originalText}
              after={hold.deliveredText}
              label="What the tool sent and what was delivered"
            />
          ) : hold.status === "dropped" ? (
            <p className="small muted">Not delivered: dropped. The tool&apos;s original text is kept.</p>
          ) : (
            <p className="small muted">Delivered as the tool sent it.</p>
          )}
        </article>
      ))}
    </div>
  );
}

export function HeldLive({ initial }: { initial: HeldPage }) {
  const {
    data: page,
    updatedAt,
    failing,
  } = useLiveQuery({
    queryKey: queryKeys.held(),
    path: "/api/held",
    initialData: initial,
  });
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: queryKeys.held() });
  return (
    <>
      <PageHeader
        title="Held results"
        description={
          <>
            Results stopped at a breakpoint before they reach the runtime. Rules:{" "}
            <Link href="/breakpoints">Breakpoints</Link> · <Link href="/faults">Faults</Link> ·{" "}
            <Link href="/approvals">Approvals</Link>
          </>
        }
        actions={<LiveIndicator updatedAt={updatedAt} failing={failing} />}
      />
      <section aria-labelledby="held-now">
        <h2 id="held-now" className="section-title">
          Held now{" "}
          <span className="count-pill" data-testid="held-count">
            {page.heldCount}
          </span>
        </h2>
        {page.held.length === 0 ? (
          <EmptyState title="Nothing is held">
            <p>
              Results relayed to a runtime (<code>POST /api/relay/&lt;target&gt;</code>) that match a breakpoint wait
              here for you.
            </p>
          </EmptyState>
        ) : (
          <div className="stack">
            {page.held.map((hold) => (
              <HeldCard key={hold.id} hold={hold} onDone={refresh} />
            ))}
          </div>
        )}
      </section>
      <section aria-labelledby="held-decided" className="section">
        <h2 id="held-decided" className="section-title">
          Decided
        </h2>
        <DecidedHolds decided={page.decided} />
      </section>
    </>
  );
}
