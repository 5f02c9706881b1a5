"use client";
// The thread header's counts, kept live: polled from GET /api/threads/{groupId}/summary every 2 s while the
// tab is visible, starting from the server-rendered figures (no loading state, no layout shift).
import Link from "next/link";
import { queryKeys } from "@/components/providers/query-keys.ts";
import { useLiveQuery } from "@/components/ui/use-live-query.ts";
import type { ThreadSummary } from "@/lib/threads/schemas.ts";

function Figure({ label, value, tone, href }: { label: string; value: number; tone?: string; href?: string }) {
  const body = (
    <>
      <span className="figure-value">{value.toLocaleString("en-US")}</span>{" "}
      <span className="figure-label">{label}</span>
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

export function ThreadFigures({ initial }: { initial: ThreadSummary }) {
  const { data, failing } = useLiveQuery<ThreadSummary>({
    queryKey: queryKeys.threadSummary(initial.groupId),
    path: `/api/threads/${encodeURIComponent(initial.groupId)}/summary`,
    initialData: initial,
  });
  const { counts } = data;
  return (
    <div className="figures" role="group" aria-label="Thread figures" data-testid="thread-figures">
      <Figure label="calls" value={counts.calls} />
      <Figure label="pending" value={counts.pending} tone="pending" />
      <Figure label="errored" value={counts.errored} tone="bad" />
      <Figure label="timed out" value={counts.timedOut} tone="warn" />
      <Figure label="results" value={counts.results} />
      <Figure label="runtime errors" value={counts.errorEvents} tone="bad" />
      <Figure label="events" value={data.eventCount} />
      {failing ? <span className="small muted">(counts not updating)</span> : null}
    </div>
  );
}
