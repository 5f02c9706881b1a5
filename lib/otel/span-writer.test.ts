// Group commit (span-writer.ts) on every backend: concurrent export requests share one transaction, and when
// that transaction fails each request is retried alone, so only the request that cannot be stored is refused.
// Failures are injected by a wrapper that refuses chosen transactions of the real database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/client.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { SpanWriter } from "./span-writer.ts";
import { prepareSpans } from "./store-spans.ts";
import type { ReceivedSpan } from "./otlp-types.ts";

const origin = { resource: { attributes: { "service.name": "writer-test" } }, scope: { name: "test", attributes: {} } };

/** One trace: a model call requesting a tool and the tool's execution, in conversation `groupId`. */
function trace(groupId: string, n: number): ReceivedSpan[] {
  const traceId = `${n.toString(16).padStart(8, "0")}${"ab".repeat(12)}`;
  const base = { traceId, parentSpanId: null, kind: 1, events: [], links: [], status: { code: 0 } };
  const output = JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", id: `call-${n}`, name: "lookup", arguments: { n } }] }]);
  const start = String(BigInt(Date.now()) * 1_000_000n);
  return [
    { origin, span: { ...base, spanId: "1".repeat(16), name: "chat", startNs: start, endNs: start, attributes: { "gen_ai.operation.name": "chat", "gen_ai.conversation.id": groupId, "gen_ai.output.messages": output } } },
    { origin, span: { ...base, spanId: "2".repeat(16), name: "execute_tool lookup", startNs: start, endNs: start, attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.conversation.id": groupId, "gen_ai.tool.name": "lookup", "gen_ai.tool.call.id": `call-${n}`, "gen_ai.tool.call.result": `found ${n}` } } },
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
      return refuse.includes(calls) ? Promise.reject(new Error(`injected failure of transaction ${calls}`)) : database.driverTransaction(fn, options);
    },
  };
}

describe.each(testBackends())("OTLP group commit on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  const callsOf = (groupId: string) => t.database.client.toolCall.findMany({ where: { groupId }, select: { callKey: true, status: true } });

  it("stores concurrent requests in one transaction", async () => {
    const db = refusing(t.database, []);
    const writer = new SpanWriter(db);
    const groupId = `conv-writer-${Date.now()}`;
    const replies = await Promise.all([1, 2, 3].map((n) => writer.submit(prepareSpans(trace(groupId, n), new Date()))));
    expect(replies).toEqual([[], [], []]);
    expect(db.calls()).toBe(1);
    expect((await callsOf(groupId)).map((call) => `${call.callKey} ${call.status}`).sort()).toEqual(["call-1 completed", "call-2 completed", "call-3 completed"]);
  });

  it("retries a failed group request by request, refusing only the request that fails alone", async () => {
    // Transaction 1 is the group of three; 2 is the first request alone (refused); 3 and 4 the others.
    const db = refusing(t.database, [1, 2]);
    const writer = new SpanWriter(db);
    const groupId = `conv-writer-retry-${Date.now()}`;
    const outcomes = await Promise.allSettled([4, 5, 6].map((n) => writer.submit(prepareSpans(trace(groupId, n), new Date()))));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "fulfilled", "fulfilled"]);
    expect(db.calls()).toBe(4);
    expect((await callsOf(groupId)).map((call) => call.callKey).sort()).toEqual(["call-5", "call-6"]);
  });
});
