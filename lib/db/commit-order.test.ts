// Timeline ids become visible in id order: a transaction that took an earlier id commits before a later
// one can finish, on every backend. Live views poll "events after id N" and rely on it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "./sql.ts";
import { testBackends, type TestDatabase } from "../testing/test-databases.ts";

describe.each(testBackends())("commit order on $provider", (backend) => {
  let t: TestDatabase;
  let threadId = 0;
  beforeAll(async () => {
    t = await backend.open();
    threadId = (await t.database.client.thread.create({ data: { groupId: "order" }, select: { id: true } })).id;
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("does not let a later event id commit while an earlier one is still open", async () => {
    let releaseFirst = () => {};
    const firstHolds = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstInserted = () => {};
    const inserted = new Promise<void>((resolve) => (firstInserted = resolve));
    const first = t.database.transaction(async (tx) => {
      const row = await tx.event.create({
        data: { threadId, kind: "output_text", source: "test" },
        select: { id: true },
      });
      firstInserted();
      await firstHolds;
      return row.id;
    });
    await inserted;
    const second = t.database.transaction(
      async (tx) =>
        (await tx.event.create({ data: { threadId, kind: "output_text", source: "test" }, select: { id: true } })).id,
    );
    // Give the second transaction every chance to commit while the first is still open.
    const secondFinishedEarly = await Promise.race([
      second.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 300)),
    ]);
    releaseFirst();
    const [firstId, secondId] = await Promise.all([first, second]);
    expect(secondFinishedEarly).toBe(false);
    expect(secondId).toBeGreaterThan(firstId);
  });

  it("keeps the order between driver-connection transactions and Prisma ones", async () => {
    let releaseFirst = () => {};
    const firstHolds = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstInserted = () => {};
    const inserted = new Promise<void>((resolve) => (firstInserted = resolve));
    const first = t.database.driverTransaction(async (connection) => {
      const [row] = await connection.query<{ id: number | bigint }[]>(
        sql`INSERT INTO "Event" ("threadId", "kind", "source", "occurredAt") VALUES (${threadId}, ${"output_text"}, ${"test"}, ${new Date()}) RETURNING "id"`,
      );
      firstInserted();
      await firstHolds;
      return Number(row?.id);
    });
    await inserted;
    const second = t.database.transaction(
      async (tx) =>
        (await tx.event.create({ data: { threadId, kind: "output_text", source: "test" }, select: { id: true } })).id,
    );
    const secondFinishedEarly = await Promise.race([
      second.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 300)),
    ]);
    releaseFirst();
    const [firstId, secondId] = await Promise.all([first, second]);
    expect(secondFinishedEarly).toBe(false);
    expect(secondId).toBeGreaterThan(firstId);
    // The driver wrote DateTime as Prisma does: the row reads back through Prisma as a Date.
    const written = await t.database.client.event.findUniqueOrThrow({
      where: { id: firstId },
      select: { occurredAt: true },
    });
    expect(Math.abs(written.occurredAt.getTime() - Date.now())).toBeLessThan(60_000);
  });
});
