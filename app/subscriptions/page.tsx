// /subscriptions – active and cancelled subscriptions, results received, last result time (live).
import type { Metadata } from "next";
import { Suspense } from "react";
import { PageSkeleton } from "@/components/ui/page-skeleton.tsx";
import { SubscriptionsLive } from "@/components/subscriptions/subscriptions-live.tsx";
import { requestOrigin } from "@/lib/overview/request-origin.ts";
import { getSubscriptionsSnapshot } from "@/lib/subscriptions/service.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Subscriptions" };

export default function SubscriptionsPage() {
  return (
    <Suspense fallback={<PageSkeleton title="Subscriptions" />}>
      <Subscriptions />
    </Suspense>
  );
}

async function Subscriptions() {
  const [snapshot, origin] = await Promise.all([getSubscriptionsSnapshot(), requestOrigin()]);
  return <SubscriptionsLive initial={snapshot} origin={origin} />;
}
