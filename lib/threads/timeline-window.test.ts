// Moving around inside one thread on real databases: windows before / around an event, search and filters,
// next / previous error, pending and low confidence, step N and call id — seeded through the public services.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordEvents } from "../events/service.ts";
import { acceptToolResult } from "../ingest/service.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { getTimelinePage, locateInThread } from "./service.ts";
import type { LocateQuery, TimelinePage } from "./schemas.ts";

const GROUP = "window-1";

async function event(body: unknown) {
  const reply = await recordEvents(body);
  expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
}

async function result(message: Record<string, unknown>) {
  const body = Buffer.from(JSON.stringify({ type: "tool_result", ...message }));
  const reply = await acceptToolResult({
    body,
    tooLarge: false,
    receivedBytes: body.length,
    contentType: "application/json",
    signature: { id: null, timestamp: null, signature: null },
    remoteAddress: null,
    receivedAt: new Date(),
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
}

const envelope = (success: boolean, confidence: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    success,
    data: { ok: success },
    confidence,
    nextAction: "continue",
    error: success ? null : { type: "bad", message: "no" },
    ...extra,
  });

/** Call keys of the page's call rows, in order. */
function keys(page: TimelinePage): string[] {
  const byId = new Map(page.calls.map((call) => [call.id, call.callKey]));
  return page.events.filter((e) => e.kind === "tool_call").map((e) => byId.get(e.callRowId ?? 0) ?? "?");
}

describe.each(testBackends())("thread windows and navigation on $provider", (backend) => {
  let t: TestDatabase;
  const locate = (query: LocateQuery) => locateInThread({ groupId: GROUP, query });

  beforeAll(async () => {
    t = await useTestDatabase(backend);
    // 40 calls, 4 per model step; every result is an envelope. c7 fails, c13 has confidence 0.2, c30 is
    // never answered (pending), c21 says "needle" in its result, and a runtime error event follows c25.
    const events: unknown[] = [{ type: "message", group_id: GROUP, role: "user", text: "Go." }];
    for (let i = 0; i < 40; i += 1) {
      events.push({
        type: "tool_call",
        group_id: GROUP,
        id: `c${i}`,
        name: i % 2 ? "get_weather" : "search_docs",
        arguments: { city: `city_${i}` },
        step: Math.floor(i / 4),
      });
      if (i === 25) events.push({ type: "error", group_id: GROUP, message: "tool runtime crashed", layer: "runtime" });
    }
    await event(events);
    for (let i = 0; i < 40; i += 1) {
      if (i === 30) continue;
      await result({
        group_id: GROUP,
        id: `c${i}`,
        text: envelope(i !== 7, i === 13 ? 0.2 : 0.9, i === 21 ? { data: { note: "a Needle here" } } : {}),
      });
    }
  }, 120_000);
  afterAll(async () => {
    await t.cleanup();
  });

  it("reads windows after, before and around an event, saying what lies on each side", async () => {
    const start = await getTimelinePage({ groupId: GROUP, after: 0, limit: 5 });
    expect(start).toMatchObject({ hasBefore: false, hasMore: true, matches: null });
    expect(start.firstEventId).toBe(start.events[0]?.id);

    const c20 = await locate({ call: "c20" });
    expect(c20.eventId).not.toBeNull();
    const around = await getTimelinePage({ groupId: GROUP, around: c20.eventId ?? 0, limit: 6 });
    expect(around.events).toHaveLength(6);
    expect(around.events[3]?.id).toBe(c20.eventId);
    expect(around).toMatchObject({ hasBefore: true, hasMore: true });

    const end = await getTimelinePage({ groupId: GROUP, before: 2_147_483_647, limit: 4 });
    expect(end.hasMore).toBe(false);
    expect(end.hasBefore).toBe(true);
    const earlier = await getTimelinePage({ groupId: GROUP, before: end.firstEventId, limit: 4 });
    expect(earlier.lastEventId).toBeLessThan(end.firstEventId);
    expect(earlier.hasMore).toBe(true);
  });

  it("filters rows: errors, pending, low confidence, calls, and a case-insensitive search in result text", async () => {
    const errors = await getTimelinePage({ groupId: GROUP, after: 0, only: "errors" });
    expect(errors.events.map((e) => e.kind)).toEqual(["tool_call", "error"]);
    expect(keys(errors)).toEqual(["c7"]);
    expect(errors.matches).toBe(2);
    expect(keys(await getTimelinePage({ groupId: GROUP, after: 0, only: "pending" }))).toEqual(["c30"]);
    expect(keys(await getTimelinePage({ groupId: GROUP, after: 0, only: "low_confidence" }))).toEqual(["c13"]);
    const calls = await getTimelinePage({ groupId: GROUP, after: 0, only: "calls", limit: 100 });
    expect(calls.matches).toBe(40);
    expect(calls.events.every((e) => e.kind === "tool_call")).toBe(true);
    const needle = await getTimelinePage({ groupId: GROUP, after: 0, q: "NEEDLE" });
    expect(keys(needle)).toEqual(["c21"]);
    expect((await getTimelinePage({ groupId: GROUP, after: 0, q: "city_3" })).matches).toBe(11); // city_3, city_30…39
    expect((await getTimelinePage({ groupId: GROUP, after: 0, q: "100%_" })).matches).toBe(0);
    const paged = await getTimelinePage({ groupId: GROUP, after: 0, q: "city_3", limit: 4 });
    expect(paged).toMatchObject({ hasMore: true, hasBefore: false });
    const next = await getTimelinePage({ groupId: GROUP, after: paged.lastEventId, q: "city_3", limit: 4 });
    expect(next.hasBefore).toBe(true);
    expect(keys(paged)).toEqual(["c3", "c30", "c31", "c32"]);
    expect(keys(next)).toEqual(["c33", "c34", "c35", "c36"]);
  });

  it("locates the next and previous error, pending and low-confidence rows, step N and a call", async () => {
    const c7 = await locate({ call: "c7" });
    const firstError = await locate({ target: "errors", direction: "next", from: 0 });
    expect(firstError).toEqual(c7);
    const runtime = await locate({ target: "errors", direction: "next", from: c7.eventId ?? 0 });
    expect(runtime.callRowId).toBeNull();
    expect((await locate({ target: "errors", direction: "next", from: runtime.eventId ?? 0 })).eventId).toBeNull();
    expect(await locate({ target: "errors", direction: "prev", from: runtime.eventId ?? 0 })).toEqual(c7);
    expect(await locate({ target: "pending" })).toEqual(await locate({ call: "c30" }));
    expect(await locate({ target: "low_confidence", direction: "prev" })).toEqual(await locate({ call: "c13" }));
    expect(await locate({ step: 5 })).toEqual(await locate({ call: "c20" }));
    expect((await locate({ step: 99 })).eventId).toBeNull();
    expect((await locate({ call: "nope" })).eventId).toBeNull();
    expect(await locate({ target: "match", q: "needle" })).toEqual(await locate({ call: "c21" }));
    const last = await locate({ target: "end" });
    // The last row, not the last event (a result is shown on its call's row).
    const end = await getTimelinePage({ groupId: GROUP, before: 2_147_483_647, limit: 50 });
    expect(last.eventId).toBe(end.events.filter((e) => e.kind !== "tool_result").at(-1)?.id);
    await expect(locate({ target: "match" })).rejects.toMatchObject({ code: "invalid" });
    await expect(locateInThread({ groupId: "no-such", query: { step: 1 } })).rejects.toMatchObject({
      code: "not_found",
    });
  });
});
