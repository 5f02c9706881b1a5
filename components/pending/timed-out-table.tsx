// Calls that passed their deadline without a result: they are no longer awaited, but the pending page keeps
// them for a day, marked timed out, so a call never silently vanishes from where the reader last saw it.
import type { PendingSnapshot } from "@/lib/pending/schemas.ts";
import { DataTable, type Column } from "../ui/data-table.tsx";
import { CallLink, ThreadLink } from "../ui/entity-links.tsx";
import { formatCount } from "../ui/format.ts";
import { StatusBadge } from "../ui/status-badge.tsx";
import { TimeAgo } from "../ui/time-ago.tsx";

type TimedOutCall = PendingSnapshot["timedOut"]["calls"][number];

function columns(serverNow: string): Column<TimedOutCall>[] {
  return [
    { key: "tool", header: "Tool", cell: (call) => call.toolName, className: "mono" },
    { key: "thread", header: "Thread", cell: (call) => <ThreadLink groupId={call.groupId} />, className: "cell-id" },
    {
      key: "call",
      header: "Call",
      cell: (call) => <CallLink callRowId={call.callRowId} callKey={call.callKey} />,
      className: "cell-id",
    },
    {
      key: "requested",
      header: "Requested",
      cell: (call) => <TimeAgo iso={call.requestedAt} serverNow={serverNow} />,
      className: "nowrap",
    },
    {
      key: "timed-out",
      header: "Timed out",
      cell: (call) => <TimeAgo iso={call.timedOutAt} serverNow={serverNow} />,
      className: "nowrap",
    },
    { key: "state", header: "State", cell: () => <StatusBadge status="timed_out" />, className: "nowrap" },
  ];
}

export function TimedOutTable({ snapshot }: { snapshot: PendingSnapshot }) {
  const { calls, total, sinceHours } = snapshot.timedOut;
  if (total === 0) return null;
  return (
    <section className="section" aria-labelledby="pending-timed-out">
      <h2 id="pending-timed-out" className="section-title">
        Timed out in the last {sinceHours} h <span className="count-pill">{formatCount(total)}</span>
      </h2>
      <DataTable
        rows={calls}
        columns={columns(snapshot.generatedAt)}
        rowKey={(call) => call.callRowId}
        rowAttributes={(call) => ({ "data-testid": "timed-out-row", "data-call-key": call.callKey })}
        data-testid="pending-timed-out"
        footnote={
          total > calls.length ? `Showing the newest ${formatCount(calls.length)} of ${formatCount(total)}.` : undefined
        }
      />
    </section>
  );
}
