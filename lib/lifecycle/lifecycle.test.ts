// Retention on both backends: whole threads go (calls, results, events, audit rows, OTel traces and spans,
// fork runs), with refused deliveries of no thread; nothing inside the retention window is touched, even
// while callbacks keep arriving during the prune; a dry run changes nothing; SQLite gives space back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordEvents } from "../events/service.ts";
import { acceptToolResult, CallbackWriter } from "../ingest/service.ts";
import { decodeJsonExport } from "../otel/otlp-json.ts";
import { acceptTraceExport } from "../otel/service.ts";
import { rawDelivery } from "../testing/factories.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { rowsPerTable, spaceFacts, usedBytes } from "./repository.ts";
import { prune } from "./service.ts";
import { storageReport } from "./storage.ts";

const DAY = 86_400_000;

function otlpExport(traceId: string, conversation: string): Uint8Array {
  const span = {
    traceId,
    spanId: "00f067aa0ba902b7",
    name: "execute_tool lookup",
    kind: 1,
    startTimeUnixNano: "1700000000000000000",
    endTimeUnixNano: "1700000000100000000",
    attributes: [
      { key: "gen_ai.operation.name", value: { stringValue: "execute_tool" } },
      { key: "gen_ai.conversation.id", value: { stringValue: conversation } },
      { key: "gen_ai.tool.name", value: { stringValue: "lookup" } },
      { key: "gen_ai.tool.call.id", value: { stringValue: `${conversation}-call` } },
      { key: "gen_ai.tool.call.result", value: { stringValue: "ok" } },
    ],
    status: { code: 1 },
  };
  return Buffer.from(
    JSON.stringify({
      resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: "test" }, spans: [span] }] }],
    }),
  );
}

