// The calls explorer on every backend: calls posted through the real ingestion services (so the ToolResult
// trigger fills the explorer columns and the full-text index as in production), plus a bulk seed for paging
// and for checking that every Insights bar drills into exactly the calls it counts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepTimedOutCalls } from "../calls/timeouts.ts";
import { AppError } from "../http/app-error.ts";
import { getInsights } from "../insights/service.ts";
import { createSeeder } from "../overview/test-seed.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { seedBulk } from "./bulk-seed.ts";
import { explorerQuerySchema, type ExplorerCall, type ExplorerQuery } from "./schemas.ts";
import { findCallsPage, findWalkEnd, type KeysetPosition } from "./repository.ts";
import { exploreCalls, getReplayStep } from "./service.ts";

const T0 = Date.parse("2026-04-01T08:00:00.000Z");
const at = (ms: number) => new Date(T0 + ms);
const BULK = 1_200;

const query = (values: Record<string, string> = {}): ExplorerQuery => explorerQuerySchema.parse(values);
const keys = (items: ExplorerCall[]) => items.map((item) => item.callKey);
async function all(values: Record<string, string>): Promise<ExplorerCall[]> {
  const items: ExplorerCall[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 500; pages++) {
    const page = await exploreCalls(query({ limit: "200", ...values, ...(cursor ? { cursor } : {}) }));
    items.push(...page.items);
    cursor = page.nextCursor;
    if (cursor === null) return items;
  }
  throw new Error("too many pages");
}

