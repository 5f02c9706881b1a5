"use client";
// The outbox: every outgoing delivery (relayed results, answers, approval decisions) with its state, attempts and
// faults, live; a dead letter is retried from here.
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { Fragment, useState } from "react";
import { OUTBOX_STATUSES, type OutboxAttemptView, type OutboxPage } from "@/lib/outbox/schemas.ts";
import { queryKeys } from "../providers/query-keys.ts";
import { EmptyState } from "../ui/empty-state.tsx";
import { CallLink, ThreadLink } from "../ui/entity-links.tsx";
import { LiveIndicator } from "../ui/live-indicator.tsx";
import { PageHeader } from "../ui/page-header.tsx";
import { TimeAgo } from "../ui/time-ago.tsx";
import { useLiveQuery } from "../ui/use-live-query.ts";
import { AttemptsTable, OutboxStatusBadge } from "./outbox-parts.tsx";
import { sendJson } from "@/components/ui/fetch-json.ts";

// eslint-disable-next-line max-lines-per-function -- the outbox table and its per-row attempts; mostly markup
export function OutboxLive({ initial, status }: { initial: OutboxPage; status: string | undefined }) {
  const path = `/api/outbox${status ? `?status=${status}` : ""}`;
  const { data, updatedAt, failing } = useLiveQuery({
    queryKey: queryKeys.outbox({ status }),
    path,
    initialData: initial,
  });
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const retry = async (id: number) => {
    setProblem(null);
    try {
      await sendJson("POST", `/api/outbox/${id}/retry`);
      void queryClient.invalidateQueries({ queryKey: ["outbox"] });
    } catch (failure) {
      setProblem(failure instanceof Error ? failure.message : "Could not retry");
    }
  };
  return (
    <>
      <PageHeader
        title="Outbox"
        description={
          <>
            Deliveries Toolscope sends to runtimes: relayed results, answers, approval decisions. At least once, the
            same webhook-id on every attempt. <Link href="/deliveries">Incoming deliveries</Link>
          </>
        }
        actions={<LiveIndicator updatedAt={updatedAt} failing={failing} />}
      />
      <nav className="segmented" aria-label="Filter by state">
        <Link href="/deliveries/outbox" aria-current={status === undefined ? "page" : undefined}>
          All
        </Link>
        {OUTBOX_STATUSES.map((value) => (
          <Link
            key={value}
            href={`/deliveries/outbox?status=${value}`}
            aria-current={status === value ? "page" : undefined}
          >
            {value} {data.counts[value] ? `(${data.counts[value]})` : ""}
          </Link>
        ))}
      </nav>
      {problem ? (
        <p className="notice notice-bad" role="alert">
          {problem}
        </p>
      ) : null}
      {data.items.length === 0 ? (
        <EmptyState title="Nothing here">
          <p>Results posted to a relay route (POST /api/relay/&lt;target&gt;) go out through the outbox.</p>
        </EmptyState>
      ) : (
        <div className="card table-card table-wrap">
          <table className="table" data-testid="outbox-table">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">State</th>
                <th scope="col">To</th>
                <th scope="col">Call</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last answer</th>
                <th scope="col">Created</th>
                <th scope="col" />
              </tr>
            </thead>
            <tbody>
              {data.items.map((message) => (
                <Fragment key={message.id}>
                  <tr data-testid="outbox-row" data-status={message.status}>
                    <td className="num">{message.id}</td>
                    <td>
                      <OutboxStatusBadge message={message} />
                    </td>
                    <td className="mono small">
                      {message.destination} <span className="muted">({message.kind})</span>
                    </td>
                    <td className="cell-id">
                      {message.toolCallId && message.callKey ? (
                        <CallLink callRowId={message.toolCallId} callKey={message.callKey} />
                      ) : message.groupId ? (
                        <ThreadLink groupId={message.groupId} />
                      ) : (
                        "—"
                      )}
                    </td>
                    <td className="num">{message.attempts}</td>
                    <td className="small">
                      {message.lastStatus ?? ""} {message.deadReason ?? message.lastError ?? ""}
                    </td>
                    <td className="nowrap">
                      <TimeAgo iso={message.createdAt} />
                    </td>
                    <td className="nowrap">
                      <button
                        className="button button-small"
                        type="button"
                        aria-expanded={open === message.id}
                        onClick={() => setOpen(open === message.id ? null : message.id)}
                      >
                        Attempts
                      </button>{" "}
                      {message.status === "dead" ? (
                        <button className="button button-small" type="button" onClick={() => void retry(message.id)}>
                          Retry
                        </button>
                      ) : null}
                    </td>
                  </tr>
                  {open === message.id ? (
                    <tr>
                      <td colSpan={8}>
                        <AttemptsForMessage id={message.id} />
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

function AttemptsForMessage({ id }: { id: number }) {
  const { data } = useLiveQuery({
    queryKey: ["outbox-message", id],
    path: `/api/outbox/${id}`,
    initialData: null as null | {
      attemptList: OutboxAttemptView[];
      webhookId: string;
    },
  });
  if (!data) return <p className="small muted">Loading…</p>;
  return (
    <>
      <p className="small muted mono">webhook-id {data.webhookId}</p>
      <AttemptsTable attempts={data.attemptList} />
    </>
  );
}
