// Reads database facts for the health check and the home page: applied migrations and row counts.
import "server-only";
import type { Database } from "../db/client.ts";

export type AppliedMigration = { name: string; finishedAt: string | null };

export async function listAppliedMigrations(db: Database): Promise<AppliedMigration[]> {
  const rows = await db.client.$queryRawUnsafe<{ migration_name: string; finished_at: Date | string | null }[]>(
    `SELECT migration_name, finished_at FROM _prisma_migrations WHERE rolled_back_at IS NULL ORDER BY migration_name`,
  );
  return rows.map((row) => ({
    name: row.migration_name,
    finishedAt: row.finished_at === null ? null : new Date(row.finished_at).toISOString(),
  }));
}

export type DatabaseCounts = { threads: number; calls: number; results: number; deliveries: number; events: number };

export async function countRows(db: Database): Promise<DatabaseCounts> {
  const [threads, calls, results, deliveries, events] = await Promise.all([
    db.client.thread.count(),
    db.client.toolCall.count(),
    db.client.toolResult.count(),
    db.client.delivery.count(),
    db.client.event.count(),
  ]);
  return { threads, calls, results, deliveries, events };
}
