// Unique-key races are recognised for model and raw queries, on both backends.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testBackends, type TestDatabase } from "../testing/test-databases.ts";
import { isUniqueViolation } from "./errors.ts";
import { sql } from "./sql.ts";

describe.each(testBackends())("isUniqueViolation on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await backend.open();
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("recognises a duplicate from a model query and from raw SQL, and nothing else", async () => {
    await t.database.client.thread.create({ data: { groupId: "dup" } });
    const modelError = await t.database.client.thread.create({ data: { groupId: "dup" } }).catch((e: unknown) => e);
    const rawError = await t.database.client.$executeRaw(sql`INSERT INTO "Thread" ("groupId", "createdAt", "lastActivityAt") VALUES (${"dup"}, ${new Date()}, ${new Date()})`).catch((e: unknown) => e);
    const otherError = await t.database.client.$executeRaw(sql`INSERT INTO "NoSuchTable" ("x") VALUES (${1})`).catch((e: unknown) => e);
    expect(isUniqueViolation(modelError)).toBe(true);
    expect(isUniqueViolation(rawError)).toBe(true);
    expect(isUniqueViolation(otherError)).toBe(false);
    expect(isUniqueViolation(new Error("boom"))).toBe(false);
  });
});
