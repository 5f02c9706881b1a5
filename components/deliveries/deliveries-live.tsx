"use client";
// The audit log table. On the first page it is live (polls the newest page every 2 s and adds new
// deliveries on top, or behind an "N new" button when the reader is scrolled into the list); older pages,
// reached by cursor, are a fixed snapshot. Each row opens its raw body on demand.
import Link from "next/link";
import { Fragment, useState } from "react";
import { encodeDeliveryCursor, type DeliveryPage, type DeliveryRow } from "@/lib/deliveries/schemas.ts";
import { queryKeys } from "../providers/query-keys.ts";
import { EmptyState, FirstTraceHelp } from "../ui/empty-state.tsx";
import { CallLink, ThreadLink } from "../ui/entity-links.tsx";
import { formatBytes, shortHash } from "../ui/format.ts";
import { deliveriesHref } from "../ui/hrefs.ts";
import { LiveIndicator } from "../ui/live-indicator.tsx";
import { NewItemsButton } from "../ui/new-items-button.tsx";
import { TimeAgo } from "../ui/time-ago.tsx";
import { useLiveList } from "../ui/use-live-list.ts";
import { useLiveQuery } from "../ui/use-live-query.ts";
import { DeliveryBodyView } from "./delivery-body-view.tsx";
import { HttpStatus, OutcomeBadge } from "./outcome-badge.tsx";

const keyOf = (row: DeliveryRow) => String(row.id);
const COLUMNS = 8;

function ThreadCell({ row }: { row: DeliveryRow }) {
  if (row.groupId === null) return <span className="muted">—</span>;
  return (
    <>
      {row.threadExists ? (
        <ThreadLink groupId={row.groupId} />
      ) : (
        <span className="mono truncate" title={`${row.groupId} (no such thread)`}>
          {row.groupId}
        </span>
      )}
      <div className="small cell-sub">
        {row.toolCallId !== null && row.callKey !== null ? (
          <CallLink callRowId={row.toolCallId} callKey={row.callKey} />
        ) : row.callKey !== null ? (
          <span className="mono muted truncate" title={`${row.callKey} (no such call)`}>
            {row.callKey}
          </span>
        ) : null}
      </div>
    </>
  );
}

/** An imported row's provenance: who imported it and when, then what the file claimed, labelled as such. */
function ImportedLine({ imported }: { imported: NonNullable<DeliveryRow["imported"]> }) {
  const { reported } = imported;
  return (
    <span data-testid="imported-provenance">
      imported <span className="mono">{imported.at}</span> by <span className="mono">{imported.by}</span> · reported by
      the import (not observed): received <span className="mono">{reported.receivedAt}</span>
      {reported.remoteAddress ? (
        <>
          {" "}
          from <span className="mono">{reported.remoteAddress}</span>
        </>
      ) : null}
      {reported.webhookId ? (
        <>
          {" "}
          · webhook-id <span className="mono">{reported.webhookId}</span>
        </>
      ) : null}
    </span>
  );
}

// eslint-disable-next-line max-lines-per-function -- grew past the cap when Prettier wrapped it at 120 columns; split along its seams when next changed
function DeliveryRowView({
  row,
  expanded,
  onToggle,
  gone,
  arrived,
  serverNow,
}: {
  row: DeliveryRow;
  expanded: boolean;
  onToggle: () => void;
  gone: boolean;
  arrived: boolean;
  serverNow: string;
}) {
  const detailId = `delivery-${row.id}-body`;
  return (
    <Fragment>
      <tr
        data-testid="delivery-row"
        data-outcome={row.outcome}
        className={
          [arrived ? "row-arrived" : "", gone ? "row-gone" : "", expanded ? "row-open" : ""]
            .filter(Boolean)
            .join(" ") || undefined
        }
      >
        <td className="nowrap">
          <TimeAgo iso={row.loggedAt} serverNow={serverNow} />
          {row.imported ? (
            <div>
              <span
                className="badge badge-warn"
                title={`Written by an import (${row.imported.by}); the time is what the file reported`}
                data-testid="imported-badge"
              >
                imported
              </span>
            </div>
          ) : null}
        </td>
        <td>
          <HttpStatus status={row.httpStatus} />
        </td>
        <td>
          <OutcomeBadge outcome={row.outcome} />
        </td>
        <td className="cell-reason">
          {row.reason ? (
            <span className="clamp-2" title={row.reason}>
              {row.reason}
            </span>
          ) : (
            <span className="muted">—</span>
          )}
        </td>
        <td className="cell-id">
          <ThreadCell row={row} />
        </td>
        <td className="num nowrap">
          {formatBytes(row.bodyBytes)}
          {row.rawBodyTruncated ? (
            <div>
              <span className="badge badge-warn">truncated</span>
            </div>
          ) : null}
        </td>
        <td className="mono small">
          {row.bodySha256 ? (
            <span title={row.bodySha256}>{shortHash(row.bodySha256)}</span>
          ) : (
            <span className="muted">—</span>
          )}
        </td>
        <td>
          <button
            type="button"
            className="button button-small"
            aria-expanded={expanded}
            aria-controls={detailId}
            onClick={onToggle}
          >
            {expanded ? "Hide body" : "Body"}
            <span className="sr-only"> of delivery {row.id}</span>
          </button>
        </td>
      </tr>
      {expanded ? (
        <tr className="row-detail" id={detailId}>
          <td colSpan={COLUMNS}>
            <div className="small muted delivery-ids">
              Delivery #{row.id} ·{" "}
              {row.imported ? (
                <ImportedLine imported={row.imported} />
              ) : (
                <>
                  received <span className="mono">{row.receivedAt}</span>
                </>
              )}
              {row.remoteAddress ? (
                <>
                  {" "}
                  from <span className="mono">{row.remoteAddress}</span>
                </>
              ) : null}
              {row.webhookId ? (
                <>
                  {" "}
                  · webhook-id <span className="mono">{row.webhookId}</span>
                </>
              ) : null}
              {row.bodySha256 ? (
                <>
                  {" "}
                  · sha256 <span className="mono">{row.bodySha256}</span>
                </>
              ) : null}
            </div>
            <DeliveryBodyView id={row.id} />
          </td>
        </tr>
      ) : null}
    </Fragment>
  );
}

