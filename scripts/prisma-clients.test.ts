// npm start regenerates the Prisma clients when prisma/models.prisma changed since they were generated (a pull
// without `npm install`), and leaves them alone otherwise. On a copy of the project's schema in a temporary root.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLIENTS_DIGEST_FILE, clientsAreCurrent, ensurePrismaClients, writeClientsDigest } from "./prisma-clients.ts";

describe("the Prisma clients' freshness check", () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
  });
  const project = () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "toolscope-clients-"));
    roots.push(root);
    fs.mkdirSync(path.join(root, "prisma"));
    fs.mkdirSync(path.join(root, path.dirname(CLIENTS_DIGEST_FILE)), { recursive: true });
    fs.copyFileSync(path.join(process.cwd(), "prisma", "models.prisma"), path.join(root, "prisma", "models.prisma"));
    return root;
  };

  it("generates when the clients were never stamped, then not again", () => {
    const root = project();
    let generated = 0;
    const generate = () => {
      generated += 1;
      writeClientsDigest(root);
    };
    expect(ensurePrismaClients(root, generate)).toBe(true);
    expect(ensurePrismaClients(root, generate)).toBe(false);
    expect(generated).toBe(1);
  });

  it("generates again when the schema changed after they were generated", () => {
    const root = project();
    writeClientsDigest(root);
    expect(clientsAreCurrent(root)).toBe(true);
    fs.appendFileSync(path.join(root, "prisma", "models.prisma"), "\n// a column added upstream\n");
    expect(clientsAreCurrent(root)).toBe(false);
    let generated = 0;
    expect(ensurePrismaClients(root, () => (generated += 1))).toBe(true);
    expect(generated).toBe(1);
  });

  it("finds this checkout's clients current after npm install", () => {
    expect(clientsAreCurrent(process.cwd())).toBe(true);
  });
});
