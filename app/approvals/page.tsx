// /approvals – runtimes asking before they run a tool, live; approve, deny or edit the arguments.
import type { Metadata } from "next";
import { Suspense } from "react";
import { ApprovalsLive } from "@/components/relay/approvals-live.tsx";
import { PageSkeleton } from "@/components/ui/page-skeleton.tsx";
import { getApprovalsPage } from "@/lib/relay/approvals-service.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Approvals" };

export default function ApprovalsPage() {
  return (
    <Suspense fallback={<PageSkeleton title="Approvals" />}>
      <Approvals />
    </Suspense>
  );
}

async function Approvals() {
  return <ApprovalsLive initial={await getApprovalsPage()} />;
}
