// Derives prisma/<provider>/schema.prisma from the single model source, prisma/models.prisma.
import "server-only";
import fs from "node:fs";
import path from "node:path";
import type { Provider } from "./database-url.ts";

const MARKER = "// GENERATED from prisma/models.prisma by scripts/prisma-generate.ts — edit models.prisma instead.";

export function providerSchemaPath(root: string, provider: Provider): string {
  return path.join(root, "prisma", provider, "schema.prisma");
}

export function providerMigrationsDir(root: string, provider: Provider): string {
  return path.join(root, "prisma", provider, "migrations");
}

export function renderProviderSchema(models: string, provider: Provider): string {
  const header = [
    MARKER,
    "",
    "generator client {",
    '  provider        = "prisma-client"',
    `  output          = "../../lib/db/generated/${provider}"`,
    '  runtime         = "nodejs"',
    '  moduleFormat    = "esm"',
    '  importFileExtension = "ts"',
    "}",
    "",
    "datasource db {",
    `  provider = "${provider}"`,
    "}",
    "",
  ].join("\n");
  return `${header}\n${models}`;
}

export function readModels(root: string): string {
  return fs.readFileSync(path.join(root, "prisma", "models.prisma"), "utf8");
}

/** Writes both provider schemas when they differ from the models; returns the files it wrote. */
export function writeProviderSchemas(root: string): string[] {
  const models = readModels(root);
  const written: string[] = [];
  for (const provider of ["sqlite", "postgresql"] as const) {
    const file = providerSchemaPath(root, provider);
    const content = renderProviderSchema(models, provider);
    const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : null;
    if (current !== content) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
      written.push(file);
    }
  }
  return written;
}
