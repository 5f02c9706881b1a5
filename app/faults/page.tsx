// /faults – fault rules: a share of relayed results delayed, duplicated, dropped or turned into errors, on purpose.
import type { Metadata } from "next";
import { RulesPanel } from "@/components/relay/rules-panel.tsx";
import { PageHeader } from "@/components/ui/page-header.tsx";
import { getFaults } from "@/lib/relay/rules-service.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Faults" };

export default async function FaultsPage() {
  const rules = await getFaults();
  const active = rules.filter((rule) => rule.enabled).length;
  return (
    <>
      <PageHeader
        title="Faults"
        description="Chaos testing of an agent's recovery: relayed results changed on purpose. Off unless a rule is on; every affected call is marked."
      />
      {active > 0 ? (
        <p className="notice notice-bad" role="note" data-testid="faults-active">
          {active} fault rule{active === 1 ? " is" : "s are"} on: relayed results are being changed on purpose.
        </p>
      ) : null}
      <RulesPanel kind="faults" rules={rules} />
    </>
  );
}
