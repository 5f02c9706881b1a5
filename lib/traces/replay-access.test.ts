// GET /api/threads/{g}/replay answers the thread's texts exact (credentials unmasked, as the vendor request needs
// them): like an export or a raw read, it leaves a row in the access log. On both databases, through the route.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as eventsRoute from "../../app/api/events/route.ts";
import * as callbackRoute from "../../app/api/callback/route.ts";
import * as replayRoute from "../../app/api/threads/[groupId]/replay/route.ts";
import { readAccessSettings, resetAccessSettings } from "../access/settings.ts";
import { listAccessRecords } from "../audit/service.ts";
import { setDatabase } from "../db/client.ts";
import { uniqueId } from "../testing/factories.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";

const ORIGIN = "http://127.0.0.1";
const KEY = `sk-ant-api03-${"Q".repeat(80)}AA`;

const postJson = (route: { POST: (request: Request) => Promise<Response> }, path: string, body: unknown) =>
  route.POST(new Request(`${ORIGIN}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));

describe.each(testBackends())("replay reads on $provider", (backend) => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await useTestDatabase(backend);
    setDatabase(t.database);
    resetAccessSettings(readAccessSettings({}));
  });
  afterAll(async () => {
    resetAccessSettings();
    await t.cleanup();
  });

  it("a replay request with the thread's exact texts is recorded in the access log, as an export is", async () => {
    const group = uniqueId("replay-log");
    expect((await postJson(eventsRoute, "/api/events", { type: "tool_call", group_id: group, id: "c1", name: "get_key" })).status).toBe(201);
    expect((await postJson(callbackRoute, "/api/callback", { type: "tool_result", group_id: group, id: "c1", text: `the key is ${KEY}` })).status).toBe(200);

    const replay = await replayRoute.GET(new Request(`${ORIGIN}/api/threads/${group}/replay?vendor=anthropic&part=request`), { params: Promise.resolve({ groupId: group }) });
    expect(replay.status).toBe(200);
    expect(await replay.text()).toContain(KEY);

    const records = await listAccessRecords({ target: `thread:${group}`, database: t.database });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ principal: "local", action: "raw", detail: expect.stringContaining("replay anthropic step") });
  });
});
