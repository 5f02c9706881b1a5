// The overview's sections (figures by status and four short lists), fed the live data by OverviewLive.
import { explorerHref } from "@/lib/explorer/schemas.ts";
import type { OverviewData } from "@/lib/overview/schemas.ts";
import { OutcomeBadge, outcomeTone } from "../deliveries/outcome-badge.tsx";
import { BarList } from "../ui/bar-chart.tsx";
import { ConfidenceMeter } from "../ui/confidence.tsx";
import { Deadline, useIsOverdue } from "../ui/deadline.tsx";
import { CallLink, ThreadLink } from "../ui/entity-links.tsx";
import { formatCount } from "../ui/format.ts";
import { deliveriesHref, pendingHref, threadsHref } from "../ui/hrefs.ts";
import { Panel } from "../ui/panel.tsx";
import { TimeAgo } from "../ui/time-ago.tsx";
import { Figure } from "./figure.tsx";

type PendingRow = OverviewData["pending"]["calls"][number];

function PendingRowView({ call, serverNow }: { call: PendingRow; serverNow: string }) {
  const overdue = useIsOverdue(call.deadlineAt, serverNow);
  return (
    <tr className={overdue ? "row-overdue" : undefined}>
      <td className="mono">{call.toolName}</td>
      <td className="cell-id">
        <CallLink callRowId={call.callRowId} callKey={call.callKey} />
        <div className="small cell-sub">
          <ThreadLink groupId={call.groupId} />
        </div>
      </td>
      <td className="nowrap">
        <TimeAgo iso={call.requestedAt} suffix="" serverNow={serverNow} />
        {call.deadlineAt ? (
          <div className="small muted cell-sub">
            deadline <Deadline iso={call.deadlineAt} serverNow={serverNow} />
          </div>
        ) : null}
      </td>
    </tr>
  );
}

/** Calls by status, results in the last hour, low confidence, subscriptions: each links to its list. */
export function StatusFigures({ data }: { data: OverviewData }) {
  const byStatus = data.callsByStatus;
  return (
    <section className="section" aria-labelledby="overview-calls">
      <h2 id="overview-calls" className="section-title">
        Calls and results
      </h2>
      <div className="grid grid-figures">
        <Figure
          label="Pending"
          value={byStatus.pending ?? 0}
          href={pendingHref()}
          testId="figure-pending"
          tone="pending"
          hint="awaiting a result"
        />
        <Figure
          label="Completed"
          value={byStatus.completed ?? 0}
          href={explorerHref({ status: "completed" })}
          testId="figure-completed"
          hint="result received"
        />
        <Figure
          label="Errored"
          value={byStatus.errored ?? 0}
          href={explorerHref({ status: "errored" })}
          testId="figure-errored"
          tone="bad"
          hint="error result"
        />
        <Figure
          label="Timed out"
          value={byStatus.timed_out ?? 0}
          href={explorerHref({ status: "timed_out" })}
          testId="figure-timed-out"
          tone="warn"
          hint="deadline passed"
        />
        <Figure
          label="Cancelled"
          value={byStatus.cancelled ?? 0}
          href={explorerHref({ status: "cancelled" })}
          testId="figure-cancelled"
          hint="by the runtime"
        />
        <Figure
          label="Results, 1 h"
          value={data.resultsLastHour}
          href={threadsHref({ range: "1h" })}
          testId="figure-results-hour"
          tone="accent"
          hint="results received"
        />
        <Figure
          label="Low confidence"
          value={data.lowConfidence.total}
          href={explorerHref({ confidenceBelow: data.lowConfidence.below, sort: "confidence_low" })}
          testId="figure-low-confidence"
          tone="bad"
          hint={`confidence < ${data.lowConfidence.below}`}
        />
        <Figure
          label="Subscriptions"
          value={data.subscriptions.active}
          href="/subscriptions"
          testId="figure-subscriptions"
          hint={`active · ${formatCount(data.subscriptions.cancelled)} cancelled`}
        />
      </div>
    </section>
  );
}

