// The trigger-kept tallies Insights reads equal the aggregates they replace (full scans), on every backend, after
// inserts, in-place updates of results and calls (OTLP span updates, fork rewrites, the deadline sweep) and
// cascading deletes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordEvents } from "../events/service.ts";
import { seedBulk } from "../explorer/bulk-seed.ts";
import { acceptToolResult } from "../ingest/service.ts";
import { decodeProtobufExport } from "../otel/otlp-proto.ts";
import { acceptTraceExport } from "../otel/service.ts";
import { runAiSdkToolLoop } from "../otel/testing/ai-sdk-run.ts";
import { rawDelivery, toolResultMessage, uniqueId } from "../testing/factories.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { NEXT_ACTIONS } from "../results/envelope.ts";
import { errorTypeOf, getInsights } from "./service.ts";
import { ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";

type Scanned = {
  total: number;
  withEnvelope: number;
  tenths: number[];
  outOfRange: number;
  nextActions: number[];
  errors: Record<string, number>;
  timedOut: Record<string, number>;
};

// What the page used to count live: every figure by a scan of the rows.
async function scan(t: TestDatabase): Promise<Scanned> {
  const db = t.database.client;
  const tenths = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      db.toolResult.count({ where: { confidence: { gte: i / 10, ...(i === 9 ? { lte: 1 } : { lt: (i + 1) / 10 }) } } }),
    ),
  );
  const errors: Record<string, number> = {};
  const rows = await db.toolCall.findMany({
    where: { resultIsError: true },
    select: { toolName: true, resultErrorType: true, resultErrorSource: true },
  });
  for (const row of rows) {
    const key = `${row.toolName} · ${errorTypeOf({ errorType: row.resultErrorType, errorSource: row.resultErrorSource })}`;
    errors[key] = (errors[key] ?? 0) + 1;
  }
  const timedOut: Record<string, number> = {};
  for (const row of await db.toolCall.findMany({ where: { status: "timed_out" }, select: { toolName: true } }))
    timedOut[row.toolName] = (timedOut[row.toolName] ?? 0) + 1;
  const total = await db.toolResult.count();
  return {
    total,
    withEnvelope: total - (await db.toolResult.count({ where: { envelopeKind: null } })),
    tenths,
    outOfRange: await db.toolResult.count({ where: { OR: [{ confidence: { lt: 0 } }, { confidence: { gt: 1 } }] } }),
    nextActions: await Promise.all(
      NEXT_ACTIONS.map((action) => db.toolResult.count({ where: { nextAction: action } })),
    ),
    errors,
    timedOut,
  };
}

async function fromTallies(): Promise<Scanned> {
  const insights = await getInsights();
  const errors: Record<string, number> = {};
  const timedOut: Record<string, number> = {};
  for (const tool of insights.errorsByTool) {
    for (const type of tool.types) {
      if (type.type === "deadline passed") timedOut[tool.toolName] = type.count;
      else errors[`${tool.toolName} · ${type.type}`] = type.count;
    }
  }
  return {
    total: insights.results.total,
    withEnvelope: insights.results.withEnvelope,
    tenths: insights.confidence.buckets.map((bucket) => bucket.count),
    outOfRange: insights.confidence.outOfRange,
    nextActions: insights.nextActions.map((action) => action.count),
    errors,
    timedOut,
  };
}

describe.each(testBackends())("insights tallies on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
    await seedBulk(t.database, {
      calls: 1_200,
      callsPerThread: 100,
      prefix: "tally",
      start: new Date("2026-05-01T00:00:00Z"),
    });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("match the scans after a bulk insert", async () => {
    const scanned = await scan(t);
    expect(scanned.total).toBeGreaterThan(1_000);
    expect(await fromTallies()).toEqual(scanned);
  });

  it("follow results and calls updated in place", async () => {
    const db = t.database.client;
    const results = await db.toolResult.findMany({ select: { id: true }, orderBy: { id: "asc" } });
    const every = (n: number) => results.filter((_, i) => i % n === 0).map((row) => row.id);
    await db.toolResult.updateMany({ where: { id: { in: every(7) } }, data: { confidence: 1.5 } });
    await db.toolResult.updateMany({
      where: { id: { in: every(11) } },
      data: { envelopeKind: null, nextAction: "stop" },
    });
    await db.toolResult.updateMany({ where: { id: { in: every(13) } }, data: { confidence: 0.3 } });
    await db.toolCall.updateMany({ where: { status: "pending" }, data: { status: "timed_out" } });
    const calls = await db.toolCall.findMany({ where: { resultIsError: false }, select: { id: true }, take: 40 });
    await db.toolCall.updateMany({
      where: { id: { in: calls.map((c) => c.id) } },
      data: { resultIsError: true, resultErrorType: "not_found", resultErrorSource: "envelope" },
    });
    await db.toolCall.updateMany({
      where: { id: { in: calls.slice(0, 10).map((c) => c.id) } },
      data: { toolName: "renamed_tool", resultErrorType: null },
    });
    const scanned = await scan(t);
    expect(scanned.outOfRange).toBeGreaterThan(0);
    expect(scanned.errors["renamed_tool · envelope failure (no type)"]).toBe(10);
    expect(await fromTallies()).toEqual(scanned);
  });

  it("follow calls and results written by callbacks (one group commit) and by OTLP exports", async () => {
    // The callback path writes the explorer columns with the call update, and OTLP ingest with the call insert;
    // the result trigger then skips those calls — the tallies must follow either way.
    const groupId = uniqueId("tally-live");
    const keys = ["ok", "failed", "envelope", "sub"];
    await recordEvents(
      keys.map((id) => ({ type: "tool_call", group_id: groupId, id, name: "deploy" })),
      { database: t.database },
    );
    const deliver = (message: Record<string, unknown>) =>
      acceptToolResult(rawDelivery(toolResultMessage({ group_id: groupId, ...message })));
    const replies = await Promise.all([
      deliver({ id: "ok", text: "deployed" }),
      deliver({ id: "failed", text: "Error: quota exceeded" }),
      deliver({
        id: "envelope",
        text: JSON.stringify({
          success: false,
          confidence: 0.2,
          nextAction: "retry",
          error: { type: "quota", message: "no" },
        }),
      }),
      deliver({ id: "sub", text: "tick 0", subscription: true }),
      deliver({ id: "sub", text: "tick 1" }),
    ]);
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200, 200]);
    const { spans } = await runAiSdkToolLoop({ mode: "otel", conversationId: uniqueId("tally-otel") });
    expect(
      await acceptTraceExport({
        decoded: decodeProtobufExport(ProtobufTraceSerializer.serializeRequest(spans) ?? new Uint8Array()),
        database: t.database,
      }),
    ).toBeNull();
    const scanned = await scan(t);
    expect(Object.keys(scanned.errors).some((key) => key.startsWith("deploy"))).toBe(true);
    expect(Object.keys(scanned.errors).some((key) => key.startsWith("flaky"))).toBe(true);
    expect(await fromTallies()).toEqual(scanned);
  });

  it("follow cascading deletes of a thread", async () => {
    const thread = await t.database.client.thread.findFirstOrThrow({
      where: { groupId: { startsWith: "tally" } },
      select: { id: true },
    });
    await t.database.client.thread.delete({ where: { id: thread.id } });
    const scanned = await scan(t);
    expect(await fromTallies()).toEqual(scanned);
  });
});
