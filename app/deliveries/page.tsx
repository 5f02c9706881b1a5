// /deliveries – the callback audit log: every POST to /api/callback, newest first, filterable, paginated.
import type { Metadata } from "next";
import { DeliveriesLive } from "@/components/deliveries/deliveries-live.tsx";
import { DeliveryFilters } from "@/components/deliveries/delivery-filters.tsx";
import { PageHeader } from "@/components/ui/page-header.tsx";
import { listDeliveries, parseDeliveryQuery } from "@/lib/deliveries/service.ts";
import { requestOrigin } from "@/lib/overview/request-origin.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Deliveries" };

export default async function DeliveriesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { query, ignored } = parseDeliveryQuery(await searchParams, "lenient");
  const [page, origin] = await Promise.all([listDeliveries({ query }), requestOrigin()]);
  return (
    <>
      <PageHeader title="Deliveries" description="Every POST to the callback route, accepted or not, with its status, reason and exact bytes." />
      <DeliveryFilters filters={page.filters} outcomeCounts={page.outcomeCounts} ignored={ignored} />
      {/* Keyed by the query: a new filter or page starts a fresh list instead of merging into the old one. */}
      <DeliveriesLive key={`${page.filters.outcome ?? ""}|${page.filters.group ?? ""}|${page.cursor ?? ""}`} initial={page} origin={origin} />
    </>
  );
}
