// Reads prisma/<provider>/migrations from disk in the shape the schema engine takes (no engine needed).
import "server-only";
import { setting } from "../config.ts";
import fs from "node:fs";
import path from "node:path";
import type { MigrationDirectory, MigrationList } from "@prisma/schema-engine-wasm";
import type { Provider } from "./database-url.ts";
import { providerMigrationsDir } from "./provider-schemas.ts";

// npm scripts and the server always run from the project directory; bundled code has no import.meta.dirname.
export const PROJECT_ROOT = setting("TOOLSCOPE_ROOT") ?? process.cwd();

export function readMigrationList(provider: Provider, root: string = PROJECT_ROOT): MigrationList {
  const baseDir = providerMigrationsDir(root, provider);
  const lockPath = path.join(baseDir, "migration_lock.toml");
  const names = fs.existsSync(baseDir)
    ? fs
        .readdirSync(baseDir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
  const migrationDirectories: MigrationDirectory[] = names.map((name) => {
    const file = path.join(baseDir, name, "migration.sql");
    return {
      path: name,
      migrationFile: {
        path: "migration.sql",
        content: fs.existsSync(file)
          ? { tag: "ok", value: fs.readFileSync(file, "utf8") }
          : { tag: "error", value: `missing ${path.relative(root, file)}` },
      },
    };
  });
  return {
    baseDir,
    lockfile: {
      path: "migration_lock.toml",
      content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, "utf8") : null,
    },
    shadowDbInitScript: "",
    migrationDirectories,
  };
}
