// Imported never passes for received (issue 9 point 4), on SQLite and PostgreSQL: a Toolscope export that
// plants an "accepted" delivery with an invented remote address, webhook id and back-dated time is imported;
// the audit log, the call detail and the API DTOs show it as imported (by whom, when), its observed-only
// fields as what the import reported, and the export still round-trips byte for byte.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCallDetail } from "../calls/service.ts";
import { listDeliveries } from "../deliveries/service.ts";
import { createSeeder } from "../overview/test-seed.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { exportThreadText, importTranscript } from "../traces/service.ts";

const FORGED = {
  remote_address: "203.0.113.66",
  webhook_id: "msg_forged_2Zc9",
  received_at: "2019-03-04T05:06:07.000Z",
};
const IMPORTED_AT = new Date("2026-05-01T12:00:00.000Z");

/** The export of `group` with its group id changed and every delivery claiming FORGED provenance. */
function forge(exported: string, group: string): string {
  return exported
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const record: Record<string, unknown> = JSON.parse(line);
      if (record.kind === "toolscope-export") record.group_id = group;
      if (record.kind === "delivery") Object.assign(record, FORGED);
      return `${JSON.stringify(record)}\n`;
    })
    .join("");
}

describe.each(testBackends())("import marks on $provider", (backend) => {
  let t: TestDatabase;
  let target: TestDatabase;
  let forged = "";
  beforeAll(async () => {
    t = await useTestDatabase(backend);
    target = await backend.open();
    const seed = createSeeder(t.database);
    await seed.call({ group_id: "live", id: "c1" });
    await seed.deliver({ group_id: "live", id: "c1", text: "observed" });
    forged = forge(await exportThreadText({ groupId: "live", database: t.database }), "planted");
    const reply = await importTranscript({
      text: forged,
      principal: { kind: "key", id: "k1", label: "ci-import", scope: "admin" },
      now: IMPORTED_AT,
      database: t.database,
    });
    expect(reply.status).toBe(201);
  });
  afterAll(async () => {
    await target.cleanup();
    await t.cleanup();
  });

  it("lists the planted delivery as imported, by whom and when, with the claimed fields only as reported", async () => {
    const page = await listDeliveries({ query: { group: "planted" }, database: t.database });
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({
      outcome: "accepted",
      origin: "imported",
      receivedAt: null,
      remoteAddress: null,
      webhookId: null,
      loggedAt: FORGED.received_at,
      imported: {
        at: IMPORTED_AT.toISOString(),
        by: "key:ci-import",
        reported: {
          receivedAt: FORGED.received_at,
          remoteAddress: FORGED.remote_address,
          webhookId: FORGED.webhook_id,
        },
      },
    });
  });

  it("keeps received deliveries as observed and filters the log by origin", async () => {
    const received = await listDeliveries({ query: { origin: "received" }, database: t.database });
    expect(received.items.map((row) => [row.groupId, row.origin, row.remoteAddress, row.imported])).toEqual([
      ["live", "received", "127.0.0.1", null],
    ]);
    expect(received.items[0]?.receivedAt).toBe(received.items[0]?.loggedAt);
    const imported = await listDeliveries({ query: { origin: "imported" }, database: t.database });
    expect(imported.items.map((row) => [row.groupId, row.origin])).toEqual([["planted", "imported"]]);
    expect(imported.outcomeCounts).toEqual({ accepted: 1 });
    expect(imported.filters).toEqual({ origin: "imported" });
  });

  it("shows the mark on the call page's deliveries too", async () => {
    const [row] = (await listDeliveries({ query: { group: "planted" }, database: t.database })).items;
    if (row?.toolCallId == null) throw new Error("the planted delivery names no call");
    const detail = await getCallDetail({ callRowId: row.toolCallId, database: t.database });
    expect(
      detail.deliveries.map((d) => [d.origin, d.remoteAddress, d.imported?.by, d.imported?.reported.remoteAddress]),
    ).toEqual([["imported", null, "key:ci-import", FORGED.remote_address]]);
  });

  it("exports the reported fields unchanged, and export → import → export stays byte-exact", async () => {
    const exported = await exportThreadText({ groupId: "planted", database: t.database });
    expect(exported).toBe(forged);
    await importTranscript({ text: exported, database: target.database });
    expect(await exportThreadText({ groupId: "planted", database: target.database })).toBe(exported);
    const [again] = (await listDeliveries({ query: {}, database: target.database })).items;
    expect(again).toMatchObject({ origin: "imported", imported: { by: "local" } });
    // Importing the same file again writes nothing and still answers 200.
    expect((await importTranscript({ text: exported, database: target.database })).status).toBe(200);
  });
});
