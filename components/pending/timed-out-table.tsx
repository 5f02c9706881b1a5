// Calls that passed their deadline without a result: they are no longer awaited, but the pending page keeps
// them for a day, marked timed out, so a call never silently vanishes from where the reader last saw it.
import type { PendingSnapshot } from "@/lib/pending/schemas.ts";
import { CallLink, ThreadLink } from "../ui/entity-links.tsx";
import { formatCount } from "../ui/format.ts";
import { StatusBadge } from "../ui/status-badge.tsx";
import { TimeAgo } from "../ui/time-ago.tsx";

export function TimedOutTable({ snapshot }: { snapshot: PendingSnapshot }) {
  const { calls, total, sinceHours } = snapshot.timedOut;
  if (total === 0) return null;
  return (
    <section className="section" aria-labelledby="pending-timed-out">
      <h2 id="pending-timed-out" className="section-title">
        Timed out in the last {sinceHours} h <span className="count-pill">{formatCount(total)}</span>
      </h2>
      <div className="card table-card table-wrap">
        <table className="table" data-testid="pending-timed-out">
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Thread</th>
              <th scope="col">Call</th>
              <th scope="col">Requested</th>
              <th scope="col">Timed out</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {calls.map((call) => (
              <tr key={call.callRowId} data-testid="timed-out-row" data-call-key={call.callKey}>
                <td className="mono">{call.toolName}</td>
                <td className="cell-id">
                  <ThreadLink groupId={call.groupId} />
                </td>
                <td className="cell-id">
                  <CallLink callRowId={call.callRowId} callKey={call.callKey} />
                </td>
                <td className="nowrap">
                  <TimeAgo iso={call.requestedAt} serverNow={snapshot.generatedAt} />
                </td>
                <td className="nowrap">
                  <TimeAgo iso={call.timedOutAt} serverNow={snapshot.generatedAt} />
                </td>
                <td className="nowrap">
                  <StatusBadge status="timed_out" />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {total > calls.length ? (
          <p className="small muted table-footnote">
            Showing the newest {formatCount(calls.length)} of {formatCount(total)}.
          </p>
        ) : null}
      </div>
    </section>
  );
}
