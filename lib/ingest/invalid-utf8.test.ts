// A JSON body that is not UTF-8, on every JSON way in, on a real database: refused as malformed JSON, never
// stored with U+FFFD in place of what was sent (an id or a result "stored byte-for-byte" would be another one).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as callbackRoute from "../../app/api/callback/route.ts";
import * as eventsRoute from "../../app/api/events/route.ts";
import * as otelRoute from "../../app/v1/traces/route.ts";
import { readAccessSettings, resetAccessSettings } from "../access/settings.ts";
import { setDatabase } from "../db/client.ts";
import { uniqueId } from "../testing/factories.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";

const ORIGIN = "http://127.0.0.1";

/** `json` with the bytes FF FE (never UTF-8) where "@@BAD@@" stands. */
function withBadBytes(json: string): Buffer {
  const [before, after, ...rest] = json.split("@@BAD@@");
  if (after === undefined || rest.length > 0) throw new Error("one @@BAD@@ marker expected");
  return Buffer.concat([Buffer.from(before ?? ""), Buffer.from([0xff, 0xfe]), Buffer.from(after)]);
}

const post = (route: { POST: (request: Request) => Promise<Response> }, path: string, body: Buffer) =>
  route.POST(new Request(`${ORIGIN}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: new Uint8Array(body) }));

describe.each(testBackends())("JSON bodies that are not UTF-8 on $provider", (backend) => {
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

  it("events: 400 malformed_json, nothing stored", async () => {
    const group = uniqueId("utf8");
    const answer = await post(eventsRoute, "/api/events", withBadBytes(JSON.stringify({ type: "tool_call", group_id: group, id: "call_@@BAD@@", name: "t" })));
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: { code: "malformed_json", message: expect.stringContaining("UTF-8") } });
    expect(await t.database.client.thread.count({ where: { groupId: group } })).toBe(0);
  });

  it("callback: 400 malformed_json, audited with the exact bytes; the result is not stored", async () => {
    const group = uniqueId("utf8");
    const registered = await eventsRoute.POST(
      new Request(`${ORIGIN}/api/events`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "tool_call", group_id: group, id: "c1", name: "t" }) }),
    );
    expect(registered.status).toBe(201);
    const body = withBadBytes(JSON.stringify({ type: "tool_result", group_id: group, id: "c1", text: "bad @@BAD@@ bytes" }));
    const answer = await post(callbackRoute, "/api/callback", body);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: { code: "malformed_json" } });
    expect(await t.database.client.toolResult.count({ where: { toolCall: { groupId: group } } })).toBe(0);
    const audited = await t.database.client.delivery.findFirst({ where: { outcome: "malformed_json" }, orderBy: { id: "desc" } });
    expect(Buffer.from(audited?.rawBody ?? new Uint8Array()).equals(body)).toBe(true);
  });

  it("OTLP/JSON: 400", async () => {
    const answer = await post(otelRoute, "/v1/traces", withBadBytes('{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"@@BAD@@"}}]},"scopeSpans":[]}]}'));
    expect(answer.status).toBe(400);
  });
});
