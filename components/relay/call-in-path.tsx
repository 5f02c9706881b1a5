"use client";
// The call page's "In the path" panel, live: answer the call as the tool (by hand, from a recording, with an
// error), what was delivered to the runtime with every attempt, holds and their diffs, approvals asked for it, and
// the audit log of changes — faults loudly.
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { CallInPath, RecordedAnswer } from "@/lib/relay/schemas.ts";
import { queryKeys } from "../providers/query-keys.ts";
import { fetchJson } from "../ui/fetch-json.ts";
import { TimeAgo } from "../ui/time-ago.tsx";
import { useLiveQuery } from "../ui/use-live-query.ts";
import { ApprovalCard } from "./approvals-live.tsx";
import { DecidedHolds } from "./held-live.tsx";
import { AttemptsTable, OutboxStatusBadge } from "./outbox-parts.tsx";
import { sendJson } from "@/components/ui/fetch-json.ts";

// eslint-disable-next-line max-lines-per-function -- one form with three ways to answer; mostly markup
function AnswerForm({ callRowId, data, onDone }: { callRowId: number; data: CallInPath; onDone: () => void }) {
  const [from, setFrom] = useState<"hand" | "recording" | "error">("hand");
  const [text, setText] = useState("");
  const [relay, setRelay] = useState(data.threadRelay ?? data.relays[0] ?? "");
  const [recordings, setRecordings] = useState<RecordedAnswer[] | null>(null);
  const [recording, setRecording] = useState<number | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const choose = async (next: typeof from) => {
    setFrom(next);
    if (next === "recording" && recordings === null) {
      const found = await fetchJson<{ items: RecordedAnswer[] }>(`/api/calls/${callRowId}/recordings`);
      setRecordings(found.items);
      setRecording(found.items[0]?.resultId ?? null);
    }
  };
  const submit = async () => {
    setProblem(null);
    try {
      const reply = await sendJson<{ not_delivered: string | null; relay: { target: string } | null }>(
        "POST",
        `/api/calls/${callRowId}/answer`,
        {
          from,
          ...(from === "hand"
            ? { text }
            : from === "error"
              ? { error: text || undefined }
              : { recording: recording ?? undefined }),
          ...(relay ? { relay } : {}),
        },
      );
      setStatus(
        reply.relay ? `Answered; delivering to relay “${reply.relay.target}”.` : (reply.not_delivered ?? "Answered."),
      );
      onDone();
    } catch (failure) {
      setProblem(failure instanceof Error ? failure.message : "Could not answer");
    }
  };
  return (
    <form
      className="card panel"
      aria-label="Answer as the tool"
      onSubmit={(event) => (event.preventDefault(), void submit())}
    >
      <h3 className="section-title">Answer as the tool</h3>
      <p className="small muted">
        Delivered to the runtime exactly as the tool&apos;s result would be, and marked “answered by” you.
      </p>
      <fieldset className="segmented" aria-label="Answer with">
        {(["hand", "recording", "error"] as const).map((value) => (
          <label key={value} className="segment">
            <input
              type="radio"
              name="from"
              value={value}
              checked={from === value}
              onChange={() => void choose(value)}
            />{" "}
            {value === "hand" ? "By hand" : value === "recording" ? "From a recording" : "An error"}
          </label>
        ))}
      </fieldset>
      {from === "recording" ? (
        recordings === null ? (
          <p className="small muted">Looking for recorded results…</p>
        ) : recordings.length === 0 ? (
          <p className="small muted">No recorded result of this tool with the same arguments.</p>
        ) : (
          <label className="field">
            <span>Recorded result</span>
            <select
              className="input"
              value={recording ?? ""}
              onChange={(event) => setRecording(Number(event.target.value))}
            >
              {recordings.map((r) => (
                <option key={r.resultId} value={r.resultId}>
                  {r.groupId} / {r.callKey}: {r.textHead.slice(0, 80)}
                </option>
              ))}
            </select>
          </label>
        )
      ) : (
        <label className="field">
          <span>{from === "hand" ? "Result text" : "Error message"}</span>
          <textarea
            className="input mono"
            rows={from === "hand" ? 4 : 2}
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
        </label>
      )}
      <label className="field">
        <span>Relay target</span>
        <select className="input" value={relay} onChange={(event) => setRelay(event.target.value)}>
          <option value="">none (record only)</option>
          {data.relays.map((name) => (
            <option key={name} value={name}>
              {name}
              {name === data.threadRelay ? " (the thread's)" : ""}
            </option>
          ))}
        </select>
      </label>
      {problem ? (
        <p className="notice notice-bad" role="alert">
          {problem}
        </p>
      ) : null}
      {status ? (
        <p role="status" className="small">
          {status}
        </p>
      ) : null}
      <div className="field-actions">
        <button className="button button-primary" type="submit">
          Send the answer
        </button>
      </div>
    </form>
  );
}

export function CallInPathPanel({ callRowId, initial }: { callRowId: number; initial: CallInPath }) {
  const { data } = useLiveQuery({
    queryKey: queryKeys.callInPath(callRowId),
    path: `/api/calls/${callRowId}/in-path`,
    initialData: initial,
  });
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: queryKeys.callInPath(callRowId) });
  const faults = data.interventions.filter((row) => row.action.startsWith("fault_"));
  const pendingApprovals = data.approvals.filter((approval) => approval.status === "pending");
  const empty = data.outbox.length === 0 && data.held.length === 0 && data.approvals.length === 0 && !data.answerable;
  if (empty) return null;
  return (
    <section className="in-path-section" aria-labelledby="in-path-title" data-testid="in-path">
      <h2 id="in-path-title" className="section-title">
        In the path
      </h2>
      {faults.length > 0 ? (
        <p className="notice notice-bad" role="note" data-testid="fault-notice">
          Faults were injected on purpose into this call&apos;s delivery:{" "}
          {faults.map((row) => `${row.action.replace("fault_", "")} (${row.actor})`).join(", ")}.
        </p>
      ) : null}
      {pendingApprovals.map((approval) => (
        <ApprovalCard key={approval.id} approval={approval} onDone={refresh} />
      ))}
      {data.answerable ? <AnswerForm callRowId={callRowId} data={data} onDone={refresh} /> : null}
      {data.held.length > 0 ? <DecidedHolds decided={data.held.filter((hold) => hold.status !== "held")} /> : null}
      {data.held.some((hold) => hold.status === "held") ? (
        <p className="notice notice-warn" role="status">
          A result of this call is held at a breakpoint: <a href="/held">decide on the Held page</a>.
        </p>
      ) : null}
      {data.outbox.map(({ message, attempts }) => (
        <article key={message.id} className="card panel" data-testid="call-outbox-message">
          <p className="small">
            <OutboxStatusBadge message={message} /> to <span className="mono">{message.destination}</span> (
            {message.kind}) · webhook-id <span className="mono">{message.webhookId}</span> ·{" "}
            <TimeAgo iso={message.createdAt} />
            {message.deadReason ? <> · {message.deadReason}</> : null}
          </p>
          <AttemptsTable attempts={attempts} />
        </article>
      ))}
      {data.interventions.length > 0 ? (
        <details className="card panel">
          <summary>Changes in the path ({data.interventions.length})</summary>
          <ul className="small" data-testid="interventions">
            {data.interventions.map((row) => (
              <li key={row.id}>
                <strong>{row.action.replaceAll("_", " ")}</strong> by {row.actor} <TimeAgo iso={row.at} />
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}
