// /settings/storage – how big the database is, what it holds, and what retention removes next.
import type { Metadata } from "next";
import { StorageView } from "@/components/storage/storage-view.tsx";
import { storageReport } from "@/lib/lifecycle/storage.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Storage" };

export default async function StoragePage() {
  const report = await storageReport();
  return (
    <>
      <div className="page-header">
        <div className="page-title">
          <h1>Storage</h1>
          <p className="page-description small muted">
            Database size, rows per table and the oldest data. Retention removes whole threads (results, events, audit
            rows, spans) in small steps; the same figures are at <code>GET /api/storage</code>, and{" "}
            <code>npm run toolscope -- prune --dry-run</code> lists what goes next.
          </p>
        </div>
      </div>
      <StorageView report={report} />
    </>
  );
}
