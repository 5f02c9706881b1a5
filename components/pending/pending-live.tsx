"use client";
// The live pending-calls page: calls awaiting a result (overdue ones highlighted) and, apart, the active
// subscriptions. Polls GET /api/pending every 2 s; new rows never move the list under a reader scrolled into
// it (see use-live-list.ts): they wait behind an "N new" button.
import Link from "next/link";
import type { PendingCall, PendingSnapshot } from "@/lib/pending/schemas.ts";
import type { SubscriptionSummary } from "@/lib/subscriptions/schemas.ts";
import { queryKeys } from "../providers/query-keys.ts";
import { Deadline, useIsOverdue } from "../ui/deadline.tsx";
import { EmptyState, FirstTraceHelp } from "../ui/empty-state.tsx";
import { CallLink, ThreadLink } from "../ui/entity-links.tsx";
import { formatCount, plural } from "../ui/format.ts";
import { pendingHref } from "../ui/hrefs.ts";
import { LiveIndicator } from "../ui/live-indicator.tsx";
import { NewItemsButton } from "../ui/new-items-button.tsx";
import { PageHeader } from "../ui/page-header.tsx";
import { StatusBadge } from "../ui/status-badge.tsx";
import { TimeAgo } from "../ui/time-ago.tsx";
import { useLiveList, type LiveRow } from "../ui/use-live-list.ts";
import { useLiveQuery } from "../ui/use-live-query.ts";
import { TimedOutTable } from "./timed-out-table.tsx";

const callKeyOf = (call: PendingCall) => String(call.callRowId);
const subscriptionKeyOf = (subscription: SubscriptionSummary) => String(subscription.callRowId);

function PendingCallRow({ row, serverNow }: { row: LiveRow<PendingCall>; serverNow: string }) {
  const call = row.item;
  const overdue = useIsOverdue(call.deadlineAt, serverNow);
  const classes = [
    row.gone ? "row-gone" : "",
    !row.gone && overdue ? "row-overdue" : "",
    row.arrived ? "row-arrived" : "",
  ]
    .filter(Boolean)
    .join(" ");
  return (
    <tr className={classes || undefined} data-testid="pending-row" data-call-key={call.callKey}>
      <td className="mono">{call.toolName}</td>
      <td className="cell-id">
        <ThreadLink groupId={call.groupId} />
      </td>
      <td className="cell-id">
        <CallLink callRowId={call.callRowId} callKey={call.callKey} />
        {call.callId ? (
          <div className="small muted mono truncate" title={`call_id ${call.callId}`}>
            {call.callId}
          </div>
        ) : null}
      </td>
      <td className="num">{call.step ?? <span className="muted">—</span>}</td>
      <td>
        {call.vendor ? <span className="badge badge-neutral">{call.vendor}</span> : <span className="muted">—</span>}
      </td>
      <td className="nowrap">
        <TimeAgo iso={call.requestedAt} suffix="" serverNow={serverNow} />
      </td>
      <td className="nowrap">
        <Deadline iso={call.deadlineAt} serverNow={serverNow} />
      </td>
      <td className="nowrap">
        {row.gone ? (
          <span
            className="badge badge-neutral"
            title="It got a result, timed out or was cancelled; it leaves the list when you return to the top."
          >
            no longer pending
          </span>
        ) : overdue ? (
          <span className="badge badge-bad">overdue</span>
        ) : (
          <StatusBadge status="pending" />
        )}
      </td>
    </tr>
  );
}

function SortControl({ sort }: { sort: PendingSnapshot["sort"] }) {
  return (
    <nav className="segmented" aria-label="Sort pending calls">
      <Link href={pendingHref({ sort: "oldest" })} aria-current={sort === "oldest" ? "page" : undefined} scroll={false}>
        Oldest first
      </Link>
      <Link href={pendingHref({ sort: "newest" })} aria-current={sort === "newest" ? "page" : undefined} scroll={false}>
        Newest first
      </Link>
    </nav>
  );
}

