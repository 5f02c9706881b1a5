// A JSON body that is not UTF-8, on every JSON way in, on a real database: refused as malformed JSON, never
// stored with U+FFFD in place of what was sent (an id or a result "stored byte-for-byte" would be another one).
import { describe, expect, it } from "vitest";
import * as callbackRoute from "../../app/api/callback/route.ts";
import * as eventsRoute from "../../app/api/events/route.ts";
import * as otelRoute from "../../app/v1/traces/route.ts";
import { uniqueId } from "../testing/factories.ts";
import { postJson, routeDatabase } from "../testing/routes.ts";
import { testBackends } from "../testing/test-databases.ts";

/** `json` with the bytes FF FE (never UTF-8) where "@@BAD@@" stands. */
function withBadBytes(json: string): Buffer {
  const [before, after, ...rest] = json.split("@@BAD@@");
  if (after === undefined || rest.length > 0) throw new Error("one @@BAD@@ marker expected");
  return Buffer.concat([Buffer.from(before ?? ""), Buffer.from([0xff, 0xfe]), Buffer.from(after)]);
}

describe.each(testBackends())("JSON bodies that are not UTF-8 on $provider", (backend) => {
  const db = routeDatabase(backend);

  it("events: 400 malformed_json, nothing stored", async () => {
    const group = uniqueId("utf8");
    const answer = await postJson(
      eventsRoute,
      "/api/events",
      withBadBytes(JSON.stringify({ type: "tool_call", group_id: group, id: "call_@@BAD@@", name: "t" })),
    );
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({
      error: { code: "malformed_json", message: expect.stringContaining("UTF-8") },
    });
    expect(await db().database.client.thread.count({ where: { groupId: group } })).toBe(0);
  });

  it("callback: 400 malformed_json, audited with the exact bytes; the result is not stored", async () => {
    const group = uniqueId("utf8");
    const registered = await postJson(eventsRoute, "/api/events", {
      type: "tool_call",
      group_id: group,
      id: "c1",
      name: "t",
    });
    expect(registered.status).toBe(201);
    const body = withBadBytes(
      JSON.stringify({ type: "tool_result", group_id: group, id: "c1", text: "bad @@BAD@@ bytes" }),
    );
    const answer = await postJson(callbackRoute, "/api/callback", body);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: { code: "malformed_json" } });
    expect(await db().database.client.toolResult.count({ where: { toolCall: { groupId: group } } })).toBe(0);
    const audited = await db().database.client.delivery.findFirst({
      where: { outcome: "malformed_json" },
      orderBy: { id: "desc" },
    });
    expect(Buffer.from(audited?.rawBody ?? new Uint8Array()).equals(body)).toBe(true);
  });

  it("OTLP/JSON: 400", async () => {
    const answer = await postJson(
      otelRoute,
      "/v1/traces",
      withBadBytes(
        '{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"@@BAD@@"}}]},"scopeSpans":[]}]}',
      ),
    );
    expect(answer.status).toBe(400);
  });
});