describe.each(testBackends())("retention on $provider", (backend) => {
  let t: TestDatabase;
  let writer: CallbackWriter;
  const tables = async () => Object.fromEntries((await rowsPerTable(t.database.client)).map((r) => [r.table, r.rows]));

  async function seedThread(group: string, calls: number, ageDays: number) {
    const events = Array.from({ length: calls }, (_, i) => ({
      type: "tool_call",
      group_id: group,
      id: `c${i}`,
      name: "work",
      arguments: "x".repeat(200),
    }));
    await recordEvents([...events, { type: "output_text", group_id: group, text: "done" }], { database: t.database });
    for (let i = 0; i < calls; i++)
      await acceptToolResult(
        rawDelivery({ type: "tool_result", group_id: group, id: `c${i}`, text: `result ${i} ${"y".repeat(2000)}` }),
        writer,
      );
    await acceptToolResult(
      rawDelivery({ type: "tool_result", group_id: group, id: "nope", text: "unknown call" }),
      writer,
    );
    await acceptTraceExport({
      decoded: decodeJsonExport(
        otlpExport(
          group
            .padEnd(32, "0")
            .slice(0, 32)
            .replace(/[^0-9a-f]/g, "a"),
          group,
        ),
      ),
      database: t.database,
    });
    if (ageDays > 0) {
      const then = new Date(Date.now() - ageDays * DAY);
      await t.database.client.thread.update({ where: { groupId: group }, data: { lastActivityAt: then } });
      await t.database.client.delivery.updateMany({ where: { groupId: group }, data: { receivedAt: then } });
    }
  }

  beforeAll(async () => {
    t = await useTestDatabase(backend);
    writer = new CallbackWriter(async () => t.database);
    await seedThread("old-a", 30, 40);
    await seedThread("old-b", 5, 31);
    await seedThread("recent", 5, 2);
    // A refused delivery of no thread, old and new.
    await acceptToolResult(rawDelivery("{not json", { receivedAt: new Date(Date.now() - 50 * DAY) }), writer);
    await acceptToolResult(rawDelivery("{not json either"), writer);
  }, 120_000);
  afterAll(async () => {
    await t.cleanup();
  });

  it("a dry run lists the old threads and orphans and changes nothing", async () => {
    const before = await tables();
    const report = await prune({ database: t.database, days: 30, maxBytes: null, dryRun: true });
    expect(report.threads.map((th) => th.groupId)).toEqual(["old-a", "old-b"]);
    expect(report.orphans.Delivery).toBe(1);
    expect(await tables()).toEqual(before);
    const storage = await storageReport({ database: t.database });
    expect(storage.tables.find((row) => row.table === "ToolResult")?.rows).toBe(43); // 40 callbacks + one OTel tool span per thread
    expect(storage.database.bytes).toBeGreaterThan(0);
  });

  it("removes whole old threads in small steps while callbacks keep arriving, and nothing recent", async () => {
    const recentBefore = await t.database.client.thread.findUniqueOrThrow({
      where: { groupId: "recent" },
      include: { calls: { include: { results: true } }, events: true },
    });
    // Load during the prune: calls registered and answered in the recent thread, all acknowledged.
    let loading = true;
    const acknowledged: string[] = [];
    const load = (async () => {
      for (let i = 0; loading || i < 5; i++) {
        await recordEvents(
          { type: "tool_call", group_id: "recent", id: `live${i}`, name: "work" },
          { database: t.database },
        );
        const reply = await acceptToolResult(
          rawDelivery({ type: "tool_result", group_id: "recent", id: `live${i}`, text: `live ${i}` }),
          writer,
        );
        if (reply.status === 200) acknowledged.push(`live${i}`);
      }
    })();
    const report = await prune({ database: t.database, days: 30, maxBytes: null });
    loading = false;
    await load;

    expect(report.threads.map((th) => th.groupId)).toEqual(["old-a", "old-b"]);
    expect(report.deleted.ToolResult).toBe(35 + 2);
    expect(report.deleted.Delivery).toBe(35 + 2 + 1);
    expect(report.deleted.OtelSpan).toBe(2);
    const left = await t.database.client.thread.findMany({ select: { groupId: true } });
    expect(left.map((th) => th.groupId)).toEqual(["recent"]);
    for (const group of ["old-a", "old-b"]) {
      expect(await t.database.client.delivery.count({ where: { groupId: group } })).toBe(0);
      expect(await t.database.client.otelTrace.count({ where: { groupId: group } })).toBe(0);
    }
    // Everything of the recent thread is intact, and every acknowledged live result is stored.
    const recentAfter = await t.database.client.thread.findUniqueOrThrow({
      where: { groupId: "recent" },
      include: { calls: { include: { results: true } }, events: true },
    });
    for (const call of recentBefore.calls)
      expect(recentAfter.calls.find((c) => c.id === call.id)?.results).toEqual(call.results);
    expect(recentAfter.events.slice(0, recentBefore.events.length)).toEqual(recentBefore.events);
    expect(acknowledged.length).toBeGreaterThanOrEqual(5);
    for (const id of acknowledged) expect(recentAfter.calls.find((c) => c.callKey === id)?.resultCount).toBe(1);
    // The old refused delivery of no thread aged out; the new one stays.
    expect(await t.database.client.delivery.count({ where: { outcome: "malformed_json" } })).toBe(1);
    expect(await t.database.client.otelSpan.count()).toBe(1);
    expect(await t.database.client.otelScope.count()).toBe(1);
  }, 120_000);

  it("removes the oldest threads first to get under a size limit, and gives space back on SQLite", async () => {
    await seedThread("size-old", 40, 10);
    await seedThread("size-new", 2, 1);
    const space = await spaceFacts(t.database);
    const used = await usedBytes(t.database);
    const report = await prune({ database: t.database, days: null, maxBytes: used - 1000 });
    expect(report.threads.map((th) => th.groupId)).toEqual(["size-old"]);
    expect(report.threads[0]?.reason).toBe("size");
    expect(await t.database.client.thread.count({ where: { groupId: { in: ["recent", "size-new"] } } })).toBe(2);
    // Under the limit now: the next sweep removes nothing more (PostgreSQL's file does not shrink; the count does).
    expect(report.usedBytesAfter).toBeLessThan(used - 1000);
    expect((await prune({ database: t.database, days: null, maxBytes: used - 1000 })).threads).toEqual([]);
    if (backend.provider === "sqlite") {
      expect(space.autoVacuum).toBe("incremental");
      expect(report.vacuumedBytes).toBeGreaterThan(0);
      expect(report.usedBytesAfter).toBeLessThan(used);
    }
  }, 120_000);
});
