// Whether the generated Prisma clients (lib/db/generated, written at `npm install` by scripts/prisma-generate.ts)
// were generated from the current prisma/models.prisma. A `git pull` that changes the schema, followed by
// `npm start` without `npm install`, left them generated from the old one: the server started, and every query
// naming a new column failed (a 500 on every thread page after the timelineEpoch migration).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** Written beside the clients when they are generated: the sha256 of the models they were generated from. */
export const CLIENTS_DIGEST_FILE = path.join("lib", "db", "generated", "models.sha256");

export function modelsDigest(root: string): string {
  return createHash("sha256")
    .update(fs.readFileSync(path.join(root, "prisma", "models.prisma")))
    .digest("hex");
}

export function writeClientsDigest(root: string): void {
  fs.writeFileSync(path.join(root, CLIENTS_DIGEST_FILE), `${modelsDigest(root)}\n`);
}

export function clientsAreCurrent(root: string): boolean {
  const file = path.join(root, CLIENTS_DIGEST_FILE);
  return fs.existsSync(file) && fs.readFileSync(file, "utf8").trim() === modelsDigest(root);
}

/** Generates the clients again (scripts/prisma-generate.ts) when they are not current; says so. */
export function ensurePrismaClients(root: string, generate: () => void = () => runGenerate(root)): boolean {
  if (clientsAreCurrent(root)) return false;
  console.log(
    "[toolscope] the Prisma clients do not match prisma/models.prisma (sources updated without `npm install`?): generating them…",
  );
  generate();
  return true;
}

function runGenerate(root: string): void {
  execFileSync(process.execPath, ["--import", "./scripts/register.mjs", "scripts/prisma-generate.ts"], {
    cwd: root,
    stdio: "inherit",
  });
}
