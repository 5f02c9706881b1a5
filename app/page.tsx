// Overview: which database this instance uses and what it holds.
import Link from "next/link";
import { getHealth } from "@/lib/health/service.ts";

export const dynamic = "force-dynamic";

export default async function OverviewPage() {
  const health = await getHealth();
  const figures = [
    { label: "Threads", value: health.counts.threads, href: "/threads", id: "threads" },
    { label: "Tool calls", value: health.counts.calls, href: "/threads", id: "calls" },
    { label: "Results", value: health.counts.results, href: "/threads", id: "results" },
    { label: "Deliveries", value: health.counts.deliveries, href: "/deliveries", id: "deliveries" },
  ];
  return (
    <>
      <div className="page-header">
        <h1>Overview</h1>
        <p data-testid="database-info">
          <span className="badge badge-neutral" data-testid="database-provider">
            {health.database.provider === "sqlite" ? "SQLite" : "PostgreSQL"}
          </span>{" "}
          <span className="mono small">{health.database.url}</span>{" "}
          <span className={`badge ${health.migrations.state === "up_to_date" ? "badge-ok" : "badge-warn"}`} data-testid="migration-state">
            {health.migrations.state === "up_to_date"
              ? `migrations up to date (${health.migrations.applied.length})`
              : `${health.migrations.pending.length} migrations pending`}
          </span>
        </p>
      </div>
      <section className="grid grid-stats" aria-label="Database figures">
        {figures.map((figure) => (
          <Link key={figure.id} href={figure.href} className="stat" data-testid={`count-${figure.id}`}>
            <div className="stat-label">{figure.label}</div>
            <div className="stat-value">{figure.value.toLocaleString("en-US")}</div>
          </Link>
        ))}
      </section>
    </>
  );
}
