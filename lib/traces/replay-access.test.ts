// GET /api/threads/{g}/replay answers the thread's texts exact (credentials unmasked, as the vendor request needs
// them): like an export or a raw read, it leaves a row in the access log. On both databases, through the route.
import { describe, expect, it } from "vitest";
import * as eventsRoute from "../../app/api/events/route.ts";
import * as callbackRoute from "../../app/api/callback/route.ts";
import * as replayRoute from "../../app/api/threads/[groupId]/replay/route.ts";
import { listAccessRecords } from "../audit/service.ts";
import { uniqueId } from "../testing/factories.ts";
import { LOOPBACK_ORIGIN, postJson, routeDatabase } from "../testing/routes.ts";
import { testBackends } from "../testing/test-databases.ts";

const KEY = `sk-ant-api03-${"Q".repeat(80)}AA`;

describe.each(testBackends())("replay reads on $provider", (backend) => {
  const db = routeDatabase(backend);

  it("a replay request with the thread's exact texts is recorded in the access log, as an export is", async () => {
    const group = uniqueId("replay-log");
    expect(
      (await postJson(eventsRoute, "/api/events", { type: "tool_call", group_id: group, id: "c1", name: "get_key" }))
        .status,
    ).toBe(201);
    expect(
      (
        await postJson(callbackRoute, "/api/callback", {
          type: "tool_result",
          group_id: group,
          id: "c1",
          text: `the key is ${KEY}`,
        })
      ).status,
    ).toBe(200);

    const replay = await replayRoute.GET(
      new Request(`${LOOPBACK_ORIGIN}/api/threads/${group}/replay?vendor=anthropic&part=request`),
      { params: Promise.resolve({ groupId: group }) },
    );
    expect(replay.status).toBe(200);
    expect(await replay.text()).toContain(KEY);

    const records = await listAccessRecords({ target: `thread:${group}`, database: db().database });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      principal: "local",
      action: "raw",
      detail: expect.stringContaining("replay anthropic step"),
    });
  });
});
