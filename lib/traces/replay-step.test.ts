// The replay page's data at one step, on real databases: only the end of the history and the step list
// around N leave the server, masked, in the thread's own encoding unless another is asked for.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordEvents } from "../events/service.ts";
import { acceptToolResult } from "../ingest/service.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { defaultReplayVendor, getReplayStep } from "./replay-step.ts";

const GROUP = "replay-step-1";
const SECRET = "sk-proj-abcdefghij0123456789ABCDEFGH";

async function result(id: string, text: string) {
  const body = Buffer.from(JSON.stringify({ type: "tool_result", group_id: GROUP, id, text }));
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

describe.each(testBackends())("replay step view on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
    const events = [];
    for (let i = 0; i < 300; i += 1)
      events.push({
        type: "tool_call",
        group_id: GROUP,
        id: `c${i}`,
        name: "lookup",
        arguments: { i, pad: "p".repeat(300) },
        step: i,
        vendor: "openai-chat",
      });
    const reply = await recordEvents(events);
    expect(reply.status).toBeLessThan(300);
    for (let i = 0; i < 300; i += 1)
      await result(`c${i}`, i === 299 ? `last one, key ${SECRET}` : `r${i} ${"q".repeat(600)}`);
  }, 120_000);
  afterAll(async () => {
    await t.cleanup();
  });

  it("sends step 5 with the step list around it and its pending calls, in the thread's own encoding", async () => {
    const view = await getReplayStep({ groupId: GROUP, step: 5 });
    expect(view).toMatchObject({
      total: 600,
      step: 5,
      encoding: "openai-chat",
      defaultEncoding: "openai-chat",
      error: null,
    });
    expect(view.list[0]?.index).toBe(0);
    expect(view.list.at(-1)?.index).toBe(104);
    expect(view.history?.pending.map((call) => call.callId)).toEqual(["c0", "c1", "c2", "c3", "c4"]);
    expect(view.history?.json).toContain('"tool_calls"');
    expect(view.current?.path).toBeTruthy();
  });

  it("cuts the last step to the end of the history and masks secrets", async () => {
    const view = await getReplayStep({ groupId: GROUP, vendor: "anthropic" });
    expect(view).toMatchObject({ step: 600, encoding: "anthropic" });
    const history = view.history;
    // 300 parallel calls make one assistant turn and one user turn: the cut is by characters here, and only the
    // end was written (the characters before are not counted).
    expect(history?.hiddenChars).toBeNull();
    expect(history?.json.length).toBeLessThanOrEqual(100_000);
    expect(history?.json).toContain("last one, key");
    expect(history?.json).not.toContain(SECRET);
    expect(view.list).toHaveLength(100);
    expect(history?.renamedTotal).toBe(0);
    // At step 300 every call is pending: the page gets the first 100 and the count, not 300 badges.
    const open = await getReplayStep({ groupId: GROUP, step: 300 });
    expect(open.history?.pendingTotal).toBe(300);
    expect(open.history?.pending).toHaveLength(100);
    expect(JSON.stringify(view).length).toBeLessThan(300_000);
  });

  it("opens right after a call's result for ?call=", async () => {
    const view = await getReplayStep({ groupId: GROUP, call: "c2" });
    expect(view.step).toBe(303); // 300 calls, then the results of c0, c1, c2
    expect(view.history?.pendingTotal).toBe(297);
  });

  it('shows a live event\'s own record under "as recorded", never a bare null (it came without a vendor payload)', async () => {
    const call = await getReplayStep({ groupId: GROUP, step: 3 });
    expect(call.current).toMatchObject({ origin: "toolscope" });
    expect(call.current?.raw).not.toBe("null");
    expect(JSON.parse(call.current?.raw ?? "null")).toMatchObject({ kind: "tool_call", callId: "c2", name: "lookup" });
    const answer = await getReplayStep({ groupId: GROUP, step: 301 });
    expect(JSON.parse(answer.current?.raw ?? "null")).toMatchObject({ kind: "tool_result", callId: "c0" });
  });

  it("a new event is seen at once (the cached trace follows the thread)", async () => {
    await recordEvents({ type: "output_text", group_id: GROUP, text: "All done." });
    expect((await getReplayStep({ groupId: GROUP })).total).toBe(601);
  });

  it("defaults to the import format, then the vendor, then Anthropic", () => {
    expect(defaultReplayVendor("gemini-interactions", "openai-chat")).toBe("gemini");
    expect(defaultReplayVendor(null, "openai-responses")).toBe("openai-responses");
    expect(defaultReplayVendor("mcp", null)).toBe("anthropic");
  });
});
