// The thread page's header: the group id (untrusted, shown with invisible characters revealed) and its counts.
import Link from "next/link";
import { ExportButton } from "@/components/export/export-button.tsx";
import { ReplayLink } from "@/components/replay/replay-link.tsx";
import { TimeAgo } from "@/components/ui/time-ago.tsx";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import type { ThreadSummary } from "@/lib/threads/schemas.ts";

function Figure({ label, value, tone, href }: { label: string; value: number; tone?: string; href?: string }) {
  const body = (
    <>
      <span className="figure-value">{value.toLocaleString("en-US")}</span> <span className="figure-label">{label}</span>
    </>
  );
  const className = `figure${tone && value > 0 ? ` figure-${tone}` : ""}`;
  return href ? (
    <Link href={href} className={className}>
      {body}
    </Link>
  ) : (
    <span className={className}>{body}</span>
  );
}

export function ThreadHeader({ summary }: { summary: ThreadSummary }) {
  const { counts } = summary;
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
          {summary.vendor ? <span className="chip">{summary.vendor}</span> : null} started <TimeAgo iso={summary.createdAt} /> · last activity{" "}
          <TimeAgo iso={summary.lastActivityAt} />
        </p>
        <div className="toolbar" role="group" aria-label="Thread actions">
          <ReplayLink groupId={summary.groupId} />
          <ExportButton groupId={summary.groupId} />
        </div>
      </div>
      <div className="figures" role="group" aria-label="Thread figures">
        <Figure label="calls" value={counts.calls} />
        <Figure label="pending" value={counts.pending} tone="pending" />
        <Figure label="errored" value={counts.errored} tone="bad" />
        <Figure label="timed out" value={counts.timedOut} tone="warn" />
        <Figure label="results" value={counts.results} />
        <Figure label="runtime errors" value={counts.errorEvents} tone="bad" />
        <Figure label="events" value={summary.eventCount} />
      </div>
    </div>
  );
}
