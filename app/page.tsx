// Overview: which database this instance uses, what it holds, and what needs attention now (live).
import { Suspense } from "react";
import { OverviewLive } from "@/components/overview/overview-live.tsx";
import { accessSettings } from "@/lib/access/settings.ts";
import { getHealth } from "@/lib/health/service.ts";
import { getOverview } from "@/lib/overview/service.ts";
import { requestOrigin } from "@/lib/overview/request-origin.ts";
import { PageSkeleton } from "@/components/ui/page-skeleton.tsx";

export const dynamic = "force-dynamic";

export default function OverviewPage() {
  return (
    <Suspense fallback={<PageSkeleton title="Overview" figures={8} />}>
      <Overview />
    </Suspense>
  );
}

async function Overview() {
  const [health, overview, origin] = await Promise.all([getHealth(), getOverview(), requestOrigin()]);
  const exposed = accessSettings().mode === "exposed";
  const databaseInfo = (
    <p data-testid="database-info" className="database-info">
      <span className="badge badge-neutral" data-testid="database-provider">
        {health.database.provider === "sqlite" ? "SQLite" : "PostgreSQL"}
      </span>{" "}
      {/* The file path or server says where the data lives: for whoever runs this machine, not every signed-in visitor. */}
      {exposed ? (
        <span className="small muted">location on the Storage page</span>
      ) : (
        <span className="mono small" data-testid="database-location">
          {health.database.url}
        </span>
      )}{" "}
      <span
        className={`badge ${health.migrations.state === "up_to_date" ? "badge-ok" : "badge-warn"}`}
        data-testid="migration-state"
      >
        {health.migrations.state === "up_to_date"
          ? `migrations up to date (${health.migrations.applied.length})`
          : `${health.migrations.pending.length} migrations pending`}
      </span>
    </p>
  );
  return <OverviewLive initial={overview} databaseInfo={databaseInfo} origin={origin} />;
}
