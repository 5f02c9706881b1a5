// /alerts/history – every alert sent (and every test): which rule, how many events it stands for, the calls that
// caused it (each a link), and how its messages fared in the outbox.
import type { Metadata } from "next";
import Link from "next/link";
import { AlertHistoryTable } from "@/components/alerts/alert-history-table.tsx";
import { PageHeader } from "@/components/ui/page-header.tsx";
import { getAlert, getAlertHistory } from "@/lib/alerts/service.ts";
import { alertHistoryQuerySchema } from "@/lib/alerts/schemas.ts";
import { parseQueryLenient } from "@/lib/http/query.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Alert history" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function AlertHistoryPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const alertId = Number(typeof params.alert === "string" ? params.alert : NaN);
  const { query } = parseQueryLenient(alertHistoryQuerySchema, {
    rule: params.rule,
    before: params.before,
    limit: params.limit,
  });
  const page =
    Number.isInteger(alertId) && alertId > 0
      ? { items: [await getAlert(alertId)], nextBefore: null }
      : await getAlertHistory(query);
  return (
    <>
      <PageHeader
        title="Alert history"
        description={
          <>
            Newest first. Each alert links to the calls that caused it; a grouped alert stands for every match of its
            cooldown window (a sample of its calls is kept). Rules are on the <Link href="/alerts">Alerts</Link> page.
          </>
        }
      />
      {page.items.length === 0 ? (
        <p className="muted">No alert has been sent yet.</p>
      ) : (
        <AlertHistoryTable alerts={page.items} />
      )}
      {page.nextBefore !== null ? (
        <p>
          <Link href={`/alerts/history?before=${page.nextBefore}${query.rule ? `&rule=${query.rule}` : ""}`}>
            Older alerts
          </Link>
        </p>
      ) : null}
    </>
  );
}
