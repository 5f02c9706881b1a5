// The two provider schemas and their migrations must describe the same models.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { PROVIDERS } from "./database-url.ts";
import { diffSchemas, isEmptyMigration, latestSnapshot, PROJECT_ROOT } from "./migrate.ts";
import { providerSchemaPath, readModels, renderProviderSchema } from "./provider-schemas.ts";
import { postgresTestUrl } from "../testing/test-databases.ts";

describe("schema drift", () => {
  it.each(PROVIDERS)("prisma/%s/schema.prisma is generated from prisma/models.prisma", (provider) => {
    const onDisk = fs.readFileSync(providerSchemaPath(PROJECT_ROOT, provider), "utf8");
    expect(onDisk).toBe(renderProviderSchema(readModels(PROJECT_ROOT), provider));
  });

  it("both providers' latest migrations end at the same models", () => {
    const strip = (schema: string) => schema.slice(schema.indexOf("// Toolscope's data model"));
    const sqlite = latestSnapshot("sqlite");
    const postgres = latestSnapshot("postgresql");
    expect(sqlite).not.toBeNull();
    expect(strip(sqlite?.schema ?? "")).toBe(strip(postgres?.schema ?? "x"));
  });

  const providersWithEngine = PROVIDERS.filter((p) => p === "sqlite" || postgresTestUrl() !== null);
  it.each(providersWithEngine)(
    "%s migrations produce exactly the current schema (run db:migration:new when this fails)",
    async (provider) => {
      const snapshot = latestSnapshot(provider);
      const current = fs.readFileSync(providerSchemaPath(PROJECT_ROOT, provider), "utf8");
      const sql = await diffSchemas(provider, snapshot?.schema ?? null, current);
      expect(isEmptyMigration(sql), `pending schema change for ${provider}:\n${sql}`).toBe(true);
    },
  );
});
