// The threads list and timeline on real databases, seeded through the same services the API uses.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordEvents } from "../events/service.ts";
import { acceptToolResult } from "../ingest/service.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { importTranscript } from "../traces/import-transcript.ts";
import { getEventText, getThreadSummary, getTimelinePage, listThreads } from "./service.ts";
import { buildTimelineRows } from "./timeline-rows.ts";
import type { ThreadListQuery } from "./schemas.ts";

// Registrations carry their own occurred_at; a callback marks its thread active at commit time (now).
const BASE = Date.now() - 60 * 60_000;
const at = (minutes: number) => new Date(BASE + minutes * 60_000).toISOString();

async function event(body: unknown) {
  const reply = await recordEvents(body);
  expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
  return reply;
}

async function result(message: Record<string, unknown>, receivedAt = new Date()) {
  const body = Buffer.from(JSON.stringify({ type: "tool_result", ...message }));
  const reply = await acceptToolResult({
    body,
    tooLarge: false,
    receivedBytes: body.length,
    contentType: "application/json",
    signature: { id: null, timestamp: null, signature: null },
    remoteAddress: null,
    receivedAt,
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply;
}

describe.each(testBackends())("threads service on $provider", (backend) => {
  let t: TestDatabase;
  const list = (query: ThreadListQuery) => listThreads({ query });

  beforeAll(async () => {
    t = await useTestDatabase(backend);
    // alpha: a pending deploy; beta: a completed search; gamma: an errored call; delta: a runtime error event.
    await event({
      type: "tool_call",
      group_id: "alpha-1",
      id: "c1",
      name: "deploy_service",
      arguments: { env: "prod" },
      occurred_at: at(1),
    });
    await event({
      type: "tool_call",
      group_id: "beta-1",
      id: "c1",
      name: "search_docs",
      arguments: '{"q":"x"}',
      occurred_at: at(2),
    });
    await result({ group_id: "beta-1", id: "c1", text: "found the needle in a haystack" }, new Date(at(3)));
    await event({ type: "tool_call", group_id: "gamma-1", id: "c1", name: "search_docs", occurred_at: at(4) });
    await result({ group_id: "gamma-1", id: "c1", text: "Error: rate limited" }, new Date(at(5)));
    await event({ type: "error", group_id: "delta-1", message: "model refused", layer: "model", occurred_at: at(6) });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("lists threads by last activity with counts and tools", async () => {
    const page = await list({});
    expect(page.threads.map((thread) => thread.groupId)).toEqual(["gamma-1", "beta-1", "delta-1", "alpha-1"]);
    const beta = page.threads.find((thread) => thread.groupId === "beta-1");
    expect(beta?.counts).toEqual({
      calls: 1,
      pending: 0,
      errored: 0,
      timedOut: 0,
      results: 1,
      errorEvents: 0,
      errors: 0,
    });
    expect(beta?.tools).toEqual(["search_docs"]);
    expect(page.threads.find((thread) => thread.groupId === "gamma-1")?.counts.errored).toBe(1);
    expect(page.nextCursor).toBeNull();
    expect(page.prevCursor).toBeNull();
  });

  it.each<[string, ThreadListQuery, string[]]>([
    ["group id", { q: "alpha" }, ["alpha-1"]],
    ["tool name", { q: "search_d" }, ["gamma-1", "beta-1"]],
    ["result text only when asked", { q: "needle" }, []],
    ["result text", { q: "needle", in: "text" }, ["beta-1"]],
    ["status", { status: "pending" }, ["alpha-1"]],
    ["has errors (call or event)", { errors: "1" }, ["gamma-1", "delta-1"]],
    ["has pending", { pending: "1" }, ["alpha-1"]],
    ["time range", { range: "15m" }, ["gamma-1", "beta-1"]],
  ])("filters by %s", async (_name, query, expected) => {
    const page = await list(query);
    expect(page.threads.map((thread) => thread.groupId)).toEqual(expected);
  });

  it("pages with keyset cursors both ways", async () => {
    const first = await list({ limit: 3 });
    expect(first.threads.map((thread) => thread.groupId)).toEqual(["gamma-1", "beta-1", "delta-1"]);
    expect(first.nextCursor).not.toBeNull();
    const second = await list({ limit: 3, after: first.nextCursor ?? "" });
    expect(second.threads.map((thread) => thread.groupId)).toEqual(["alpha-1"]);
    expect(second.nextCursor).toBeNull();
    const back = await list({ limit: 3, before: second.prevCursor ?? "" });
    expect(back.threads.map((thread) => thread.groupId)).toEqual(["gamma-1", "beta-1", "delta-1"]);
    expect(back.prevCursor).toBeNull();
    await expect(list({ after: "garbage!" })).rejects.toMatchObject({ code: "invalid" });
  });

  it("pages a timeline by event id with call state, previews and parallel batches", async () => {
    const group = "timeline-1";
    const key = "sk-proj-abcdefghij0123456789ABCDEFGH";
    await event([
      { type: "message", group_id: group, role: "user", text: "Weather in Paris and Tokyo?", occurred_at: at(10) },
      {
        type: "tool_call",
        group_id: group,
        id: "w1",
        name: "get_weather",
        arguments: '{"city":"Paris"}',
        step: 1,
        occurred_at: at(11),
      },
      {
        type: "tool_call",
        group_id: group,
        id: "w2",
        name: "get_weather",
        arguments: { city: "Tokyo", token: key },
        step: 1,
        occurred_at: at(11),
      },
      { type: "output_text", group_id: group, text: `x${"y".repeat(3000)}`, occurred_at: at(12) },
    ]);
    await result({
      group_id: group,
      id: "w1",
      text: `Sunny, 21°C \u202E ${key}`,
      display_as: [{ type: "text", content: "Paris: sunny" }],
    });

    const page = await getTimelinePage({ groupId: group, after: 0, limit: 3 });
    expect(page.events.map((e) => e.kind)).toEqual(["message", "tool_call", "tool_call"]);
    expect(page.hasMore).toBe(true);
    const paris = page.calls.find((call) => call.callKey === "w1");
    expect(paris).toMatchObject({
      status: "completed",
      step: 1,
      resultCount: 1,
      argumentsPreview: '{"city":"Paris"}',
      argumentsIsJson: true,
    });
    expect(paris?.latestResult).toMatchObject({
      displayKind: "text",
      displayLabel: "Paris: sunny",
      invisibleCount: 1,
      secretCount: 1,
    });
    expect(paris?.latestResult?.preview).toContain("⟨U+202E⟩");
    expect(paris?.latestResult?.preview).not.toContain(key);
    expect(page.calls.find((call) => call.callKey === "w2")?.argumentsPreview).not.toContain(key);
    expect(buildTimelineRows(page.events).map((row) => row.kind)).toEqual(["event", "batch", "call", "call"]);

    const rest = await getTimelinePage({ groupId: group, after: page.lastEventId });
    expect(rest.events.map((e) => e.kind)).toEqual(["output_text", "tool_result"]);
    expect(rest.hasMore).toBe(false);
    const output = rest.events[0];
    expect(output?.textTruncated).toBe(true);
    expect(output?.text?.length).toBeLessThanOrEqual(1000);
    const full = await getEventText({ groupId: group, eventId: output?.id ?? 0 });
    expect(full.text).toHaveLength(3001);

    const empty = await getTimelinePage({ groupId: group, after: rest.lastEventId });
    expect(empty).toMatchObject({ events: [], hasMore: false, lastEventId: rest.lastEventId });
    await expect(getTimelinePage({ groupId: "no-such-thread" })).rejects.toMatchObject({ code: "not_found" });

    const summary = await getThreadSummary({ groupId: group });
    expect(summary).toMatchObject({ eventCount: 5, counts: { calls: 2, pending: 1, results: 1 } });
  });

  it("reads a 2,000-event page (calls, results, previews) within the drivers' parameter limits", async () => {
    const group = "wide-page";
    const calls = Array.from({ length: 1200 }, (_, i) => ({
      type: "tool_call",
      group_id: group,
      id: `c${i}`,
      name: "t",
      arguments: { i },
    }));
    for (let start = 0; start < calls.length; start += 600) await event(calls.slice(start, start + 600));
    await Promise.all(calls.map((call) => result({ group_id: group, id: call.id, text: `r ${call.id}` })));
    const page = await getTimelinePage({ groupId: group, after: 0, limit: 2000 });
    expect(page.events).toHaveLength(2000);
    expect(page.calls).toHaveLength(1200);
    expect(page.calls.every((call) => call.latestResult?.preview === `r ${call.callKey}`)).toBe(true);
  }, 120_000);
  it("shows the text of an imported result that matches no call", async () => {
    const transcript = [
      { role: "user", content: "hi" },
      { role: "tool", tool_call_id: "call_orphan", content: "orphan output text" },
    ];
    const imported = await importTranscript({
      text: JSON.stringify(transcript),
      format: "openai-chat",
      groupId: "orphan-1",
      database: t.database,
    });
    expect(imported.status).toBe(201);
    const page = await getTimelinePage({ groupId: "orphan-1", after: 0, limit: 50 });
    const orphan = page?.events.find((e) => e.kind === "tool_result");
    expect(orphan?.text).toBe("orphan output text");
  });
});