function SubscriptionsTable({ snapshot }: { snapshot: PendingSnapshot }) {
  // Destructured: the React compiler treats an object passed to `ref` as a ref, and its other fields with it.
  const { rows, held, showNew, setAnchor } = useLiveList(snapshot.subscriptions.items, { keyOf: subscriptionKeyOf });
  const { total, items } = snapshot.subscriptions;
  return (
    <section className="section" aria-labelledby="pending-subscriptions">
      <div className="section-header">
        <h2 id="pending-subscriptions" ref={setAnchor} tabIndex={-1} className="section-title live-anchor">
          Active subscriptions <span className="count-pill">{formatCount(total)}</span>
        </h2>
        <Link href="/subscriptions" className="small">
          All subscriptions <span aria-hidden="true">→</span>
        </Link>
      </div>
      <p className="muted small section-note">
        Subscriptions keep receiving results until the runtime cancels them, so they are not counted as pending.
      </p>
      <NewItemsButton count={held} noun={["subscription", "subscriptions"]} onShow={showNew} />
      {rows.length === 0 ? (
        <p className="muted card panel-empty">No active subscription.</p>
      ) : (
        <div className="card table-card table-wrap">
          <table className="table" data-testid="pending-subscriptions">
            <thead>
              <tr>
                <th scope="col">Tool</th>
                <th scope="col">Thread</th>
                <th scope="col">Call</th>
                <th scope="col" className="num">
                  Results
                </th>
                <th scope="col">Last result</th>
                <th scope="col">Subscribed</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ key, item, gone, arrived }) => (
                <tr
                  key={key}
                  className={
                    [gone ? "row-gone" : "", arrived ? "row-arrived" : ""].filter(Boolean).join(" ") || undefined
                  }
                >
                  <td className="mono">{item.toolName}</td>
                  <td className="cell-id">
                    <ThreadLink groupId={item.groupId} />
                  </td>
                  <td className="cell-id">
                    <CallLink callRowId={item.callRowId} callKey={item.callKey} />
                  </td>
                  <td className="num">{formatCount(item.resultCount)}</td>
                  <td className="nowrap">
                    {item.lastResultAt ? (
                      <TimeAgo iso={item.lastResultAt} serverNow={snapshot.generatedAt} />
                    ) : (
                      <span className="muted">none yet</span>
                    )}
                  </td>
                  <td className="nowrap">
                    <TimeAgo iso={item.requestedAt} serverNow={snapshot.generatedAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {total > items.length ? (
            <p className="small muted table-footnote">
              Showing {formatCount(items.length)} of {formatCount(total)}.
            </p>
          ) : null}
        </div>
      )}
    </section>
  );
}

export function PendingLive({ initial, origin }: { initial: PendingSnapshot; origin: string }) {
  const { data, updatedAt, failing } = useLiveQuery({
    queryKey: queryKeys.pending(initial.sort),
    path: pendingHref({ sort: initial.sort }).replace("/pending", "/api/pending"),
    initialData: initial,
  });
  const { rows, held, showNew, setAnchor, atTop } = useLiveList(data.pending.calls, { keyOf: callKeyOf });
  const { total } = data.pending;

  return (
    <>
      <PageHeader
        title="Pending calls"
        description={
          <span data-testid="pending-total">{plural(total, "call")} awaiting a result, across all threads</span>
        }
        actions={
          <>
            <SortControl sort={data.sort} />
            <LiveIndicator updatedAt={updatedAt} failing={failing} />
          </>
        }
      />
      <section aria-labelledby="pending-calls">
        <h2 id="pending-calls" ref={setAnchor} tabIndex={-1} className="section-title live-anchor">
          Awaiting a result <span className="count-pill">{formatCount(total)}</span>
        </h2>
        <NewItemsButton count={held} noun={["call", "calls"]} onShow={showNew} />
        {rows.length === 0 ? (
          <EmptyState title="No call is waiting for a result">
            <p>
              Calls show up here from the moment the runtime registers them until their result arrives (or their
              deadline passes).
            </p>
            <FirstTraceHelp origin={origin} />
          </EmptyState>
        ) : (
          <div className="card table-card table-wrap">
            <table className="table" data-testid="pending-calls" data-live-state={atTop ? "following" : "holding"}>
              <thead>
                <tr>
                  <th scope="col">Tool</th>
                  <th scope="col">Thread</th>
                  <th scope="col">Call</th>
                  <th scope="col" className="num">
                    Step
                  </th>
                  <th scope="col">Vendor</th>
                  <th scope="col">Waiting</th>
                  <th scope="col">Deadline</th>
                  <th scope="col">State</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <PendingCallRow key={row.key} row={row} serverNow={data.generatedAt} />
                ))}
              </tbody>
            </table>
            {total > data.pending.calls.length ? (
              <p className="small muted table-footnote">
                Showing the {data.sort} {formatCount(data.pending.calls.length)} of {formatCount(total)} pending calls.
              </p>
            ) : null}
          </div>
        )}
      </section>
      <TimedOutTable snapshot={data} />
      <SubscriptionsTable snapshot={data} />
    </>
  );
}
