// /deliveries/outbox – outgoing deliveries to runtimes (relayed results, answers, approval decisions), live.
import type { Metadata } from "next";
import { Suspense } from "react";
import { OutboxLive } from "@/components/relay/outbox-live.tsx";
import { PageSkeleton } from "@/components/ui/page-skeleton.tsx";
import { parseQueryLenient } from "@/lib/http/query.ts";
import { outboxQuerySchema } from "@/lib/outbox/schemas.ts";
import { listOutbox } from "@/lib/relay/outbox-view-service.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Outbox" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default function OutboxPage({ searchParams }: { searchParams: SearchParams }) {
  return (
    <Suspense fallback={<PageSkeleton title="Outbox" />}>
      <Outbox searchParams={searchParams} />
    </Suspense>
  );
}

async function Outbox({ searchParams }: { searchParams: SearchParams }) {
  const { query } = parseQueryLenient(outboxQuerySchema, await searchParams);
  return <OutboxLive key={query.status ?? ""} initial={await listOutbox(query)} status={query.status} />;
}
