// npm run db:migrate: applies pending migrations to the database DATABASE_URL names (default: ./data/toolscope.db).
// Safe beside a running server: a no-op when up to date; a plain message when a migration must wait for it.
import { redactDatabaseUrl, resolveDatabaseTarget } from "../lib/db/database-url.ts";
import { applyMigrations, MigrationBlocked } from "../lib/db/migrate.ts";

const target = resolveDatabaseTarget();
try {
  const report = await applyMigrations(target);
  console.log(
    `${target.provider} ${redactDatabaseUrl(target)}: ${report.applied.length ? `applied ${report.applied.join(", ")}` : "up to date"} (${report.total} migrations)`,
  );
} catch (error) {
  if (!(error instanceof MigrationBlocked)) throw error;
  console.error(`db:migrate: ${error.message}`);
  process.exitCode = 1;
}
