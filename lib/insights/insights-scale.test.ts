// Insights past the sizes where a query-parameter limit used to break the page (issue 13: 500 from ~1,000
// finished calls): thousands of finished calls, on every backend.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedBulk } from "../explorer/bulk-seed.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { DURATION_SAMPLE_LIMIT, getInsights } from "./service.ts";

const CALLS = 6_000;

describe.each(testBackends())("insights at scale on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
    await seedBulk(t.database, {
      calls: CALLS,
      callsPerThread: 100,
      prefix: "scale",
      start: new Date("2026-05-01T00:00:00Z"),
    });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("answers with more finished calls than any parameter limit, sampling the newest", async () => {
    const insights = await getInsights();
    // 95 of every 100 calls finished (2% pending or timed out... see bulk-seed): 5,700 > the sample limit.
    expect(insights.durationSampled).toBe(DURATION_SAMPLE_LIMIT);
    expect(insights.results.total).toBe(CALLS * 0.98);
    const samples = insights.slowestTools.reduce((sum, tool) => sum + tool.samples, 0);
    expect(samples).toBe(DURATION_SAMPLE_LIMIT);
    // Durations come from meta.durationMs, which bulk-seed sets below 6 s.
    for (const tool of insights.slowestTools) expect(tool.maxMs).toBeLessThan(6000);
    expect(insights.errorsByTool.reduce((sum, tool) => sum + tool.total, 0)).toBe(CALLS * 0.04);
  });
});