/** The oldest pending calls. */
export function PendingPanel({ data }: { data: OverviewData }) {
  return (
    <Panel
      title="Pending calls, oldest first"
      id="overview-pending"
      link={{ href: pendingHref(), label: `All ${formatCount(data.pending.total)} pending` }}
    >
      {data.pending.calls.length === 0 ? (
        <p className="muted panel-empty">No call is waiting for a result.</p>
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="overview-pending">
            <thead>
              <tr>
                <th scope="col">Tool</th>
                <th scope="col">Call · thread</th>
                <th scope="col">Waiting</th>
              </tr>
            </thead>
            <tbody>
              {data.pending.calls.map((call) => (
                <PendingRowView key={call.callRowId} call={call} serverNow={data.generatedAt} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Panel>
  );
}

/** The newest results below the confidence threshold. */
export function LowConfidencePanel({ data }: { data: OverviewData }) {
  return (
    <Panel
      title="Low-confidence results"
      id="overview-low-confidence"
      link={{ href: "/insights#confidence", label: "Confidence insights" }}
    >
      {data.lowConfidence.newest.length === 0 ? (
        <p className="muted panel-empty">No result below {data.lowConfidence.below} confidence.</p>
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="overview-low-confidence">
            <thead>
              <tr>
                <th scope="col">Confidence</th>
                <th scope="col">Tool · call · thread</th>
                <th scope="col">Next</th>
                <th scope="col">Received</th>
              </tr>
            </thead>
            <tbody>
              {data.lowConfidence.newest.map((result) => (
                <tr key={result.resultId}>
                  <td>
                    <ConfidenceMeter value={result.confidence} />
                  </td>
                  <td className="cell-id">
                    <span className="mono truncate" title={result.toolName}>
                      {result.toolName}
                    </span>
                    <div className="small cell-sub">
                      <CallLink callRowId={result.callRowId} callKey={result.callKey} />
                    </div>
                    <div className="small cell-sub">
                      <ThreadLink groupId={result.groupId} />
                    </div>
                  </td>
                  <td>
                    {result.nextAction ? (
                      <span className="badge badge-neutral">{result.nextAction}</span>
                    ) : (
                      <span className="muted">—</span>
                    )}
                  </td>
                  <td className="nowrap">
                    <TimeAgo iso={result.receivedAt} serverNow={data.generatedAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Panel>
  );
}

/** The most recently active threads with their counts. */
export function RecentThreadsPanel({ data }: { data: OverviewData }) {
  return (
    <Panel title="Recent threads" id="overview-threads" link={{ href: threadsHref(), label: "All threads" }}>
      {data.recentThreads.length === 0 ? (
        <p className="muted panel-empty">No thread yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="overview-threads">
            <thead>
              <tr>
                <th scope="col">Thread</th>
                <th scope="col" className="num">
                  Calls
                </th>
                <th scope="col" className="num">
                  Pending
                </th>
                <th scope="col" className="num">
                  Errors
                </th>
                <th scope="col">Active</th>
              </tr>
            </thead>
            <tbody>
              {data.recentThreads.map((thread) => (
                <tr key={thread.groupId}>
                  <td className="cell-id">
                    <ThreadLink groupId={thread.groupId} />
                    {thread.vendor ? (
                      <div className="cell-sub">
                        <span className="badge badge-neutral">{thread.vendor}</span>
                      </div>
                    ) : null}
                  </td>
                  <td className="num">{formatCount(thread.calls)}</td>
                  <td className="num">
                    {thread.pending > 0 ? (
                      <span className="text-pending">{formatCount(thread.pending)}</span>
                    ) : (
                      <span className="muted">0</span>
                    )}
                  </td>
                  <td className="num">
                    {thread.errors > 0 ? (
                      <span className="text-bad">{formatCount(thread.errors)}</span>
                    ) : (
                      <span className="muted">0</span>
                    )}
                  </td>
                  <td className="nowrap">
                    <TimeAgo iso={thread.lastActivityAt} serverNow={data.generatedAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Panel>
  );
}

/** Callback deliveries per outcome, each bar linking to the audit log. */
export function DeliveriesPanel({ data }: { data: OverviewData }) {
  return (
    <Panel title="Deliveries by outcome" id="overview-deliveries" link={{ href: deliveriesHref(), label: "Audit log" }}>
      {data.deliveriesByOutcome.length === 0 ? (
        <p className="muted panel-empty">No callback received yet.</p>
      ) : (
        <BarList
          caption="Callback deliveries per outcome"
          labelHeader="Outcome"
          items={data.deliveriesByOutcome.map((entry) => ({
            key: entry.outcome,
            label: <OutcomeBadge outcome={entry.outcome} />,
            value: entry.count,
            tone: outcomeTone(entry.outcome),
            href: deliveriesHref({ outcome: entry.outcome }),
          }))}
        />
      )}
    </Panel>
  );
}
