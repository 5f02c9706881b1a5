// The audit log on every backend: newest-first cursor pages, filters, thread links, raw bodies as stored.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../results/hash.ts";
import { createSeeder } from "../overview/test-seed.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { getDeliveryBody, getDeliveryRawBytes, listDeliveries, parseDeliveryQuery } from "./service.ts";

const T0 = Date.parse("2026-02-01T09:00:00.000Z");

describe.each(testBackends())("deliveries on $provider", (backend) => {
  let t: TestDatabase;
  const xss = '<img src=x onerror="alert(1)"> \u202Egnp.exe';
  beforeAll(async () => {
    t = await useTestDatabase(backend);
    const seed = createSeeder(t.database);
    await seed.call({ group_id: "g1", id: "c1" });
    // Two deliveries share one receivedAt: the id must break the tie, so no page repeats or skips a row.
    await seed.deliver({ group_id: "g1", id: "c1", text: "first" }, { receivedAt: new Date(T0) });
    await seed.deliver({ group_id: "g1", id: "c1", text: "first" }, { receivedAt: new Date(T0 + 1000) });
    await seed.deliver({ group_id: "g1", id: "c1", text: "second" }, { receivedAt: new Date(T0 + 1000) });
    await seed.deliver({ group_id: "g1", id: "ghost", text: xss }, { receivedAt: new Date(T0 + 2000) });
    await seed.deliver({ group_id: "nowhere", id: "c9", text: "lost" }, { receivedAt: new Date(T0 + 3000) });
    await seed.deliver(null, { body: Buffer.from('{"type":"tool_result",'), receivedAt: new Date(T0 + 4000) });
    await seed.deliver(null, { body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), receivedAt: new Date(T0 + 5000) });
    await seed.deliver(null, { body: Buffer.from("x".repeat(2048)), tooLarge: true, receivedAt: new Date(T0 + 6000) });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("pages newest first with a cursor, without repeating or skipping", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page += 1) {
      const result = await listDeliveries({ query: { limit: 3, cursor } });
      seen.push(...result.items.map((d) => `${d.outcome}:${d.reason ?? ""}`.slice(0, 40)));
      if (!result.nextCursor) break;
      cursor = result.nextCursor;
    }
    expect(seen).toHaveLength(8);
    expect(seen[0]).toMatch(/^too_large/);
    expect(seen.slice(-3).map((s) => s.split(":")[0])).toEqual(["conflict", "duplicate", "accepted"]);
  });

  it("filters by outcome and by thread, and counts outcomes within the thread", async () => {
    const unknown = await listDeliveries({ query: { outcome: "unknown_call" } });
    expect(unknown.items.map((d) => [d.groupId, d.callKey, d.httpStatus])).toEqual([
      ["nowhere", "c9", 404],
      ["g1", "ghost", 404],
    ]);
    expect(unknown.items.map((d) => d.threadExists)).toEqual([false, true]);
    expect(unknown.items[0]?.reason).toBe('No registered call "c9" in thread "nowhere"');
    expect(unknown.filters).toEqual({ outcome: "unknown_call" });
    expect(unknown.nextCursor).toBeNull();

    const g1 = await listDeliveries({ query: { group: "g1" } });
    expect(g1.items).toHaveLength(4);
    expect(g1.outcomeCounts).toEqual({ accepted: 1, duplicate: 1, conflict: 1, unknown_call: 1 });
    const accepted = g1.items.find((d) => d.outcome === "accepted");
    expect(accepted).toMatchObject({
      toolCallId: expect.any(Number),
      resultId: expect.any(Number),
      threadExists: true,
      contentType: "application/json",
    });
  });

  it("returns a body as the exact stored text, hash verified", async () => {
    const [ghost] = (await listDeliveries({ query: { outcome: "unknown_call", group: "g1" } })).items;
    if (!ghost) throw new Error("seeded delivery missing");
    const body = await getDeliveryBody({ id: ghost.id });
    expect(JSON.parse(body.text)).toMatchObject({ text: xss });
    expect(body).toMatchObject({
      validUtf8: true,
      truncatedAtReceipt: false,
      sha256Verified: true,
      storedBytes: ghost.bodyBytes,
      shownBytes: ghost.bodyBytes,
    });
    expect(body.bodySha256).toBe(sha256Hex(Buffer.from(body.text)));
    const raw = await getDeliveryRawBytes({ id: ghost.id });
    expect(Buffer.from(raw.bytes).toString("utf8")).toBe(body.text);
  });

  it("marks invalid UTF-8 and bodies cut at the size limit", async () => {
    const items = (await listDeliveries({ query: {} })).items;
    const invalid = items.find((d) => d.bodyBytes === 4);
    const large = items.find((d) => d.outcome === "too_large");
    if (!invalid || !large) throw new Error("seeded deliveries missing");
    const invalidBody = await getDeliveryBody({ id: invalid.id });
    expect(invalidBody.validUtf8).toBe(false);
    expect(invalidBody.text).toBe("{\uFFFD\uFFFD}");
    const largeBody = await getDeliveryBody({ id: large.id });
    expect(largeBody).toMatchObject({
      truncatedAtReceipt: true,
      storedBytes: 2048,
      bodyBytes: 8192,
      sha256Verified: null,
    });
    expect(large.rawBodyTruncated).toBe(true);
  });

  it("answers not_found for a missing delivery", async () => {
    await expect(getDeliveryBody({ id: 999_999 })).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("delivery query", () => {
  it("rejects bad parameters on the API and drops them on the page", () => {
    expect(
      parseDeliveryQuery({ outcome: "unknown_call", group: ["g1", "g2"], cursor: "1700000000000.42" }, "strict").query,
    ).toEqual({
      outcome: "unknown_call",
      group: "g1",
      cursor: "1700000000000.42",
    });
    expect(() => parseDeliveryQuery({ outcome: "exploded" }, "strict")).toThrow(/outcome/);
    expect(() => parseDeliveryQuery({ cursor: "abc" }, "strict")).toThrow(/cursor/);
    expect(parseDeliveryQuery({ outcome: "exploded", group: "g1", cursor: "x" }, "lenient")).toEqual({
      query: { group: "g1" },
      ignored: ["outcome", "cursor"],
    });
  });
});
