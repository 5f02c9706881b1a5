// Storage basics on every backend: migrations apply and re-apply, large and awkward text round-trips.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testBackends, type TestDatabase } from "../testing/test-databases.ts";
import { applyMigrations } from "./migrate.ts";
import { resolveDatabaseTarget } from "./database-url.ts";
import { decodeStoredText, encodeStoredText } from "../results/text-codec.ts";

describe.each(testBackends())("database on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await backend.open();
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("applies nothing the second time", async () => {
    const report = await applyMigrations(resolveDatabaseTarget(t.url));
    expect(report.applied).toEqual([]);
    expect(report.total).toBeGreaterThan(0);
  });

  it("enforces one call per thread and id", async () => {
    const thread = await t.database.client.thread.create({ data: { groupId: "g-unique" }, select: { id: true } });
    const call = { threadId: thread.id, groupId: "g-unique", callKey: "c1", toolName: "t", registrationSha256: "x" };
    await t.database.client.toolCall.create({ data: call });
    await expect(t.database.client.toolCall.create({ data: call })).rejects.toMatchObject({ code: "P2002" });
  });

  it("stores a 5 MB text, NUL and lone surrogates exactly", async () => {
    const big = "x".repeat(5 * 1024 * 1024 - 7) + "\u0000\ud800\udfff\ud83d\ude00";
    const stored = encodeStoredText(big);
    const thread = await t.database.client.thread.create({ data: { groupId: "g-big" }, select: { id: true } });
    const event = await t.database.client.event.create({
      data: {
        threadId: thread.id,
        kind: "output_text",
        text: stored.stored,
        textEscaped: stored.escaped,
        source: "test",
      },
      select: { id: true },
    });
    const back = await t.database.client.event.findUniqueOrThrow({
      where: { id: event.id },
      select: { text: true, textEscaped: true },
    });
    expect(decodeStoredText(back.text ?? "", back.textEscaped)).toBe(big);
  });

  if (backend.provider === "sqlite") {
    it("runs SQLite in WAL mode with foreign keys on", async () => {
      const [mode] = await t.database.client.$queryRawUnsafe<{ journal_mode: string }[]>("PRAGMA journal_mode");
      const [fk] = await t.database.client.$queryRawUnsafe<{ foreign_keys: number | bigint }[]>("PRAGMA foreign_keys");
      expect(mode?.journal_mode).toBe("wal");
      expect(Number(fk?.foreign_keys)).toBe(1);
    });
  }
});
