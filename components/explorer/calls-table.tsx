// One page of the calls explorer: when, tool, thread, status, latency, the verdict and its envelope fields.
// Every row links to the call; tool and thread cells narrow the explorer to that tool or thread.
import Link from "next/link";
import { Latency } from "@/components/ui/latency.tsx";
import { StatusBadge } from "@/components/ui/status-badge.tsx";
import { callHref } from "@/components/ui/hrefs.ts";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import { explorerHref, type ExplorerCall, type ExplorerFilters } from "@/lib/explorer/schemas.ts";
import { VerdictBadge } from "./verdict-badge.tsx";

function when(iso: string): string {
  return iso.slice(0, 19).replace("T", " ");
}

function narrowed(filters: ExplorerFilters, extra: Partial<Record<keyof ExplorerFilters, string>>): string {
  return explorerHref({ ...filters, ...extra });
}

export function CallsTable({ items, filters }: { items: ExplorerCall[]; filters: ExplorerFilters }) {
  return (
    <div className="table-wrap explorer-table-wrap">
      <table className="table explorer-table" data-testid="explorer-table">
        <caption className="sr-only">Calls, {items.length} on this page</caption>
        <thead>
          <tr>
            <th scope="col">Requested (UTC)</th>
            <th scope="col">Tool</th>
            <th scope="col" className="col-thread">
              Thread
            </th>
            <th scope="col">Status</th>
            <th scope="col" className="num">
              Latency <span className="small muted">tool-reported · observed</span>
            </th>
            <th scope="col">Verdict</th>
            <th scope="col" className="num">
              Confidence
            </th>
            <th scope="col" className="col-error">
              Error type
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.id} data-testid="explorer-row" data-call-key={item.callKey}>
              <td data-label="Requested" className="mono nowrap">
                <Link
                  href={callHref(item.id)}
                  aria-label={`Call ${presentUntrustedText(item.toolName)} ${presentUntrustedText(item.callKey)}, requested ${when(item.requestedAt)}`}
                >
                  {when(item.requestedAt)}
                </Link>
                {item.late ? <span className="chip chip-warn explorer-flag">late</span> : null}
              </td>
              <td data-label="Tool" className="mono explorer-tool">
                <Link href={narrowed(filters, { tool: item.toolName })} title="Only this tool">
                  {presentUntrustedText(item.toolName)}
                </Link>
              </td>
              <td data-label="Thread" className="mono col-thread explorer-thread">
                <Link href={narrowed(filters, { thread: item.groupId })} title="Only this thread">
                  {presentUntrustedText(item.groupId)}
                </Link>
              </td>
              <td data-label="Status">
                <StatusBadge status={item.status} />
              </td>
              <td data-label="Latency" className="num nowrap">
                <Latency reportedMs={item.reportedMs} observedMs={item.observedMs} />
              </td>
              <td data-label="Verdict">
                <VerdictBadge verdict={item.verdict} />
              </td>
              <td data-label="Confidence" className="num mono">
                {item.confidence === null ? (
                  <span className="muted">—</span>
                ) : item.verdict.band === null ? (
                  <span className="muted" title="Not trusted: the envelope is invalid or the value is outside 0–1">
                    <s>{item.confidence}</s>
                  </span>
                ) : (
                  <span data-band={item.verdict.band}>{item.confidence.toFixed(2)}</span>
                )}
              </td>
              <td data-label="Error type" className="col-error">
                {item.errorType ? (
                  <span className="chip chip-bad">{presentUntrustedText(item.errorType)}</span>
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function CallsTableSkeleton({ searching }: { searching?: string }) {
  return (
    <div className="explorer-skeleton" aria-busy="true" aria-label={searching ? "Searching calls" : "Loading calls"}>
      {searching ? (
        <p className="small muted" role="status" data-testid="explorer-searching">
          Searching for “{presentUntrustedText(searching)}”…
        </p>
      ) : null}
      {Array.from({ length: 8 }, (_, i) => (
        <div key={i} className="explorer-skeleton-row" />
      ))}
    </div>
  );
}
