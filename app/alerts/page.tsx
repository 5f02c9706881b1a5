// /alerts – alert rules: what fires, where it goes, when each last fired and what it sent; "send a test".
import type { Metadata } from "next";
import Link from "next/link";
import { AlertRulesPanel } from "@/components/alerts/alert-rules-panel.tsx";
import { PageHeader } from "@/components/ui/page-header.tsx";
import { getAlertRules, getNotifyDestinations } from "@/lib/alerts/service.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Alerts" };

export default async function AlertsPage() {
  const [rules, { destinations, problem }] = await Promise.all([getAlertRules(), getNotifyDestinations()]);
  return (
    <>
      <PageHeader
        title="Alerts"
        description={
          <>
            A rule sends a signed webhook or a Slack-format message to the destinations configured on the server
            (TOOLSCOPE_NOTIFY) when its condition holds; a burst within the grouping window becomes one message with a
            count. Every message sent is in the <Link href="/alerts/history">alert history</Link>.
          </>
        }
      />
      {problem ? (
        <p className="notice notice-bad" role="alert">
          {problem}
        </p>
      ) : null}
      <AlertRulesPanel rules={rules} destinations={destinations} />
    </>
  );
}
