"use client";
// The overview's live part: figures and short lists, polled every 2 s from GET /api/overview, starting from
// the server-rendered data. Every figure links to the list behind it.
import type { ReactNode } from "react";
import type { OverviewData } from "@/lib/overview/schemas.ts";
import { queryKeys } from "../providers/query-keys.ts";
import { EmptyState, FirstTraceHelp } from "../ui/empty-state.tsx";
import { deliveriesHref, threadsHref } from "../ui/hrefs.ts";
import { LiveIndicator } from "../ui/live-indicator.tsx";
import { PageHeader } from "../ui/page-header.tsx";
import { useLiveQuery } from "../ui/use-live-query.ts";
import { Figure } from "./figure.tsx";
import {
  DeliveriesPanel,
  LowConfidencePanel,
  PendingPanel,
  RecentThreadsPanel,
  StatusFigures,
} from "./overview-sections.tsx";

export function OverviewLive({
  initial,
  databaseInfo,
  origin,
}: {
  initial: OverviewData;
  databaseInfo: ReactNode;
  origin: string;
}) {
  const { data, updatedAt, failing } = useLiveQuery({
    queryKey: queryKeys.overview(),
    path: "/api/overview",
    initialData: initial,
  });
  const empty = data.counts.calls === 0 && data.counts.deliveries === 0;

  return (
    <>
      <PageHeader
        title="Overview"
        description={databaseInfo}
        actions={<LiveIndicator updatedAt={updatedAt} failing={failing} />}
      />
      <section className="grid grid-stats" aria-label="Database figures">
        <Figure label="Threads" value={data.counts.threads} href={threadsHref()} testId="count-threads" />
        <Figure label="Tool calls" value={data.counts.calls} href={threadsHref()} testId="count-calls" />
        <Figure label="Results" value={data.counts.results} href={threadsHref()} testId="count-results" />
        <Figure label="Deliveries" value={data.counts.deliveries} href={deliveriesHref()} testId="count-deliveries" />
      </section>

      {empty ? (
        <div className="section">
          <EmptyState title="No traces yet">
            <FirstTraceHelp origin={origin} />
          </EmptyState>
        </div>
      ) : null}

      <StatusFigures data={data} />

      <div className="grid grid-panels section">
        <PendingPanel data={data} />
        <LowConfidencePanel data={data} />
        <RecentThreadsPanel data={data} />
        <DeliveriesPanel data={data} />
      </div>
    </>
  );
}