function apiPath(filters: DeliveryPage["filters"]): string {
  return deliveriesHref(filters).replace("/deliveries", "/api/deliveries");
}

type LiveRows = ReturnType<typeof useLiveList<DeliveryRow>>["rows"];

function DeliveriesTable(props: {
  rows: LiveRows;
  atTop: boolean;
  expanded: ReadonlySet<number>;
  onToggle: (id: number) => void;
  serverNow: string;
}) {
  const { rows, atTop, expanded, onToggle, serverNow } = props;
  return (
    <div className="card table-card table-wrap">
      <table className="table" data-testid="deliveries-table" data-live-state={atTop ? "following" : "holding"}>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">HTTP</th>
            <th scope="col">Outcome</th>
            <th scope="col">Reason</th>
            <th scope="col">Thread / call</th>
            <th scope="col" className="num">
              Size
            </th>
            <th scope="col">sha256</th>
            <th scope="col">
              <span className="sr-only">Raw body</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ key, item, gone, arrived }) => (
            <DeliveryRowView
              key={key}
              row={item}
              gone={gone}
              arrived={arrived}
              expanded={expanded.has(item.id)}
              onToggle={() => onToggle(item.id)}
              serverNow={serverNow}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function DeliveriesLive({ initial, origin }: { initial: DeliveryPage; origin: string }) {
  const firstPage = initial.cursor === null;
  const { data, updatedAt, failing } = useLiveQuery({
    queryKey: queryKeys.deliveries({ ...initial.filters }),
    path: apiPath(initial.filters),
    initialData: initial,
    enabled: firstPage,
  });
  const page = firstPage ? data : initial;
  const { rows, held, showNew, setAnchor, atTop } = useLiveList(page.items, { keyOf, mode: "accumulate" });
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(() => new Set());
  const toggle = (id: number) =>
    setExpanded((previous) => {
      const next = new Set(previous);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const last = rows[rows.length - 1];
  const hasOlder = page.nextCursor !== null || rows.length > page.items.length;
  const olderHref =
    last && hasOlder ? deliveriesHref({ ...initial.filters, cursor: encodeDeliveryCursor(last.item) }) : null;
  const filtered =
    initial.filters.outcome !== undefined ||
    initial.filters.group !== undefined ||
    initial.filters.origin !== undefined;

  return (
    <section aria-labelledby="deliveries-list">
      <div className="section-header">
        <h2 id="deliveries-list" ref={setAnchor} tabIndex={-1} className="section-title live-anchor">
          {firstPage ? "Newest deliveries" : "Older deliveries"}
        </h2>
        {firstPage ? (
          <LiveIndicator updatedAt={updatedAt} failing={failing} />
        ) : (
          <Link href={deliveriesHref(initial.filters)} className="small">
            <span aria-hidden="true">←</span> Back to the newest
          </Link>
        )}
      </div>
      <NewItemsButton count={held} noun={["delivery", "deliveries"]} onShow={showNew} />
      {rows.length === 0 ? (
        filtered ? (
          <EmptyState title="No delivery matches these filters">
            <p>
              <Link href="/deliveries">Show every delivery</Link>
            </p>
          </EmptyState>
        ) : (
          <EmptyState title="No callback received yet">
            <p>Every POST to /api/callback is recorded here, accepted or not, with its exact bytes.</p>
            <FirstTraceHelp origin={origin} />
          </EmptyState>
        )
      ) : (
        <DeliveriesTable rows={rows} atTop={atTop} expanded={expanded} onToggle={toggle} serverNow={page.generatedAt} />
      )}
      <nav className="pager" aria-label="Pages">
        {!firstPage ? (
          <Link href={deliveriesHref(initial.filters)} className="button">
            Newest
          </Link>
        ) : null}
        {olderHref ? (
          <Link href={olderHref} className="button" data-testid="older-deliveries">
            Older <span aria-hidden="true">→</span>
          </Link>
        ) : rows.length > 0 ? (
          <span className="small muted">End of the log.</span>
        ) : null}
      </nav>
    </section>
  );
}
