// npm run db:migrate: applies pending migrations to the database DATABASE_URL names (default: ./data/toolscope.db).
import { redactDatabaseUrl, resolveDatabaseTarget } from "../lib/db/database-url.ts";
import { applyMigrations } from "../lib/db/migrate.ts";

const target = resolveDatabaseTarget();
const report = await applyMigrations(target);
console.log(
  `${target.provider} ${redactDatabaseUrl(target)}: ${report.applied.length ? `applied ${report.applied.join(", ")}` : "up to date"} (${report.total} migrations)`,
);
