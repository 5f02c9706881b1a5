// Tool arguments and results that nest thousands of levels deep are stored verbatim; reading them back (the
// replay API, the replay page's view) must not overflow the stack. On both databases, through the routes.
import { describe, expect, it } from "vitest";
import * as callbackRoute from "../../app/api/callback/route.ts";
import * as eventsRoute from "../../app/api/events/route.ts";
import * as replayRoute from "../../app/api/threads/[groupId]/replay/route.ts";
import * as replayViewRoute from "../../app/api/threads/[groupId]/replay/view/route.ts";
import { MAX_JSON_DEPTH, parseJsonLossless } from "../formats/lossless-json.ts";
import { uniqueId } from "../testing/factories.ts";
import { LOOPBACK_ORIGIN, postJson, routeDatabase } from "../testing/routes.ts";
import { testBackends } from "../testing/test-databases.ts";

const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

it("parseJsonLossless reads JSON up to MAX_JSON_DEPTH levels and refuses deeper text as a SyntaxError", () => {
  expect(parseJsonLossless(nested(MAX_JSON_DEPTH))).toBeTypeOf("object");
  expect(() => parseJsonLossless(nested(MAX_JSON_DEPTH + 1))).toThrow(SyntaxError);
  expect(() => parseJsonLossless(`[${nested(MAX_JSON_DEPTH)}, 12345678901234567890]`)).toThrow(/deeper than/);
});

describe.each(testBackends())("deeply nested JSON on $provider", (backend) => {
  routeDatabase(backend);

  it("a 3,000-level argument and result replay (200, the arguments as their exact text), never a 500", async () => {
    const group = uniqueId("deep");
    const args = nested(3000);
    expect(
      (
        await postJson(eventsRoute, "/api/events", {
          type: "tool_call",
          group_id: group,
          id: "c1",
          name: "t",
          arguments: args,
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await postJson(callbackRoute, "/api/callback", {
          type: "tool_result",
          group_id: group,
          id: "c1",
          text: nested(3000),
        })
      ).status,
    ).toBe(200);
    const params = { params: Promise.resolve({ groupId: group }) };
    for (const vendor of ["anthropic", "openai-chat", "openai-responses", "gemini"]) {
      const replay = await replayRoute.GET(
        new Request(`${LOOPBACK_ORIGIN}/api/threads/${group}/replay?vendor=${vendor}`),
        params,
      );
      expect(replay.status, vendor).toBe(200);
      const view = await replayViewRoute.GET(
        new Request(`${LOOPBACK_ORIGIN}/api/threads/${group}/replay/view?vendor=${vendor}`),
        params,
      );
      expect(view.status, vendor).toBe(200);
    }
    const chat = await (
      await replayRoute.GET(
        new Request(`${LOOPBACK_ORIGIN}/api/threads/${group}/replay?vendor=openai-chat&part=request`),
        params,
      )
    ).text();
    expect(chat).toContain(JSON.stringify(args).slice(1, 200));
  });
});
