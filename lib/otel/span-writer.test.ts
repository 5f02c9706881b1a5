// Group commit (span-writer.ts) on every backend: concurrent export requests share one transaction, and when
// that transaction fails each request is retried alone, so only the request that cannot be stored is refused.
// Failures are injected by a wrapper that refuses chosen transactions of the real database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/client.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { SpanWriter, splitPrepared } from "./span-writer.ts";
import { prepareSpans } from "./store-spans.ts";
import type { ReceivedSpan } from "./otlp-types.ts";

const origin = { resource: { attributes: { "service.name": "writer-test" } }, scope: { name: "test", attributes: {} } };

/** One trace: a model call requesting a tool and the tool's execution, in conversation `groupId`. */
function trace(groupId: string, n: number): ReceivedSpan[] {
  const traceId = `${n.toString(16).padStart(8, "0")}${"ab".repeat(12)}`;
  const base = { traceId, parentSpanId: null, kind: 1, events: [], links: [], status: { code: 0 } };
  const output = JSON.stringify([
    { role: "assistant", parts: [{ type: "tool_call", id: `call-${n}`, name: "lookup", arguments: { n } }] },
  ]);
  const start = String(BigInt(Date.now()) * 1_000_000n);
  return [
    {
      origin,
      span: {
        ...base,
        spanId: "1".repeat(16),
        name: "chat",
        startNs: start,
        endNs: start,
        attributes: {
          "gen_ai.operation.name": "chat",
          "gen_ai.conversation.id": groupId,
          "gen_ai.output.messages": output,
        },
      },
    },
    {
      origin,
      span: {
        ...base,
        spanId: "2".repeat(16),
        name: "execute_tool lookup",
        startNs: start,
        endNs: start,
        attributes: {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.conversation.id": groupId,
          "gen_ai.tool.name": "lookup",
          "gen_ai.tool.call.id": `call-${n}`,
          "gen_ai.tool.call.result": `found ${n}`,
        },
      },
    },
  ];
}

/** The real database, except that the transactions numbered in `refuse` (1-based) fail before doing anything. */
function refusing(database: Database, refuse: number[]): Database & { calls: () => number } {
  let calls = 0;
  return {
    ...database,
    calls: () => calls,
    driverTransaction: (fn, options) => {
      calls += 1;
      return refuse.includes(calls)
        ? Promise.reject(new Error(`injected failure of transaction ${calls}`))
        : database.driverTransaction(fn, options);
    },
  };
}

describe("splitPrepared", () => {
  const traceOf = (entry: { row: { traceId: string } }) => entry.row.traceId;

  it("keeps a request within the limits whole", () => {
    const prepared = prepareSpans(
      [1, 2, 3].flatMap((n) => trace("conv-split", n)),
      new Date(),
    );
    expect(splitPrepared(prepared, 4_000, 500)).toEqual([prepared]);
  });

  it("cuts a request by traces and by spans, each trace whole, in order", () => {
    const prepared = prepareSpans(
      [1, 2, 3, 4, 5].flatMap((n) => trace("conv-split", n)),
      new Date(),
    );
    const byTraces = splitPrepared(prepared, 4_000, 2);
    expect(byTraces.map((part) => part.entries.length)).toEqual([4, 4, 2]);
    expect(byTraces.flatMap((part) => part.entries)).toEqual(prepared.entries);
    // 3 spans a part at most: a two-span trace never shares a part with another.
    const bySpans = splitPrepared(prepared, 3, 500);
    expect(bySpans.map((part) => new Set(part.entries.map(traceOf)).size)).toEqual([1, 1, 1, 1, 1]);
    // Every part names the request's scopes; the request's duplicates are counted once.
    for (const part of byTraces) expect(part.scopes).toEqual(prepared.scopes);
    expect(byTraces.reduce((sum, part) => sum + part.duplicates, 0)).toBe(prepared.duplicates);
  });

  it("gives a trace larger than the span limit a part of its own", () => {
    const prepared = prepareSpans(
      [1, 2].flatMap((n) => trace("conv-split", n)),
      new Date(),
    );
    expect(splitPrepared(prepared, 1, 500).map((part) => part.entries.length)).toEqual([2, 2]);
  });
});

