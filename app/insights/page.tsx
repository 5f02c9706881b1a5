// /insights – confidence distribution, nextAction counts, error types by tool, slowest tools.
import type { Metadata } from "next";
import { InsightsView } from "@/components/insights/insights-view.tsx";
import { formatCount } from "@/components/ui/format.ts";
import { PageHeader } from "@/components/ui/page-header.tsx";
import { TimeAgo } from "@/components/ui/time-ago.tsx";
import { getInsights } from "@/lib/insights/service.ts";
import { requestOrigin } from "@/lib/overview/request-origin.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Insights" };

export default async function InsightsPage() {
  const [data, origin] = await Promise.all([getInsights(), requestOrigin()]);
  return (
    <>
      <PageHeader
        title="Insights"
        description={
          <>
            From {formatCount(data.results.total)} results ({formatCount(data.results.withEnvelope)} with an envelope),
            computed <TimeAgo iso={data.generatedAt} serverNow={data.generatedAt} />. Reload for fresh numbers.
          </>
        }
      />
      <InsightsView data={data} origin={origin} />
    </>
  );
}
