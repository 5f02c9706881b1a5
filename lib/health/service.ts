// Health of this Toolscope instance: which database, whether its migrations are all applied, what it holds.
import "server-only";
import { getDatabase } from "../db/client.ts";
import { redactDatabaseUrl } from "../db/database-url.ts";
import { readMigrationList } from "../db/migration-files.ts";
import { countRows, listAppliedMigrations, type DatabaseCounts } from "./repository.ts";

export type HealthReport = {
  status: "ok" | "degraded";
  database: { provider: "sqlite" | "postgresql"; url: string };
  migrations: { applied: string[]; pending: string[]; state: "up_to_date" | "pending" };
  counts: DatabaseCounts;
};

export async function getHealth(): Promise<HealthReport> {
  const database = await getDatabase();
  const [applied, counts] = await Promise.all([listAppliedMigrations(database), countRows(database)]);
  const appliedNames = applied.map((m) => m.name);
  const onDisk = readMigrationList(database.provider).migrationDirectories.map((d) => d.path);
  const pending = onDisk.filter((name) => !appliedNames.includes(name));
  return {
    status: pending.length === 0 ? "ok" : "degraded",
    database: { provider: database.provider, url: redactDatabaseUrl(database.target) },
    migrations: { applied: appliedNames, pending, state: pending.length === 0 ? "up_to_date" : "pending" },
    counts,
  };
}
