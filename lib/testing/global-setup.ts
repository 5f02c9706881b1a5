// vitest global set-up: find the PostgreSQL server for the integration tests before any worker starts
// (workers inherit TEST_DATABASE_URL), or say loudly that its half of the suite is skipped. In CI a missing
// PostgreSQL fails the run instead.
import { detectPostgres, redactUrl, SKIP_BANNER } from "./postgres-detect.ts";

export default async function setup(): Promise<() => void> {
  const url = await detectPostgres();
  if (url) {
    process.env.TEST_DATABASE_URL = url;
    console.log(`[vitest] PostgreSQL integration tests on ${redactUrl(url)}`);
    return () => {};
  }
  if (process.env.CI)
    throw new Error("CI: no PostgreSQL reachable for the integration tests (start it or set TEST_DATABASE_URL)");
  console.warn(SKIP_BANNER);
  return () => console.warn(SKIP_BANNER);
}
