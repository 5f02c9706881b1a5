// vitest global set-up: find the PostgreSQL server for the integration tests before any worker starts
// (workers inherit TEST_DATABASE_URL), or say loudly that its half of the suite is skipped. In CI a missing
// PostgreSQL fails the run instead. Then migrate once per run into template databases (test-templates.ts) that
// every test database copies.
import { detectPostgres, redactUrl, SKIP_BANNER } from "./postgres-detect.ts";
import { makePostgresTemplate, makeSqliteTemplate, PG_TEMPLATE_VAR, SQLITE_TEMPLATE_VAR } from "./test-templates.ts";

export default async function setup(): Promise<() => Promise<void>> {
  const started = Date.now();
  const url = await detectPostgres();
  if (!url && process.env.CI)
    throw new Error("CI: no PostgreSQL reachable for the integration tests (start it or set TEST_DATABASE_URL)");
  const sqlite = await makeSqliteTemplate();
  process.env[SQLITE_TEMPLATE_VAR] = sqlite.file;
  const postgres = url ? await makePostgresTemplate(url) : null;
  if (url && postgres) {
    process.env.TEST_DATABASE_URL = url;
    process.env[PG_TEMPLATE_VAR] = postgres.name;
    console.log(`[vitest] PostgreSQL integration tests on ${redactUrl(url)}`);
  } else {
    console.warn(SKIP_BANNER);
  }
  console.log(`[vitest] migrated template databases in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return async () => {
    sqlite.remove();
    await postgres?.remove();
    if (!url) console.warn(SKIP_BANNER);
  };
}
