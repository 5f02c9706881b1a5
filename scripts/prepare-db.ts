// Applies pending migrations before a server starts (npm start, npm run dev): zero set-up for the user.
import { redactDatabaseUrl, resolveDatabaseTarget } from "../lib/db/database-url.ts";
import { applyMigrations } from "../lib/db/migrate.ts";

export async function prepareDatabase(): Promise<void> {
  const target = resolveDatabaseTarget();
  const report = await applyMigrations(target);
  const state = report.applied.length ? `applied ${report.applied.join(", ")}` : "migrations up to date";
  console.log(`[toolscope] ${target.provider} ${redactDatabaseUrl(target)}: ${state}`);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop() ?? "")) {
  await prepareDatabase();
}
