// GET /api/overview, /api/pending, /api/subscriptions and /api/insights on a real database: each answers its
// DTO, uncached, with the query parameters it accepts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSeeder } from "@/lib/overview/test-seed.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "@/lib/testing/test-databases.ts";
import { GET as overviewRoute } from "./route.ts";
import { GET as pendingRoute } from "../pending/route.ts";
import { GET as subscriptionsRoute } from "../subscriptions/route.ts";
import { GET as insightsRoute } from "../insights/route.ts";

const get = (path: string) => new Request(`http://127.0.0.1${path}`);

describe.each(testBackends())("dashboard routes on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
    const seed = createSeeder(t.database);
    await seed.call({ group_id: "g", id: "a", occurred_at: "2026-05-01T10:00:00.000Z" });
    await seed.call({ group_id: "g", id: "b", occurred_at: "2026-05-01T10:01:00.000Z" });
    await seed.call({ group_id: "g", id: "s", subscription: true, name: "watch" });
    await seed.call({ group_id: "g", id: "c" });
    await seed.deliver({ group_id: "g", id: "c", text: seed.envelope({ confidence: 0.3, nextAction: "ask_user" }) });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it.each([
    ["/api/pending", ["a", "b"]],
    ["/api/pending?sort=newest", ["b", "a"]],
  ])("GET %s lists pending calls in order", async (path, keys) => {
    const response = await pendingRoute(get(path));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.pending.calls.map((c: { callKey: string }) => c.callKey)).toEqual(keys);
    expect(body.subscriptions.items.map((s: { callKey: string }) => s.callKey)).toEqual(["s"]);
  });

  it("GET /api/pending?sort=sideways answers the one 422 naming the parameter", async () => {
    const response = await pendingRoute(get("/api/pending?sort=sideways"));
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: { code: "invalid", path: "sort", message: expect.stringContaining("sort") },
    });
  });

  it("GET /api/overview answers the figures", async () => {
    const response = await overviewRoute(get("/api/overview"));
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.json();
    expect(body.counts).toEqual({ threads: 1, calls: 4, results: 1, deliveries: 1 });
    expect(body.callsByStatus).toEqual({
      pending: 3,
      completed: 1,
      errored: 0,
      timed_out: 0,
      cancelled: 0,
      auth_required: 0,
    });
    expect(body.lowConfidence).toMatchObject({ total: 1, below: 0.5 });
    expect(body.pending.total).toBe(2);
  });

  it("GET /api/subscriptions answers both lists", async () => {
    const body = await (await subscriptionsRoute(get("/api/subscriptions"))).json();
    expect(body).toMatchObject({ active: { total: 1 }, cancelled: { total: 0, items: [] } });
  });

  it("GET /api/insights answers the charts' data", async () => {
    const body = await (await insightsRoute(get("/api/insights"))).json();
    expect(body.results).toEqual({ total: 1, withEnvelope: 1 });
    expect(body.confidence.buckets[3]).toEqual({ from: 0.3, to: 0.4, count: 1, band: "low" });
    expect(body.nextActions).toContainEqual({ action: "ask_user", count: 1 });
  });
});
