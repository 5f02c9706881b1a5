// Writes the two provider schemas from prisma/models.prisma and generates both Prisma clients.
// Runs at postinstall. The Prisma CLI refuses to start without its downloaded schema-engine binary,
// which cannot be fetched here; `generate` only checks that the file exists (see shared notes), so we
// point it at the Node binary. Migrations never use the CLI: lib/db/migrate.ts drives the WASM engine.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { writeProviderSchemas, providerSchemaPath } from "../lib/db/provider-schemas.ts";
import { PROVIDERS } from "../lib/db/database-url.ts";
import { writeClientsDigest } from "./prisma-clients.ts";

const root = path.resolve(import.meta.dirname, "..");
const changed = writeProviderSchemas(root);
for (const file of changed) console.log(`wrote ${path.relative(root, file)}`);

const prismaCli = createRequire(import.meta.url).resolve("prisma/build/index.js");
for (const provider of PROVIDERS) {
  execFileSync(process.execPath, [prismaCli, "generate", "--schema", providerSchemaPath(root, provider)], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
      PRISMA_HIDE_UPDATE_MESSAGE: "1",
      CHECKPOINT_DISABLE: "1",
    },
  });
}
// What `npm start` checks before it loads the clients (scripts/prisma-clients.ts).
writeClientsDigest(root);
