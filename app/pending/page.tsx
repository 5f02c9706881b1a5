// /pending – every call awaiting a result across threads, live; active subscriptions apart.
import type { Metadata } from "next";
import { Suspense } from "react";
import { PageSkeleton } from "@/components/ui/page-skeleton.tsx";
import { PendingLive } from "@/components/pending/pending-live.tsx";
import { requestOrigin } from "@/lib/overview/request-origin.ts";
import { parseQueryLenient } from "@/lib/http/query.ts";
import { pendingQuerySchema } from "@/lib/pending/schemas.ts";
import { getPendingSnapshot } from "@/lib/pending/service.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Pending calls" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default function PendingPage({ searchParams }: { searchParams: SearchParams }) {
  return (
    <Suspense fallback={<PageSkeleton title="Pending calls" />}>
      <Pending searchParams={searchParams} />
    </Suspense>
  );
}

async function Pending({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  // A hand-edited URL still shows the page: an unknown sort falls back to the default.
  const { sort } = parseQueryLenient(pendingQuerySchema, params).query;
  const [snapshot, origin] = await Promise.all([getPendingSnapshot({ sort }), requestOrigin()]);
  // Keyed by sort: switching order starts a fresh live list instead of merging two orders.
  return <PendingLive key={sort} initial={snapshot} origin={origin} />;
}
