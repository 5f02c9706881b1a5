// Unique-key races are recognised for model and raw queries, and a write blocked by another connection's
// lock is recognised as transient (503 + Retry-After), on both backends.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testBackends, type TestDatabase } from "../testing/test-databases.ts";
import Sqlite from "better-sqlite3";
import pg from "pg";
import { isTransientDatabaseError, isUniqueViolation, mapDatabaseError } from "./errors.ts";
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
    const rawError = await t.database.client
      .$executeRaw(
        sql`INSERT INTO "Thread" ("groupId", "createdAt", "lastActivityAt") VALUES (${"dup"}, ${new Date()}, ${new Date()})`,
      )
      .catch((e: unknown) => e);
    const otherError = await t.database.client
      .$executeRaw(sql`INSERT INTO "NoSuchTable" ("x") VALUES (${1})`)
      .catch((e: unknown) => e);
    expect(isUniqueViolation(modelError)).toBe(true);
    expect(isUniqueViolation(rawError)).toBe(true);
    expect(isUniqueViolation(otherError)).toBe(false);
    expect(isUniqueViolation(new Error("boom"))).toBe(false);
  });
});

describe.each(testBackends())("transient database errors on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await backend.open();
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("recognises a write blocked by another connection's lock as transient (503), and a unique violation as not", async () => {
    let blocked: unknown;
    if (backend.provider === "sqlite") {
      const outside = new Sqlite(t.url.replace(/^file:/, ""));
      outside.exec("BEGIN IMMEDIATE");
      try {
        blocked = await t.database.client.thread.create({ data: { groupId: "blocked" } }).catch((e: unknown) => e);
      } finally {
        outside.exec("ROLLBACK");
        outside.close();
      }
    } else {
      const outside = new pg.Client({ connectionString: t.url });
      await outside.connect();
      await outside.query(`BEGIN; LOCK TABLE "Thread" IN ACCESS EXCLUSIVE MODE`);
      try {
        // lock_timeout (the lock wait) ends the wait with 55P03 instead of hanging.
        blocked = await t.database.client.thread.create({ data: { groupId: "blocked" } }).catch((e: unknown) => e);
      } finally {
        await outside.query("ROLLBACK");
        await outside.end();
      }
    }
    expect(isTransientDatabaseError(blocked), String(blocked)).toBe(true);
    expect(mapDatabaseError(blocked)).toMatchObject({ code: "unavailable", status: 503 });
    await t.database.client.thread.create({ data: { groupId: "twice" } });
    const duplicate = await t.database.client.thread.create({ data: { groupId: "twice" } }).catch((e: unknown) => e);
    expect(isTransientDatabaseError(duplicate)).toBe(false);
    expect(isTransientDatabaseError(new Error("boom"))).toBe(false);
  }, 30_000);
});
