// /breakpoints – rules that hold relayed results before they reach the runtime.
import type { Metadata } from "next";
import Link from "next/link";
import { RulesPanel } from "@/components/relay/rules-panel.tsx";
import { PageHeader } from "@/components/ui/page-header.tsx";
import { getBreakpoints } from "@/lib/relay/rules-service.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Breakpoints" };

export default async function BreakpointsPage() {
  const rules = await getBreakpoints();
  return (
    <>
      <PageHeader
        title="Breakpoints"
        description={
          <>
            A relayed result that matches a rule waits on the <Link href="/held">Held</Link> page until someone
            releases, edits, replaces or drops it, or its timeout applies. Conditions of one rule must all hold.
          </>
        }
      />
      <RulesPanel kind="breakpoints" rules={rules} />
    </>
  );
}
