"use client";
// The live subscriptions page: active subscriptions and cancelled ones, with results received and the last
// result time. Polls GET /api/subscriptions every 2 s; rows never move under a reader scrolled into a table.
import type { SubscriptionList, SubscriptionsSnapshot, SubscriptionSummary } from "@/lib/subscriptions/schemas.ts";
import { queryKeys } from "../providers/query-keys.ts";
import { EmptyState, FirstTraceHelp } from "../ui/empty-state.tsx";
import { CallLink, ThreadLink } from "../ui/entity-links.tsx";
import { formatCount } from "../ui/format.ts";
import { LiveIndicator } from "../ui/live-indicator.tsx";
import { NewItemsButton } from "../ui/new-items-button.tsx";
import { PageHeader } from "../ui/page-header.tsx";
import { StatusBadge } from "../ui/status-badge.tsx";
import { TimeAgo } from "../ui/time-ago.tsx";
import { useLiveList } from "../ui/use-live-list.ts";
import { useLiveQuery } from "../ui/use-live-query.ts";

const keyOf = (subscription: SubscriptionSummary) => String(subscription.callRowId);

function SubscriptionTable({
  id,
  title,
  list,
  cancelled,
  emptyText,
  serverNow,
}: {
  id: string;
  title: string;
  list: SubscriptionList;
  cancelled: boolean;
  emptyText: string;
  serverNow: string;
}) {
  const { rows, held, showNew, setAnchor, atTop } = useLiveList(list.items, { keyOf });
  return (
    <section className="section" aria-labelledby={id}>
      <h2 id={id} ref={setAnchor} tabIndex={-1} className="section-title live-anchor">
        {title} <span className="count-pill">{formatCount(list.total)}</span>
      </h2>
      <NewItemsButton count={held} noun={["subscription", "subscriptions"]} onShow={showNew} />
      {rows.length === 0 ? (
        <p className="muted card panel-empty">{emptyText}</p>
      ) : (
        <div className="card table-card table-wrap">
          <table className="table" data-testid={`${id}-table`} data-live-state={atTop ? "following" : "holding"}>
            <thead>
              <tr>
                <th scope="col">Tool</th>
                <th scope="col">Thread</th>
                <th scope="col">Call</th>
                <th scope="col">Call status</th>
                <th scope="col" className="num">
                  Results
                </th>
                <th scope="col">Last result</th>
                <th scope="col">Subscribed</th>
                {cancelled ? <th scope="col">Cancelled</th> : null}
              </tr>
            </thead>
            <tbody>
              {rows.map(({ key, item, gone, arrived }) => (
                <tr
                  key={key}
                  data-testid="subscription-row"
                  data-call-key={item.callKey}
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
                  <td>
                    {gone ? (
                      <span className="badge badge-neutral">{cancelled ? "moved" : "no longer active"}</span>
                    ) : (
                      <StatusBadge status={item.status} />
                    )}
                  </td>
                  <td className="num" data-testid="subscription-results">
                    {formatCount(item.resultCount)}
                  </td>
                  <td className="nowrap">
                    {item.lastResultAt ? (
                      <TimeAgo iso={item.lastResultAt} serverNow={serverNow} />
                    ) : (
                      <span className="muted">none yet</span>
                    )}
                  </td>
                  <td className="nowrap">
                    <TimeAgo iso={item.requestedAt} serverNow={serverNow} />
                  </td>
                  {cancelled ? (
                    <td>
                      {item.cancelledAt ? (
                        <TimeAgo iso={item.cancelledAt} serverNow={serverNow} />
                      ) : (
                        <span className="muted">—</span>
                      )}
                      {item.cancelReason ? (
                        <div className="small muted clamp-2" title={item.cancelReason}>
                          {item.cancelReason}
                        </div>
                      ) : null}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
          {list.total > list.items.length ? (
            <p className="small muted table-footnote">
              Showing the newest {formatCount(list.items.length)} of {formatCount(list.total)}.
            </p>
          ) : null}
        </div>
      )}
    </section>
  );
}

export function SubscriptionsLive({ initial, origin }: { initial: SubscriptionsSnapshot; origin: string }) {
  const { data, updatedAt, failing } = useLiveQuery({
    queryKey: queryKeys.subscriptions(),
    path: "/api/subscriptions",
    initialData: initial,
  });
  const none = data.active.total === 0 && data.cancelled.total === 0;
  return (
    <>
      <PageHeader
        title="Subscriptions"
        description="Calls that started a subscription: their results append until the runtime cancels them."
        actions={<LiveIndicator updatedAt={updatedAt} failing={failing} />}
      />
      {none ? (
        <EmptyState title="No subscription yet">
          <p>
            A call becomes a subscription when it is registered with <code>&quot;subscription&quot;: true</code> or when
            a result arrives with <code>&quot;subscription&quot;: true</code>; a <code>subscription_cancel</code> event
            ends it.
          </p>
          <FirstTraceHelp origin={origin} />
        </EmptyState>
      ) : (
        <>
          <SubscriptionTable
            id="subscriptions-active"
            title="Active"
            list={data.active}
            cancelled={false}
            emptyText="No active subscription."
            serverNow={data.generatedAt}
          />
          <SubscriptionTable
            id="subscriptions-cancelled"
            title="Cancelled"
            list={data.cancelled}
            cancelled
            emptyText="No cancelled subscription."
            serverNow={data.generatedAt}
          />
        </>
      )}
    </>
  );
}