describe.each(testBackends())("OTLP group commit on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  const callsOf = (groupId: string) =>
    t.database.client.toolCall.findMany({ where: { groupId }, select: { callKey: true, status: true } });

  it("stores concurrent requests in one transaction", async () => {
    const db = refusing(t.database, []);
    const writer = new SpanWriter(db);
    const groupId = `conv-writer-${Date.now()}`;
    const replies = await Promise.all([1, 2, 3].map((n) => writer.submit(prepareSpans(trace(groupId, n), new Date()))));
    expect(replies).toEqual([[], [], []]);
    expect(db.calls()).toBe(1);
    expect((await callsOf(groupId)).map((call) => `${call.callKey} ${call.status}`).sort()).toEqual([
      "call-1 completed",
      "call-2 completed",
      "call-3 completed",
    ]);
  });

  it("retries a failed group request by request, refusing only the request that fails alone", async () => {
    // Transaction 1 is the group of three; 2 is the first request alone (refused); 3 and 4 the others.
    const db = refusing(t.database, [1, 2]);
    const writer = new SpanWriter(db);
    const groupId = `conv-writer-retry-${Date.now()}`;
    const outcomes = await Promise.allSettled(
      [4, 5, 6].map((n) => writer.submit(prepareSpans(trace(groupId, n), new Date()))),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "fulfilled", "fulfilled"]);
    expect(db.calls()).toBe(4);
    expect((await callsOf(groupId)).map((call) => call.callKey).sort()).toEqual(["call-5", "call-6"]);
  });

  it("stores a request over the per-transaction limits in parts, one transaction each, and answers once all are stored", async () => {
    const db = refusing(t.database, []);
    const writer = new SpanWriter(db, 4_000, 2);
    const groupId = `conv-writer-parts-${Date.now()}`;
    const reply = await writer.submit(
      prepareSpans(
        [11, 12, 13, 14, 15].flatMap((n) => trace(groupId, n)),
        new Date(),
      ),
    );
    expect(reply).toEqual([]);
    expect(db.calls()).toBe(3);
    expect((await callsOf(groupId)).map((call) => `${call.callKey} ${call.status}`).sort()).toEqual([
      "call-11 completed",
      "call-12 completed",
      "call-13 completed",
      "call-14 completed",
      "call-15 completed",
    ]);
  });

  it("fails a request whose part fails, and its retry stores every span once", async () => {
    const groupId = `conv-writer-parts-retry-${Date.now()}`;
    const spans = [21, 22, 23, 24, 25].flatMap((n) => trace(groupId, n));
    const failing = refusing(t.database, [2]);
    await expect(new SpanWriter(failing, 4_000, 2).submit(prepareSpans(spans, new Date()))).rejects.toThrow(
      "injected failure of transaction 2",
    );
    // The first and last parts were stored; the exporter's retry stores the rest, and nothing twice.
    expect((await callsOf(groupId)).map((call) => call.callKey).sort()).toEqual(["call-21", "call-22", "call-25"]);
    expect(await new SpanWriter(t.database, 4_000, 2).submit(prepareSpans(spans, new Date()))).toEqual([]);
    expect((await callsOf(groupId)).map((call) => `${call.callKey} ${call.status}`).sort()).toEqual([
      "call-21 completed",
      "call-22 completed",
      "call-23 completed",
      "call-24 completed",
      "call-25 completed",
    ]);
    const [spanRows] = await t.database.client.$queryRawUnsafe<{ n: number | bigint }[]>(
      `SELECT count(*) AS n FROM "OtelSpan" WHERE "spanJson" LIKE '%${groupId}%'`,
    );
    expect(Number(spanRows?.n ?? 0)).toBe(10);
  });
});
