// The thread page's header: the group id (untrusted, shown with invisible characters revealed) and its live counts.
import Link from "next/link";
import { ExportButton } from "@/components/export/export-button.tsx";
import { ReplayLink } from "@/components/replay/replay-link.tsx";
import { TimeAgo } from "@/components/ui/time-ago.tsx";
import { ThreadFigures } from "./thread-figures.tsx";
import { ThreadUsage } from "@/components/model-turns/thread-usage.tsx";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import type { ThreadSummary } from "@/lib/threads/schemas.ts";

export function ThreadHeader({ summary }: { summary: ThreadSummary }) {
  return (
    <div className="thread-header">
      <nav className="breadcrumbs small" aria-label="Breadcrumbs">
        <Link href="/threads">Threads</Link> <span aria-hidden="true">/</span>
      </nav>
      <div className="page-header">
        <h1 className="mono thread-title" data-testid="thread-title">
          {presentUntrustedText(summary.groupId)}
        </h1>
        <p className="small">
          {summary.vendor ? <span className="chip">{summary.vendor}</span> : null} started{" "}
          <TimeAgo iso={summary.createdAt} /> · last activity <TimeAgo iso={summary.lastActivityAt} />
        </p>
        <div className="toolbar" role="group" aria-label="Thread actions">
          <ReplayLink groupId={summary.groupId} />
          <ExportButton groupId={summary.groupId} />
        </div>
      </div>
      <ThreadFigures initial={summary} />
      <ThreadUsage initial={summary} />
    </div>
  );
}
