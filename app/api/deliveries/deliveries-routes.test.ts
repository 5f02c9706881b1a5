// GET /api/deliveries, /api/deliveries/:id/body and /api/deliveries/:id/raw on a real database: parameters,
// error shape, and the exact bytes of a download.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSeeder } from "@/lib/overview/test-seed.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "@/lib/testing/test-databases.ts";
import { GET as listRoute } from "./route.ts";
import { GET as bodyRoute } from "./[id]/body/route.ts";
import { GET as rawRoute } from "./[id]/raw/route.ts";

const params = (id: string) => ({ params: Promise.resolve({ id }) });
const get = (path: string) => new Request(`http://127.0.0.1${path}`);

describe.each(testBackends())("deliveries routes on $provider", (backend) => {
  let t: TestDatabase;
  const body = Buffer.from(
    JSON.stringify({ type: "tool_result", group_id: "g-route", id: "nobody", text: "caf\u00e9 \u202E" }),
  );
  beforeAll(async () => {
    t = await useTestDatabase(backend);
    await createSeeder(t.database).deliver(null, { body });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it.each([
    ["/api/deliveries?outcome=exploded", 422, { code: "invalid", path: "outcome" }],
    ["/api/deliveries?cursor=yesterday", 422, { code: "invalid", path: "cursor" }],
    ["/api/deliveries?limit=0", 422, { code: "invalid", path: "limit" }],
  ])("GET %s answers %i with the one error shape", async (path, status, error) => {
    const response = await listRoute(get(path));
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ error: { ...error, message: expect.any(String) } });
  });

  it("lists with filters and answers the page DTO", async () => {
    const response = await listRoute(get("/api/deliveries?outcome=unknown_call&group=g-route"));
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const page = await response.json();
    expect(page).toMatchObject({
      filters: { outcome: "unknown_call", group: "g-route" },
      cursor: null,
      nextCursor: null,
      outcomeCounts: { unknown_call: 1 },
    });
    expect(page.items).toEqual([
      expect.objectContaining({
        outcome: "unknown_call",
        httpStatus: 404,
        groupId: "g-route",
        callKey: "nobody",
        toolCallId: null,
        threadExists: false,
        bodyBytes: body.length,
      }),
    ]);
  });

  it("serves a body as text and as the exact bytes", async () => {
    const [row] = (await (await listRoute(get("/api/deliveries?group=g-route"))).json()).items;
    const text = await (await bodyRoute(get(`/api/deliveries/${row.id}/body`), params(String(row.id)))).json();
    expect(text).toMatchObject({
      id: row.id,
      text: body.toString("utf8"),
      validUtf8: true,
      sha256Verified: true,
      truncatedAtReceipt: false,
    });

    const raw = await rawRoute(get(`/api/deliveries/${row.id}/raw`), params(String(row.id)));
    expect(raw.status).toBe(200);
    expect(raw.headers.get("content-type")).toBe("application/octet-stream");
    expect(raw.headers.get("content-disposition")).toBe(`attachment; filename="delivery-${row.id}.bin"`);
    expect(Buffer.from(await raw.arrayBuffer()).equals(body)).toBe(true);
  });

  it.each([
    ["abc", 422, "invalid"],
    ["0", 422, "invalid"],
    ["1e3", 422, "invalid"],
    ["0x10", 422, "invalid"],
    ["987654", 404, "not_found"],
  ])("GET /api/deliveries/%s/body answers %i", async (id, status, code) => {
    const response = await bodyRoute(get(`/api/deliveries/${id}/body`), params(id));
    expect(response.status).toBe(status);
    expect((await response.json()).error.code).toBe(code);
  });
});
