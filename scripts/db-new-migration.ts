// npm run db:migration:new -- <name>: writes a migration for BOTH providers from a change to prisma/models.prisma.
// Each migration folder keeps the schema it produces (see lib/db/migrate.ts), so this needs no database.
import fs from "node:fs";
import path from "node:path";
import { PROVIDERS } from "../lib/db/database-url.ts";
import { diffSchemas, isEmptyMigration, latestSnapshot, PROJECT_ROOT, SNAPSHOT_FILE } from "../lib/db/migrate.ts";
import { providerMigrationsDir, providerSchemaPath, writeProviderSchemas } from "../lib/db/provider-schemas.ts";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npm run db:migration:new -- <snake_case_name>");
  process.exit(2);
}
writeProviderSchemas(PROJECT_ROOT);

const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
let wrote = 0;
for (const provider of PROVIDERS) {
  const baseDir = providerMigrationsDir(PROJECT_ROOT, provider);
  const lock = path.join(baseDir, "migration_lock.toml");
  if (!fs.existsSync(lock)) {
    fs.mkdirSync(baseDir, { recursive: true });
    fs.writeFileSync(lock, `# Written by scripts/db-new-migration.ts; do not edit.\nprovider = "${provider}"\n`);
  }
  const current = fs.readFileSync(providerSchemaPath(PROJECT_ROOT, provider), "utf8");
  const sql = await diffSchemas(provider, latestSnapshot(provider)?.schema ?? null, current);
  if (isEmptyMigration(sql)) {
    console.log(`${provider}: no changes`);
    continue;
  }
  const dir = path.join(baseDir, `${stamp}_${name}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "migration.sql"), sql);
  fs.writeFileSync(path.join(dir, SNAPSHOT_FILE), current);
  console.log(`${provider}: wrote ${path.relative(PROJECT_ROOT, dir)}/migration.sql`);
  wrote++;
}
if (wrote === 0) console.log("Models and migrations agree; nothing to do.");
