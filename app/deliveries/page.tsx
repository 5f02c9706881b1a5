// /deliveries – the callback audit log: every POST to /api/callback, newest first, filterable, paginated.
import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { PageSkeleton } from "@/components/ui/page-skeleton.tsx";
import { DeliveriesLive } from "@/components/deliveries/deliveries-live.tsx";
import { DeliveryFilters } from "@/components/deliveries/delivery-filters.tsx";
import { PageHeader } from "@/components/ui/page-header.tsx";
import { listDeliveries, parseDeliveryQuery } from "@/lib/deliveries/service.ts";
import { requestOrigin } from "@/lib/overview/request-origin.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Deliveries" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default function DeliveriesPage({ searchParams }: { searchParams: SearchParams }) {
  return (
    <Suspense fallback={<PageSkeleton title="Deliveries" rows={10} />}>
      <Deliveries searchParams={searchParams} />
    </Suspense>
  );
}

async function Deliveries({ searchParams }: { searchParams: SearchParams }) {
  const { query, ignored } = parseDeliveryQuery(await searchParams, "lenient");
  const [page, origin] = await Promise.all([listDeliveries({ query }), requestOrigin()]);
  return (
    <>
      <PageHeader
        title="Deliveries"
        description={
          <>
            Every POST to the callback route, accepted or not, with its status, reason and exact bytes — and, marked as
            imported, the rows imports wrote. What Toolscope sends on to runtimes: the{" "}
            <Link href="/deliveries/outbox">outbox</Link>.
          </>
        }
      />
      <DeliveryFilters filters={page.filters} outcomeCounts={page.outcomeCounts} ignored={ignored} />
      {/* Keyed by the query: a new filter or page starts a fresh list instead of merging into the old one. */}
      <DeliveriesLive
        key={`${page.filters.outcome ?? ""}|${page.filters.group ?? ""}|${page.filters.origin ?? ""}|${page.cursor ?? ""}`}
        initial={page}
        origin={origin}
      />
    </>
  );
}
