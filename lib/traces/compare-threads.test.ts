// Comparing a run with its re-run on real databases: alignment by tool name, JSON compared field by field.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueId } from "../testing/factories.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { compareTexts } from "./compare-threads.ts";
import { compareThreads, importTranscript, renderThreadHistory } from "./service.ts";

type ChatCall = { id: string; name: string; args: string; result: string };

function chatTranscript(calls: ChatCall[]): string {
  return JSON.stringify({
    messages: [
      { role: "user", content: "Plan the trip" },
      ...calls.flatMap((call) => [
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: call.id, type: "function", function: { name: call.name, arguments: call.args } }],
        },
        { role: "tool", tool_call_id: call.id, content: call.result },
      ]),
      { role: "assistant", content: "Done." },
    ],
  });
}

describe("compareTexts", () => {
  it("compares JSON pretty-printed and other text as is", () => {
    const json = compareTexts('{"city":"Paris","days":3}', '{"city":"Tokyo","days":3}', "arguments");
    expect(json).toMatchObject({ same: false, prettyJson: true, added: 1, removed: 1 });
    expect(json.diff).toContain('-  "city": "Paris",\n+  "city": "Tokyo",');
    expect(compareTexts("a", "a", "result")).toEqual({
      same: true,
      diff: null,
      added: 0,
      removed: 0,
      prettyJson: false,
    });
    // Only whitespace differs: pretty-printing hides it, the raw texts still say "not the same".
    expect(compareTexts('{"a":1}', '{ "a": 1 }', "arguments")).toMatchObject({ same: false, diff: null });
    expect(compareTexts(null, "x", "result")).toMatchObject({ same: false, diff: null });
  });
});

describe.each(testBackends())("comparing threads on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("aligns calls step by step and diffs arguments and results", async () => {
    const a = uniqueId("run");
    const b = uniqueId("rerun");
    await importTranscript({
      database: t.database,
      groupId: a,
      text: chatTranscript([
        { id: "call_1", name: "search_flights", args: '{"from":"CDG","to":"HND"}', result: '{"flights":2}' },
        { id: "call_2", name: "get_weather", args: '{"city":"Tokyo"}', result: "24 °C" },
        { id: "call_3", name: "book", args: '{"flight":"AF276"}', result: "booked" },
      ]),
    });
    await importTranscript({
      database: t.database,
      groupId: b,
      text: chatTranscript([
        { id: "call_1", name: "search_flights", args: '{"from":"CDG","to":"NRT"}', result: '{"flights":3}' },
        { id: "call_9", name: "get_exchange_rate", args: '{"pair":"EURJPY"}', result: "161.2" },
        { id: "call_2", name: "get_weather", args: '{"city":"Tokyo"}', result: "24 °C" },
      ]),
    });
    const comparison = await compareThreads({ a, b, database: t.database });
    expect(comparison.a).toMatchObject({ groupId: a, callCount: 3, shownCalls: 3, vendor: "openai-chat" });
    expect(
      comparison.rows.map((row) => [
        row.a?.toolName ?? null,
        row.b?.toolName ?? null,
        row.arguments.same,
        row.result.same,
      ]),
    ).toEqual([
      ["search_flights", "search_flights", false, false],
      [null, "get_exchange_rate", false, false],
      ["get_weather", "get_weather", true, true],
      ["book", null, false, false],
    ]);
    expect(comparison.rows[0]?.arguments.diff).toContain('-  "to": "HND"\n+  "to": "NRT"');
    expect(comparison.summary).toEqual({
      matched: 2,
      onlyA: 1,
      onlyB: 1,
      argumentsDiffer: 1,
      resultsDiffer: 1,
      edited: 0,
    });
    expect(comparison.rows.map((row) => row.verdict)).toEqual(["differs", "only_b", "same", "only_a"]);
    expect(comparison.firstDivergence).toBe(0);
    expect(comparison.forkPoint).toBeNull();
    const itself = await compareThreads({ a, b: a, database: t.database });
    expect(itself.firstDivergence).toBeNull();
  });

  it("answers 404 for an unknown thread", async () => {
    await expect(
      compareThreads({ a: uniqueId("missing"), b: uniqueId("missing"), database: t.database }),
    ).rejects.toMatchObject({ code: "not_found" });
  });

  it("renders the vendor history of a stored thread at a step", async () => {
    const groupId = uniqueId("replay");
    await importTranscript({
      database: t.database,
      groupId,
      text: chatTranscript([{ id: "call_1", name: "search_flights", args: '{"from":"CDG"}', result: "2 flights" }]),
    });
    const atCall = await renderThreadHistory({ groupId, vendor: "anthropic", step: 2, database: t.database });
    expect(atCall).toMatchObject({ group_id: groupId, step: 2, total: 4, pending_call_ids: ["call_1"] });
    expect(atCall.request).toEqual({
      messages: [
        { role: "user", content: [{ type: "text", text: "Plan the trip" }] },
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "call_1", name: "search_flights", input: { from: "CDG" } }],
        },
      ],
    });
    const all = await renderThreadHistory({ groupId, vendor: "openai-responses", database: t.database });
    expect(all).toMatchObject({ step: 4, total: 4, pending_call_ids: [] });
  });

  it("compares the model's text answers and says when only the first calls were compared", async () => {
    const a = uniqueId("answer-a");
    const b = uniqueId("answer-b");
    const call = { id: "call_1", name: "get_weather", args: '{"city":"Oslo"}', result: "3 °C" };
    await importTranscript({ database: t.database, groupId: a, text: chatTranscript([call]) });
    await importTranscript({
      database: t.database,
      groupId: b,
      text: chatTranscript([call]).replace('"content":"Done."', '"content":"Oslo is 3 °C: bring a coat."'),
    });
    const comparison = await compareThreads({ a, b, database: t.database });
    expect(comparison.rows.map((row) => row.verdict)).toEqual(["same"]);
    expect(comparison.firstDivergence).toBeNull();
    expect(comparison.truncated).toBe(false);
    expect(comparison.a.answerCount).toBe(1);
    expect(comparison.answers).toMatchObject({ same: false, added: 1, removed: 1 });
    expect(comparison.answers.diff).toContain("-Done.\n+Oslo is 3 °C: bring a coat.");
    const itself = await compareThreads({ a, b: a, database: t.database });
    expect(itself.answers).toMatchObject({ same: true, diff: null });
  });
});
