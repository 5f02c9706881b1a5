"use client";
// The Approvals page: runtimes asking before they run a tool, live. Approve (optionally with edited arguments) or
// deny with a reason; tools approved at once by a rule; the last decisions with who made them.
import { useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { ApprovalsPage, ApprovalView } from "@/lib/relay/schemas.ts";
import { queryKeys } from "../providers/query-keys.ts";
import { EmptyState } from "../ui/empty-state.tsx";
import { CallLink, ThreadLink } from "../ui/entity-links.tsx";
import { LiveIndicator } from "../ui/live-indicator.tsx";
import { PageHeader } from "../ui/page-header.tsx";
import { TimeAgo } from "../ui/time-ago.tsx";
import { useLiveQuery } from "../ui/use-live-query.ts";
import { sendJson } from "@/components/ui/fetch-json.ts";

export function ApprovalCard({ approval, onDone }: { approval: ApprovalView; onDone: () => void }) {
  const [args, setArgs] = useState(approval.argumentsText);
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const decide = async (decision: "approve" | "deny") => {
    setProblem(null);
    try {
      await sendJson("POST", `/api/approvals/${approval.id}/decision`, {
        decision,
        ...(decision === "approve" && args !== approval.argumentsText ? { arguments: args } : {}),
        ...(decision === "deny" && reason ? { reason } : {}),
      });
      onDone();
    } catch (failure) {
      setProblem(failure instanceof Error ? failure.message : "Could not decide");
    }
  };
  return (
    <article className="card panel" data-testid="approval-request" aria-labelledby={`approval-${approval.id}`}>
      <div className="panel-header">
        <h3 id={`approval-${approval.id}`} className="mono">
          {approval.toolName}
        </h3>
        <span className="badge badge-pending">waiting</span>
      </div>
      <p className="small muted">
        Thread <ThreadLink groupId={approval.groupId} /> · call{" "}
        {approval.callRowId ? <CallLink callRowId={approval.callRowId} callKey={approval.callKey} /> : approval.callKey}{" "}
        · asked by {approval.requestedBy} <TimeAgo iso={approval.requestedAt} /> · expires{" "}
        {new Date(approval.timeoutAt).toLocaleTimeString()}
      </p>
      <label className="field">
        <span>Arguments (edit to run the tool with others)</span>
        <textarea className="input mono" rows={3} value={args} onChange={(event) => setArgs(event.target.value)} />
      </label>
      <label className="field">
        <span>Reason (for a denial)</span>
        <input className="input" value={reason} onChange={(event) => setReason(event.target.value)} />
      </label>
      {problem ? (
        <p className="notice notice-bad" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="field-actions">
        <button className="button button-primary" type="button" onClick={() => void decide("approve")}>
          {args !== approval.argumentsText ? "Approve with these arguments" : "Approve"}
        </button>
        <button className="button" type="button" onClick={() => void decide("deny")}>
          Deny
        </button>
      </div>
    </article>
  );
}

function RulesForm({ onDone }: { onDone: () => void }) {
  const [problem, setProblem] = useState<string | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    try {
      await sendJson("POST", "/api/approval-rules", { name: String(data.get("name")), tool: String(data.get("tool")) });
      form.reset();
      onDone();
    } catch (failure) {
      setProblem(failure instanceof Error ? failure.message : "Could not add the rule");
    }
  };
  return (
    <form className="key-form" onSubmit={(event) => void submit(event)} aria-label="Approve a tool at once">
      <label className="field field-grow">
        <span>Rule name</span>
        <input className="input" name="name" required maxLength={200} />
      </label>
      <label className="field field-grow">
        <span>Tool (exact, or with *)</span>
        <input className="input" name="tool" required maxLength={256} placeholder="read_*" />
      </label>
      <button className="button" type="submit">
        Add auto-approve rule
      </button>
      {problem ? (
        <p className="notice notice-bad" role="alert">
          {problem}
        </p>
      ) : null}
    </form>
  );
}

export function ApprovalsLive({ initial }: { initial: ApprovalsPage }) {
  const { data, updatedAt, failing } = useLiveQuery({
    queryKey: queryKeys.approvals(),
    path: "/api/approvals",
    initialData: initial,
  });
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: queryKeys.approvals() });
  return (
    <>
      <PageHeader
        title="Approvals"
        description="Runtimes ask here before they run a tool (POST /api/approvals); they wait for your decision."
        actions={<LiveIndicator updatedAt={updatedAt} failing={failing} />}
      />
      <section aria-labelledby="approvals-pending">
        <h2 id="approvals-pending" className="section-title">
          Waiting <span className="count-pill">{data.pending.length}</span>
        </h2>
        {data.pending.length === 0 ? (
          <EmptyState title="No request is waiting">
            <p>A runtime asks with POST /api/approvals, or the typed client&apos;s requestApproval().</p>
          </EmptyState>
        ) : (
          <div className="stack">
            {data.pending.map((approval) => (
              <ApprovalCard key={approval.id} approval={approval} onDone={refresh} />
            ))}
          </div>
        )}
      </section>
      <section aria-labelledby="approvals-decided" className="section">
        <h2 id="approvals-decided" className="section-title">
          Decided
        </h2>
        {data.decided.length === 0 ? (
          <p className="muted card panel-empty">Nothing decided yet.</p>
        ) : (
          <div className="card table-card table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Tool</th>
                  <th scope="col">Call</th>
                  <th scope="col">Decision</th>
                  <th scope="col">By</th>
                  <th scope="col">Reason / arguments</th>
                </tr>
              </thead>
              <tbody>
                {data.decided.map((row) => (
                  <tr key={row.id} data-testid="approval-decided">
                    <td className="mono">{row.toolName}</td>
                    <td className="cell-id">
                      {row.callRowId ? <CallLink callRowId={row.callRowId} callKey={row.callKey} /> : row.callKey}
                    </td>
                    <td>
                      <span className={`badge ${row.status === "approved" ? "badge-ok" : "badge-bad"}`}>
                        {row.status}
                      </span>
                    </td>
                    <td>
                      {row.decidedBy} {row.decidedAt ? <TimeAgo iso={row.decidedAt} /> : null}
                    </td>
                    <td className="small mono">
                      {row.reason ?? (row.editedArguments ? `edited: ${row.editedArguments}` : "")}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section aria-labelledby="approval-rules" className="section card panel">
        <h2 id="approval-rules" className="section-title">
          Approved at once
        </h2>
        <ul className="small">
          {data.rules.map((rule) => (
            <li key={rule.id}>
              <strong>{rule.name}</strong>: <span className="mono">{rule.toolName}</span>{" "}
              <span className="muted">
                (by {rule.createdBy}
                {rule.enabled ? "" : ", off"})
              </span>{" "}
              <button
                className="button button-small"
                type="button"
                onClick={() => void sendJson("DELETE", `/api/approval-rules/${rule.id}`).then(refresh)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
        <RulesForm onDone={refresh} />
      </section>
    </>
  );
}
