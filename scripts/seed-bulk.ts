// npm run seed:bulk -- [--db <url>] [--results <n>] [--per-thread <n>] — a large synthetic database for scale
// checks: <n> results (default 1,000,000) on ~2% more calls, with events and deliveries (lib/explorer/bulk-seed.ts,
// set-based SQL through the real triggers). Default database: file:data/bulk.db (created, migrated).
import { openDatabase } from "../lib/db/client.ts";
import { resolveDatabaseTarget } from "../lib/db/database-url.ts";
import { applyMigrations } from "../lib/db/migrate.ts";
import { seedBulk } from "../lib/explorer/bulk-seed.ts";

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && args[index + 1] !== undefined ? String(args[index + 1]) : fallback;
};

export async function seedBulkDatabase(url: string, results: number, perThread: number): Promise<void> {
  const target = resolveDatabaseTarget(url);
  await applyMigrations(target);
  const database = await openDatabase(target);
  try {
    // 98 of every 100 calls get a result (see bulk-seed: 1% pending, 1% timed out).
    const calls = Math.ceil(results / 0.98);
    const started = performance.now();
    await seedBulk(database, {
      calls,
      callsPerThread: perThread,
      prefix: `bulk${Date.now().toString(36)}`,
      start: new Date(Date.now() - calls * 1000),
      onProgress: (done) =>
        process.stdout.write(
          `\r${done.toLocaleString("en-US")} / ${calls.toLocaleString("en-US")} calls, ${((performance.now() - started) / 1000).toFixed(0)} s`,
        ),
    });
    if (database.provider === "sqlite") await database.client.$executeRawUnsafe("ANALYZE");
    else await database.client.$executeRawUnsafe("ANALYZE");
    process.stdout.write(
      `\nseeded ${calls.toLocaleString("en-US")} calls in ${((performance.now() - started) / 1000).toFixed(1)} s into ${url}\n`,
    );
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await seedBulkDatabase(
    option("db", "file:data/bulk.db"),
    Number(option("results", "1000000")),
    Number(option("per-thread", "200")),
  );
}
