// /held – results held at breakpoints before they reach the runtime, live; release, edit, replace or drop each.
import type { Metadata } from "next";
import { Suspense } from "react";
import { HeldLive } from "@/components/relay/held-live.tsx";
import { PageSkeleton } from "@/components/ui/page-skeleton.tsx";
import { getHeldPage } from "@/lib/relay/holds-service.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Held results" };

export default function HeldPage() {
  return (
    <Suspense fallback={<PageSkeleton title="Held results" />}>
      <Held />
    </Suspense>
  );
}

async function Held() {
  return <HeldLive initial={await getHeldPage()} />;
}
