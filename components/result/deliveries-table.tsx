"use client";
// The audit trail of one call: every delivery routed to it (accepted, duplicate, late, conflict, call_id
// mismatch…), with status, reason, size and sha256; each raw body loads on demand, decoded as UTF-8.
import { useQuery } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import { queryKeys } from "@/components/providers/query-keys.ts";
import { fetchJson } from "@/components/ui/fetch-json.ts";
import { TimeAgo } from "@/components/ui/time-ago.tsx";
import type { DeliverySummary } from "@/lib/calls/schemas.ts";
import type { DeliveryBody as DeliveryBodyDto } from "@/lib/deliveries/schemas.ts";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import { formatBytes } from "@/components/ui/format.ts";
import { SecretsPanel } from "../secrets/secrets-panel.tsx";
import { LargeText } from "./large-text.tsx";

const OUTCOME_TONE: Record<string, string> = {
  accepted: "badge-ok",
  duplicate: "badge-neutral",
  late: "badge-warn",
  conflict: "badge-bad",
  call_id_mismatch: "badge-bad",
};

function DeliveryBody({ callRowId, delivery }: { callRowId: number; delivery: DeliverySummary }) {
  const body = useQuery({
    queryKey: queryKeys.callDeliveryBody(callRowId, delivery.id),
    // The masked JSON view (lib/deliveries); the exact bytes stay one download away on the raw route.
    queryFn: ({ signal }) => fetchJson<DeliveryBodyDto>(`/api/deliveries/${delivery.id}/body`, signal),
    staleTime: Infinity,
  });
  return (
    <div className="call-delivery-body">
      {delivery.rawBodyTruncated ? (
        <p className="notice notice-warn small" role="note">
          The body was larger than the limit: only its first bytes were kept for the audit log (
          {formatBytes(delivery.bodyBytes)} received).
        </p>
      ) : null}
      {body.isPending ? <p className="small muted">Loading the raw body…</p> : null}
      {body.isError ? <p className="notice notice-bad small">Could not load the body: {body.error.message}</p> : null}
      {body.data ? (
        <>
          <p className="small muted">
            Raw bytes decoded as UTF-8 (invalid sequences shown as �), secrets masked, invisible characters revealed.
          </p>
          <LargeText text={body.data.text} label={`Raw body of delivery ${delivery.id}`} />
          <p className="small">
            <a href={`/api/deliveries/${delivery.id}/raw`} download>
              Download the exact bytes
            </a>
          </p>
          <SecretsPanel secrets={body.data.secrets} scopes={[{ kind: "delivery", id: String(delivery.id) }]} />
        </>
      ) : null}
    </div>
  );
}

export function DeliveriesTable({ callRowId, deliveries }: { callRowId: number; deliveries: DeliverySummary[] }) {
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set());
  const toggle = (id: number) => {
    const next = new Set(open);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setOpen(next);
  };
  return (
    <div className="card table-card">
      <table className="table" data-testid="deliveries-table">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Received</th>
            <th scope="col">Outcome</th>
            <th scope="col" className="num">
              HTTP
            </th>
            <th scope="col">Reason</th>
            <th scope="col" className="num">
              Size
            </th>
            <th scope="col">Body sha256</th>
            <th scope="col">Body</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((delivery) => (
            <Fragment key={delivery.id}>
              <tr data-testid="delivery-row" data-outcome={delivery.outcome}>
                <td className="mono">{delivery.id}</td>
                <td className="nowrap">
                  <TimeAgo iso={delivery.loggedAt} />
                  {delivery.imported ? (
                    <div>
                      <span
                        className="badge badge-warn"
                        title={`Written by an import (${delivery.imported.by}) at ${delivery.imported.at}; the time is what the file reported`}
                      >
                        imported
                      </span>
                    </div>
                  ) : null}
                </td>
                <td>
                  <span className={`badge ${OUTCOME_TONE[delivery.outcome] ?? "badge-neutral"}`}>
                    {delivery.outcome.replaceAll("_", " ")}
                  </span>
                </td>
                <td className="num mono">{delivery.httpStatus}</td>
                <td className="reason">
                  {delivery.reason ? presentUntrustedText(delivery.reason) : <span className="muted">—</span>}
                </td>
                <td className="num nowrap">{formatBytes(delivery.bodyBytes)}</td>
                <td className="mono sha-cell" title={delivery.bodySha256 ?? undefined}>
                  {delivery.bodySha256 ? `${delivery.bodySha256.slice(0, 16)}…` : "—"}
                </td>
                <td>
                  <button
                    type="button"
                    className="link-button"
                    aria-expanded={open.has(delivery.id)}
                    onClick={() => toggle(delivery.id)}
                  >
                    {open.has(delivery.id) ? "Hide" : "View raw body"}
                  </button>
                </td>
              </tr>
              {open.has(delivery.id) ? (
                <tr className="delivery-body-row">
                  <td colSpan={8}>
                    <DeliveryBody callRowId={callRowId} delivery={delivery} />
                  </td>
                </tr>
              ) : null}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}