describe.each(testBackends())("calls explorer on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
    const seed = createSeeder(t.database);
    const meta = {
      toolName: "t",
      toolVersion: "1",
      traceId: "x",
      cached: false,
    };
    const call = (id: string, name: string, ms: number, extra: Record<string, unknown> = {}) =>
      seed.call({
        group_id: "live",
        id,
        name,
        occurred_at: at(ms).toISOString(),
        arguments: JSON.stringify({ target: `${id} zebracorn` }),
        ...extra,
      });
    await call("a", "deploy", 0, { vendor: "anthropic", timeout_ms: 600_000 });
    await seed.deliver(
      {
        group_id: "live",
        id: "a",
        text: seed.envelope({
          success: false,
          confidence: 0,
          nextAction: "retry",
          error: { type: "timeout", message: "slow upstream", retryable: true },
          meta,
        }),
      },
      { receivedAt: at(2500) },
    );
    await call("b", "deploy", 10_000, { vendor: "openai-chat" });
    await seed.deliver(
      { group_id: "live", id: "b", text: "Error: permission denied for prod" },
      { receivedAt: at(10_300) },
    );
    await call("c", "search_docs", 20_000);
    await seed.deliver(
      {
        group_id: "live",
        id: "c",
        text: seed.envelope({
          confidence: 0.3,
          nextAction: "ask_user",
          data: { note: "quokka habitat" },
          meta: { ...meta, durationMs: 42 },
        }),
      },
      { receivedAt: at(25_000) },
    );
    await call("d", "search_docs", 30_000);
    await seed.deliver(
      {
        group_id: "live",
        id: "d",
        text: seed.envelope({ confidence: 1.4, meta }),
      },
      { receivedAt: at(30_100) },
    );
    await call("e", "search_docs", 40_000, { timeout_ms: 1000 });
    await sweepTimedOutCalls({ now: at(50_000) });
    await seed.deliver(
      {
        group_id: "live",
        id: "e",
        text: seed.envelope({ confidence: 0.85, meta }),
      },
      { receivedAt: at(60_000) },
    );
    await call("f", "get_weather", 70_000);
    await seedBulk(t.database, {
      calls: BULK,
      callsPerThread: 50,
      prefix: "bulk",
      start: at(100_000_000),
    });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("keeps the explorer columns from the results, whoever wrote them", async () => {
    const items = await all({ thread: "live" });
    const byKey = Object.fromEntries(items.map((item) => [item.callKey, item]));
    expect(keys(items)).toEqual(["f", "e", "d", "c", "b", "a"]);
    expect(byKey.a).toMatchObject({
      status: "errored",
      latencyMs: 2500,
      errorType: "timeout",
      nextAction: "retry",
      confidence: 0,
      isError: true,
      verdict: { state: "failed", action: "retry", tone: "bad" },
    });
    expect(byKey.b).toMatchObject({
      latencyMs: 300,
      reportedMs: null,
      observedMs: 300,
      envelopeKind: null,
      isError: true,
      verdict: { state: "error" },
    });
    // meta.durationMs wins over the wall clock (5 s) for sorting; both are named in the item.
    expect(byKey.c).toMatchObject({
      latencyMs: 42,
      reportedMs: 42,
      observedMs: 5000,
      confidence: 0.3,
      verdict: { state: "low", action: "ask_user", band: "low" },
    });
    expect(byKey.d).toMatchObject({
      envelopeKind: "invalid",
      confidence: 1.4,
      verdict: { state: "invalid", band: null },
    });
    expect(byKey.e).toMatchObject({
      late: true,
      verdict: { state: "ok", band: "high" },
    });
    expect(byKey.e?.timedOutAt).not.toBeNull();
    expect(byKey.f).toMatchObject({
      status: "pending",
      latencyMs: null,
      reportedMs: null,
      observedMs: null,
      verdict: { state: "waiting" },
    });
  });

  it("filters by tool, status, error type, vendor, nextAction, envelope, late and timed out", async () => {
    const live = { thread: "live" };
    expect(keys(await all({ ...live, tool: "deploy" }))).toEqual(["b", "a"]);
    expect(keys(await all({ ...live, status: "errored" }))).toEqual(["b", "a"]);
    expect(keys(await all({ ...live, errorType: "timeout" }))).toEqual(["a"]);
    expect(keys(await all({ ...live, errorType: '"Error: " text' }))).toEqual(["b"]);
    expect(keys(await all({ ...live, vendor: "openai-chat" }))).toEqual(["b"]);
    expect(keys(await all({ ...live, nextAction: "ask_user" }))).toEqual(["c"]);
    expect(keys(await all({ ...live, envelope: "invalid" }))).toEqual(["d"]);
    expect(keys(await all({ ...live, envelope: "none" }))).toEqual(["b"]);
    expect(keys(await all({ ...live, late: "1" }))).toEqual(["e"]);
    expect(keys(await all({ ...live, timedOut: "1" }))).toEqual(["e"]);
  });

  it("filters by latency, confidence and time ranges", async () => {
    const live = { thread: "live" };
    expect(keys(await all({ ...live, latencyMin: "2000" }))).toEqual(["e", "a"]);
    expect(keys(await all({ ...live, latencyMin: "100", latencyMax: "2500" }))).toEqual(["d", "b", "a"]);
    expect(keys(await all({ ...live, confidenceMin: "0.5", confidenceBelow: "1" }))).toEqual(["e"]);
    expect(keys(await all({ ...live, confidenceBelow: "0.5" }))).toEqual(["c", "a"]);
    expect(
      keys(
        await all({
          ...live,
          from: at(10_000).toISOString(),
          to: at(40_000).toISOString(),
        }),
      ),
    ).toEqual(["d", "c", "b"]);
    // "Every failed deploy over 2 s": the issue's own example.
    expect(
      keys(
        await all({
          tool: "deploy",
          status: "errored",
          latencyMin: "2000",
          thread: "live",
        }),
      ),
    ).toEqual(["a"]);
  });

  it("searches arguments and result text through the full-text index", async () => {
    expect(keys(await all({ q: "zebracorn" }))).toEqual(["f", "e", "d", "c", "b", "a"]);
    expect(keys(await all({ q: "quokka" }))).toEqual(["c"]);
    expect(keys(await all({ q: "Quokka HABITAT" }))).toEqual(["c"]);
    expect(keys(await all({ q: "quokka zebracorn" }))).toEqual(["c"]);
    expect(keys(await all({ q: "permission denied", thread: "live" }))).toEqual(["b"]);
    expect(await all({ q: "quokka deploy_nowhere" })).toEqual([]);
    // A word from the bulk results (order_<i>) and from its arguments, combined with a filter.
    expect(keys(await all({ q: "order_77" }))).toEqual(["call_77"]);
    const word = await all({ q: "word_9", tool: "deploy" });
    expect(word.length).toBeGreaterThan(0);
    expect(word.every((item) => item.toolName === "deploy")).toBe(true);
    await expect(exploreCalls(query({ q: "%%%" }))).rejects.toThrow(AppError);
  });

  it("finds the same calls whichever query shape a word's frequency picks", async () => {
    const order = { column: "requestedAt", direction: "desc" } as const;
    for (const [word, filters] of [
      ["found", {}],
      ["found", { tool: "deploy" }],
      ["upstream", { status: "errored" }],
      ["order_77", {}],
      ["zebracorn", {}],
      ["quokka", {}],
    ] as const) {
      const page = (shape: "drive" | "probe") =>
        findCallsPage(t.database.client, t.database.provider, {
          filters: { ...filters, words: [{ word, shape }] },
          order,
          after: null,
          limit: 500,
        });
      const [drive, probe] = await Promise.all([page("drive"), page("probe")]);
      expect(probe.map((row) => row.id)).toEqual(drive.map((row) => row.id));
      expect(drive.length).toBeGreaterThan(0);
    }
  });

  it("bounds a probed search: pieces of the walk, a time box, a note, and a cursor that searches on", async () => {
    // Shrunk bounds: "quokka" counts as common (probed), the walk goes 100 calls at a time and stops after one piece.
    const searchLimits = { probeAbove: 0, pieceCalls: 100, timeBoxMs: 0 };
    const first = await exploreCalls(query({ q: "quokka" }), { searchLimits });
    expect(first.items).toEqual([]);
    expect(first.search).toEqual({
      words: [{ word: "quokka", matches: 0, more: true }],
      stoppedAfter: 100,
    });
    expect(first.nextCursor).not.toBeNull();
    // Following the cursor reaches the one match (call c, among the oldest) and then the end, with no repeats.
    const found: string[] = [];
    let cursor = first.nextCursor;
    let pages = 1;
    while (cursor !== null) {
      const page = await exploreCalls(query({ q: "quokka", cursor }), {
        searchLimits,
      });
      found.push(...page.items.map((item) => item.callKey));
      cursor = page.nextCursor;
      pages += 1;
      expect(pages).toBeLessThan(100);
    }
    expect(found).toEqual(["c"]);
    // Unbounded, the same search answers at once and says nothing about stopping.
    const whole = await exploreCalls(query({ q: "quokka" }));
    expect(whole.items.map((item) => item.callKey)).toEqual(["c"]);
    expect(whole.search?.stoppedAfter).toBeNull();
    expect(whole.search?.words[0]?.more).toBe(false);
  });

  it("walks in pieces to the same calls as one unbounded query", async () => {
    const order = { column: "requestedAt", direction: "desc" } as const;
    const filters = { words: [{ word: "found", shape: "probe" as const }] };
    const whole = await findCallsPage(t.database.client, t.database.provider, {
      filters,
      order,
      after: null,
      limit: 5000,
    });
    const pieces: number[] = [];
    let after: KeysetPosition | null = null;
    for (;;) {
      const piece = { filters, order, after };
      const rows = await findCallsPage(t.database.client, t.database.provider, {
        ...piece,
        limit: 5000,
        scan: 137,
      });
      pieces.push(...rows.map((row) => row.id));
      after = await findWalkEnd(t.database.client, t.database.provider, {
        ...piece,
        scan: 137,
      });
      if (after === null) break;
    }
    expect(pieces).toEqual(whole.map((row) => row.id));
    expect(pieces.length).toBeGreaterThan(500);
  });

  it.each([["newest"], ["oldest"], ["slowest"], ["fastest"], ["confidence_low"], ["confidence_high"]])(
    "pages through %s without gaps or repeats",
    async (sort) => {
      const items: ExplorerCall[] = [];
      let cursor: string | null = null;
      do {
        const page = await exploreCalls(query({ sort, limit: "97", ...(cursor ? { cursor } : {}) }));
        expect(page.items.length).toBeLessThanOrEqual(97);
        items.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor !== null);
      const ids = items.map((item) => item.id);
      expect(new Set(ids).size).toBe(ids.length);
      const value = (item: ExplorerCall) =>
        sort === "newest" || sort === "oldest"
          ? Date.parse(item.requestedAt)
          : sort.startsWith("confidence")
            ? item.confidence
            : item.latencyMs;
      const expected = [...items].sort((x, y) => {
        const [a, b] = [value(x) ?? 0, value(y) ?? 0];
        const desc = sort === "newest" || sort === "slowest" || sort === "confidence_high";
        return (desc ? b - a : a - b) || (desc ? y.id - x.id : x.id - y.id);
      });
      expect(ids).toEqual(expected.map((item) => item.id));
      const withValue = await t.database.client.toolCall.count({
        where:
          sort === "newest" || sort === "oldest"
            ? {}
            : sort.startsWith("confidence")
              ? { resultConfidence: { not: null } }
              : { latencyMs: { not: null } },
      });
      expect(items).toHaveLength(withValue);
    },
  );

  it("refuses a cursor from another sort", async () => {
    const first = await exploreCalls(query({ limit: "5" }));
    expect(first.nextCursor).not.toBeNull();
    await expect(exploreCalls(query({ sort: "slowest", cursor: first.nextCursor ?? "" }))).rejects.toThrow(/cursor/);
    await expect(exploreCalls(query({ cursor: "not-a-cursor" }))).rejects.toThrow(/cursor/);
  });

  it("drills into exactly what each Insights bar counts", async () => {
    const insights = await getInsights();
    for (const tool of insights.errorsByTool) {
      for (const type of tool.types) {
        const items = await all({ tool: tool.toolName, errorType: type.type });
        expect([tool.toolName, type.type, items.length]).toEqual([tool.toolName, type.type, type.count]);
      }
    }
    for (const action of insights.nextActions)
      expect((await all({ nextAction: action.action })).length).toBe(action.count);
  });

  it("finds the replay step that shows a call with its result", async () => {
    const items = await all({ thread: "live" });
    const c = items.find((item) => item.callKey === "c");
    const step = await getReplayStep({ callRowId: c?.id ?? 0 });
    // Timeline: a(call, result), b(call, result), c(call, result) → step 6 shows c's result.
    expect(step).toEqual({ groupId: "live", step: 6 });
  });
});
