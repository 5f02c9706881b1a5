// The storage view's figures: database size, rows per table, oldest data, the retention settings, what the
// next prune would remove, and the last sweep. GET /api/storage and /settings/storage read it.
import "server-only";
import { getDatabase, type Database } from "../db/client.ts";
import { redactDatabaseUrl } from "../db/database-url.ts";
import { oldestData, rowsPerTable, spaceFacts } from "./repository.ts";
import { lastSweep, planPrune, type PrunePlan } from "./service.ts";
import { readRetentionSettings, type RetentionSettings } from "./settings.ts";

export type StorageReport = {
  database: {
    provider: "sqlite" | "postgresql";
    url: string;
    bytes: number;
    freeBytes: number;
    autoVacuum: string | null;
  };
  tables: { table: string; rows: number }[];
  oldest: { threadActivity: string | null; delivery: string | null; span: string | null };
  retention: RetentionSettings;
  /** What a prune would remove now (at most 20 threads listed; `threadCount` counts them all). */
  next: Omit<PrunePlan, "threads"> & { threadCount: number; threads: PrunePlan["threads"] };
  lastSweep: { at: string | null; error: string | null; deletedRows: number | null };
};

export async function storageReport(options: { database?: Database } = {}): Promise<StorageReport> {
  const database = options.database ?? (await getDatabase());
  const [space, tables, oldest, { plan }] = await Promise.all([
    spaceFacts(database),
    rowsPerTable(database.client),
    oldestData(database.client),
    planPrune({ database }),
  ]);
  const sweep = lastSweep();
  return {
    database: {
      provider: database.provider,
      url: redactDatabaseUrl(database.target),
      bytes: space.databaseBytes,
      freeBytes: space.freeBytes,
      autoVacuum: space.autoVacuum,
    },
    tables,
    oldest: {
      threadActivity: oldest.threadActivity?.toISOString() ?? null,
      delivery: oldest.delivery?.toISOString() ?? null,
      span: oldest.span?.toISOString() ?? null,
    },
    retention: readRetentionSettings(),
    next: { ...plan, threadCount: plan.threads.length, threads: plan.threads.slice(0, 20) },
    lastSweep: {
      at: sweep.at,
      error: sweep.error,
      deletedRows: sweep.report ? Object.values(sweep.report.deleted).reduce((a, b) => a + b, 0) : null,
    },
  };
}
