// Insights on every backend: confidence buckets and bands, nextAction counts, error types by tool, durations.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepTimedOutCalls } from "../calls/timeouts.ts";
import { createSeeder } from "../overview/test-seed.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { percentile } from "./percentile.ts";
import { DEADLINE_PASSED, durationOf, getInsights, summarizeDurations } from "./service.ts";

const T0 = Date.parse("2026-04-01T08:00:00.000Z");
const at = (ms: number) => new Date(T0 + ms);

describe.each(testBackends())("insights on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
    const seed = createSeeder(t.database);
    // Without meta.durationMs, so the wall-clock duration (receivedAt − occurred_at) is what gets measured.
    const meta = { toolName: "t", toolVersion: "1", traceId: "x", cached: false };
    let n = 0;
    const result = async (tool: string, text: string, durationMs: number) => {
      n += 1;
      await seed.call({ group_id: "g", id: `c${n}`, name: tool, occurred_at: at(n * 10_000).toISOString() });
      await seed.deliver({ group_id: "g", id: `c${n}`, text }, { receivedAt: at(n * 10_000 + durationMs) });
    };
    for (const confidence of [0.95, 1, 0.8, 0.79, 0.5, 0.49, 0, 1.7]) {
      await result(
        "search_docs",
        seed.envelope({ confidence, nextAction: confidence < 0.5 ? "ask_user" : "continue", meta }),
        100,
      );
    }
    await result(
      "search_docs",
      seed.envelope({
        success: false,
        confidence: 0,
        nextAction: "retry",
        error: { type: "timeout", message: "upstream", retryable: true },
        meta,
      }),
      100,
    );
    await result("deploy", "Error: permission denied for prod", 400);
    await result(
      "deploy",
      seed.envelope({
        success: false,
        confidence: 0,
        nextAction: "stop",
        error: { type: "permission_denied", message: "no", retryable: false },
        meta,
      }),
      400,
    );
    await result("get_weather", JSON.stringify({ content: [{ type: "text", text: "boom" }], isError: true }), 50);
    // meta.durationMs wins over the wall-clock duration.
    await result(
      "get_weather",
      seed.envelope({ meta: { toolName: "w", toolVersion: "1", traceId: "x", durationMs: 7, cached: true } }),
      5000,
    );
    await seed.call({ group_id: "g", id: "late", name: "deploy", occurred_at: at(0).toISOString(), timeout_ms: 1000 });
    await sweepTimedOutCalls({ now: at(60_000) });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("buckets confidences by tenths, each bucket one band, 1.0 in the top bucket", async () => {
    const { confidence, results } = await getInsights();
    const counts = Object.fromEntries(confidence.buckets.map((b) => [b.from.toFixed(1), b.count]));
    expect(counts).toEqual({
      "0.0": 3,
      "0.1": 0,
      "0.2": 0,
      "0.3": 0,
      "0.4": 1,
      "0.5": 1,
      "0.6": 0,
      "0.7": 1,
      "0.8": 1,
      "0.9": 3,
    });
    expect(confidence.buckets.map((b) => b.band)).toEqual([
      "low",
      "low",
      "low",
      "low",
      "low",
      "medium",
      "medium",
      "medium",
      "high",
      "high",
    ]);
    expect(confidence.outOfRange).toBe(1);
    expect(confidence.total).toBe(11);
    expect(confidence.bands.map((b) => [b.band, b.count])).toEqual([
      ["high", 4],
      ["medium", 2],
      ["low", 4],
    ]);
    expect(results).toEqual({ total: 13, withEnvelope: 11 });
  });

  it("counts every nextAction in the seed's order", async () => {
    const { nextActions } = await getInsights();
    expect(nextActions).toEqual([
      { action: "continue", count: 7 },
      { action: "retry", count: 1 },
      { action: "ask_user", count: 2 },
      { action: "human_review", count: 0 },
      { action: "stop", count: 1 },
    ]);
  });

  it("groups error types by tool, including calls whose deadline passed", async () => {
    const { errorsByTool, errorTypes } = await getInsights();
    expect(errorsByTool).toEqual([
      {
        toolName: "deploy",
        total: 3,
        types: expect.arrayContaining([
          { type: "permission_denied", count: 1 },
          { type: '"Error: " text', count: 1 },
          { type: DEADLINE_PASSED, count: 1 },
        ]),
      },
      { toolName: "get_weather", total: 1, types: [{ type: "MCP isError", count: 1 }] },
      { toolName: "search_docs", total: 1, types: [{ type: "timeout", count: 1 }] },
    ]);
    expect(errorTypes).toHaveLength(5);
  });

  it("reports p50/p95 per tool, slowest first, preferring meta.durationMs", async () => {
    const { slowestTools, durationSampled } = await getInsights();
    expect(durationSampled).toBe(13);
    expect(slowestTools.map((s) => [s.toolName, s.samples, s.p50Ms, s.p95Ms, s.fromMeta])).toEqual([
      ["deploy", 2, 400, 400, 0],
      ["search_docs", 9, 100, 100, 0],
      ["get_weather", 2, 7, 50, 1],
    ]);
  });
});

describe("durations", () => {
  it("uses nearest-rank percentiles", () => {
    const sorted = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(10);
    expect(percentile(sorted, 95)).toBe(19);
    expect(percentile([5], 95)).toBe(5);
    expect(percentile([], 50)).toBeNaN();
  });

  it("ignores negative wall-clock durations and bad meta", () => {
    const base = { toolName: "t", requestedAt: new Date(2000), finishedAt: new Date(1000) };
    expect(durationOf({ ...base, metaDurationMs: null })).toBeNull();
    expect(durationOf({ ...base, metaDurationMs: -5 })).toBeNull();
    expect(durationOf({ ...base, finishedAt: new Date(2500), metaDurationMs: null })).toBe(500);
    expect(summarizeDurations([{ ...base, metaDurationMs: null }], 5)).toEqual([]);
  });
});
