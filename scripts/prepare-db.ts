// Applies pending migrations before a server starts (npm start, npm run dev): zero set-up for the user.
// Beside a running server on the same database this is a no-op when up to date, and a plain message (exit 1)
// when a migration must run first.
import { redactDatabaseUrl, resolveDatabaseTarget } from "../lib/db/database-url.ts";
import { applyMigrations, MigrationBlocked } from "../lib/db/migrate.ts";

export async function prepareDatabase(): Promise<void> {
  const target = resolveDatabaseTarget();
  let report;
  try {
    report = await applyMigrations(target);
  } catch (error) {
    if (!(error instanceof MigrationBlocked)) throw error;
    console.error(`[toolscope] ${error.message}`);
    process.exit(1);
  }
  const state = report.applied.length ? `applied ${report.applied.join(", ")}` : "migrations up to date";
  console.log(`[toolscope] ${target.provider} ${redactDatabaseUrl(target)}: ${state}`);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop() ?? "")) {
  await prepareDatabase();
}
