// Importing vendor transcripts on real SQLite and PostgreSQL: rows like live ones, issues kept, replay equal to
// the parsed transcript, idempotent re-import, conflicts, precise errors, and a pinned export of an import.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CanonicalTrace } from "../formats/canonical.ts";
import { parseTranscriptText } from "../formats/detect.ts";
import { loadFixtureText } from "../formats/fixtures/load-fixture.ts";
import { AppError } from "../http/app-error.ts";
import { decodeStoredText } from "../results/text-codec.ts";
import { uniqueId } from "../testing/factories.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { compareThreads, exportThreadText, getReplayTrace, importTranscript, MAX_COMPARED_CALLS } from "./service.ts";

const FIXTURES = [
  "anthropic-parallel-weather.json",
  "openai-chat-parallel.json",
  "openai-responses-input.json",
  "openai-responses-response.json",
  "gemini-no-ids.json",
  "gemini-with-ids.json",
  "mcp-session.jsonl",
  "agent-stream-ailoy.jsonl",
];

const FIXED_TIME = new Date("2026-11-22T09:30:00.000Z");

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected the import to be rejected");
}

describe.each(testBackends())("importing transcripts on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await t.cleanup();
  });
  const importText = (text: string, options: Parameters<typeof importTranscript>[0] = {}) =>
    importTranscript({ text, database: t.database, ...options });
  const threadRows = async (groupId: string) => {
    const thread = await t.database.client.thread.findUniqueOrThrow({
      where: { groupId },
      select: { id: true, title: true, vendor: true },
    });
    const calls = await t.database.client.toolCall.findMany({ where: { threadId: thread.id }, orderBy: { id: "asc" } });
    const results = await t.database.client.toolResult.findMany({
      where: { toolCall: { threadId: thread.id } },
      orderBy: { id: "asc" },
    });
    const events = await t.database.client.event.findMany({ where: { threadId: thread.id }, orderBy: { id: "asc" } });
    return { thread, calls, results, events };
  };

  it.each(FIXTURES)("imports %s so that replay reads back exactly the parsed transcript", async (fixture) => {
    const text = loadFixtureText(fixture);
    const groupId = uniqueId("fixture");
    const reply = await importText(text, { groupId, name: fixture });
    expect(reply.status).toBe(201);
    const trace: CanonicalTrace = parseTranscriptText(text);
    expect(reply.body).toMatchObject({ group_id: groupId, format: trace.format, created: true });
    expect(reply.body.counts).toEqual({
      events: trace.events.length,
      calls: trace.events.filter((event) => event.kind === "tool_call").length,
      results: reply.body.counts.results,
      deliveries: 0,
      issues: trace.issues.length,
    });
    expect(reply.body.issues).toEqual(trace.issues.map(({ path, message }) => ({ path, message })));

    const replay = await getReplayTrace({ groupId, database: t.database });
    expect(replay.events).toEqual(trace.events);
    expect(replay.declarations).toEqual(trace.declarations);
    expect(replay.format).toBe(trace.format);
    expect(replay.omitted).toEqual({
      import: 1,
      ...(trace.issues.length > 0 ? { import_issue: trace.issues.length } : {}),
    });
  });

  it("stores an Anthropic transcript like live calls: statuses, verbatim raw items, the orphan result unattached, issues kept", async () => {
    const text = loadFixtureText("anthropic-parallel-weather.json");
    const groupId = uniqueId("anthropic");
    await importText(text, { groupId, name: "weather.json" });
    const { thread, calls, results, events } = await threadRows(groupId);
    expect(thread).toMatchObject({ title: "weather.json", vendor: "anthropic" });
    expect(
      calls.map((call) => [call.callKey, call.toolName, call.status, call.step, call.callId, call.vendor]),
    ).toEqual([
      ["toolu_01A09q90qw90lq917835lq9", "get_weather", "completed", 0, null, "anthropic"],
      ["toolu_01B7pF3hXjq2vLkLmNo4RsTu", "get_weather", "completed", 0, null, "anthropic"],
      ["toolu_01CkT9wQz8RmYvE2sHd5FgJa", "get_local_time", "errored", 0, null, "anthropic"],
      ["toolu_01DmV6xNc3BqLr8tWy1ZpKeH", "render_map", "completed", 0, null, "anthropic"],
      ["toolu_01EqR4sTb7NwXc2VyHj9LmPd", "get_local_time", "completed", 1, null, "anthropic"],
    ]);
    expect(calls[0]?.argumentsText).toBe('{"location":"Paris, France","unit":"celsius"}');
    expect(JSON.parse(calls[0]?.declarationJson ?? "null")).toMatchObject({
      name: "get_weather",
      description: "Get the current weather for a city.",
    });
    expect(results.map((result) => [result.ordinal, result.isError, result.errorSource])).toEqual([
      [0, false, null],
      [0, false, null],
      [0, true, "error_prefix"],
      [0, false, null],
      [0, false, null],
    ]);
    expect(decodeStoredText(results[1]?.text ?? "", results[1]?.textEscaped ?? false)).toBe(
      '{"temp_c":24,"conditions":"sunny"}',
    );

    expect(events.map((event) => event.kind)).toEqual([
      "import",
      "message",
      "message",
      "reasoning",
      "message",
      "tool_call",
      "tool_call",
      "tool_call",
      "tool_call",
      "tool_result",
      "tool_result",
      "tool_result",
      "tool_result",
      "reasoning",
      "message",
      "tool_call",
      "tool_result",
      "tool_result",
      "message",
      "message",
      "import_issue",
    ]);
    expect(events.every((event) => event.source === "import")).toBe(true);
    const orphan = events[17];
    expect(orphan).toMatchObject({
      kind: "tool_result",
      toolCallId: null,
      resultId: null,
      text: '{"status":"late delivery from a cancelled run"}',
    });
    expect(JSON.parse(orphan?.dataJson ?? "{}")).toMatchObject({
      callId: "toolu_01ZzStaleResult4kQ8wP2mN",
      issue: "result for unknown call toolu_01ZzStaleResult4kQ8wP2mN",
    });
    expect(JSON.parse(orphan?.rawJson ?? "null")).toEqual({
      type: "tool_result",
      tool_use_id: "toolu_01ZzStaleResult4kQ8wP2mN",
      content: '{"status":"late delivery from a cancelled run"}',
    });
    expect(events[20]).toMatchObject({
      kind: "import_issue",
      text: "result for unknown call toolu_01ZzStaleResult4kQ8wP2mN",
    });
    expect(JSON.parse(events[20]?.dataJson ?? "{}")).toEqual({
      path: "messages[4].content[1]",
      message: "result for unknown call toolu_01ZzStaleResult4kQ8wP2mN",
    });
  });

  it("analyses MCP results like live ones: CallToolResult text, isError, outputSchema; protocol errors settle the call", async () => {
    const groupId = uniqueId("mcp");
    await importText(loadFixtureText("mcp-session.jsonl"), { groupId });
    const { calls, results } = await threadRows(groupId);
    const byKey = new Map(calls.map((call) => [call.callKey, call]));
    expect([...byKey.keys()]).toEqual(["mcp-2", "mcp-3", "mcp-4", "mcp-5", "mcp-6", "mcp-7"]);
    expect(byKey.get("mcp-6")?.status).toBe("errored");
    expect(byKey.get("mcp-7")?.status).toBe("pending");
    expect(byKey.get("mcp-2")?.outputSchemaJson).toContain('"temperature"');
    const weather = results.find((result) => result.toolCallId === byKey.get("mcp-2")?.id);
    expect(weather).toMatchObject({ isMcp: true, schemaStatus: "valid", isError: false });
    expect(JSON.parse(weather?.text ?? "{}")).toEqual({
      content: [{ type: "text", text: '{"temperature": 22.5, "conditions": "Partly cloudy", "humidity": 65}' }],
      structuredContent: { temperature: 22.5, conditions: "Partly cloudy", humidity: 65 },
    });
    const atlantis = results.find((result) => result.toolCallId === byKey.get("mcp-5")?.id);
    expect(atlantis).toMatchObject({ isMcp: true, isError: true, errorSource: "mcp" });
    expect(byKey.get("mcp-5")?.status).toBe("errored");
  });

  it("marks Gemini's synthetic ids, and uses the vendor's error key as the error source", async () => {
    const groupId = uniqueId("gemini");
    await importText(loadFixtureText("gemini-no-ids.json"), { groupId });
    const { calls, results, events } = await threadRows(groupId);
    expect(calls.map((call) => call.callKey)).toEqual(["get_weather#0", "get_weather#1", "get_local_time#2"]);
    const callEvents = events
      .filter((event) => event.kind === "tool_call")
      .map((event) => JSON.parse(event.dataJson ?? "{}"));
    expect(callEvents.every((data) => data.syntheticId === true)).toBe(true);
    const time = results.find((result) => result.toolCallId === calls[2]?.id);
    expect(time).toMatchObject({
      isError: true,
      errorSource: "error_key",
      text: '{"error":"time service unavailable (HTTP 503)"}',
    });
  });

  it("keeps invalid JSON arguments verbatim with the parse error", async () => {
    const groupId = uniqueId("chat");
    await importText(loadFixtureText("openai-chat-parallel.json"), { groupId });
    const { calls } = await threadRows(groupId);
    const broken = calls.find((call) => call.argumentsError !== null);
    expect(broken?.argumentsJson).toBeNull();
    expect(broken?.argumentsText).toBeTruthy();
  });

  it("answers a re-import of the same input like the first, writing nothing; other content under the id is a conflict", async () => {
    const text = loadFixtureText("openai-responses-input.json");
    const first = await importText(text);
    expect(first.status).toBe(201);
    expect(first.body.group_id).toMatch(/^import-openai-responses-[0-9a-f]{12}$/);
    const before = await t.database.client.event.count();
    const again = await importText(text);
    expect(again).toEqual({ status: 200, body: { ...first.body, created: false } });
    expect(await t.database.client.event.count()).toBe(before);

    const conflict = await rejection(
      importText(loadFixtureText("gemini-with-ids.json"), { groupId: first.body.group_id }),
    );
    expect(conflict.code).toBe("conflict");
    expect(conflict.message).toContain(first.body.group_id);
  });

  it("rejects malformed input naming the item and field, and writes nothing", async () => {
    const threads = await t.database.client.thread.count();
    const badId = JSON.stringify({
      messages: [{ role: "user", content: [{ type: "tool_result", tool_use_id: 7, content: "x" }] }],
    });
    const error = await rejection(importText(badId, { format: "anthropic" }));
    expect(error.code).toBe("invalid");
    expect(error.path).toBe("messages[0].content[0].tool_use_id");
    expect(error.message).toBe("messages[0].content[0].tool_use_id: expected a string, got number");

    const badLine = await rejection(
      importText('{"type":"output_text","role":"assistant","is_type_switched":true,"content":"hi"}\n{oops\n'),
    );
    expect(badLine.message).toMatch(/^line 2: invalid JSON on line 2/);
    const unknown = await rejection(importText('{"hello":"world"}'));
    expect(unknown.message).toMatch(/^cannot tell the transcript format/);
    const empty = await rejection(importText("   "));
    expect(empty.message).toBe("empty transcript");
    expect(await t.database.client.thread.count()).toBe(threads);
  });

  it("replays and compares threads larger than a database's bound-parameter limit", async () => {
    const messages: unknown[] = [{ role: "user", content: "Scan all the pages" }];
    for (let i = 0; i < 1300; i += 1) {
      messages.push({
        role: "assistant",
        content: null,
        tool_calls: [
          { id: `call_${i}`, type: "function", function: { name: "read_page", arguments: `{"page":${i}}` } },
        ],
      });
      messages.push({ role: "tool", tool_call_id: `call_${i}`, content: `page ${i}` });
    }
    const groupId = uniqueId("large");
    const reply = await importText(JSON.stringify({ messages }), { groupId });
    expect(reply.body.counts).toMatchObject({ calls: 1300, results: 1300 });
    const replay = await getReplayTrace({ groupId, database: t.database });
    expect(replay.events).toHaveLength(2601);
    expect(replay.events.at(-1)).toMatchObject({ kind: "tool_result", callId: "call_1299", text: "page 1299" });
    const comparison = await compareThreads({ a: groupId, b: groupId, database: t.database });
    expect(comparison.a).toMatchObject({ callCount: 1300, shownCalls: MAX_COMPARED_CALLS });
    expect(comparison.summary).toMatchObject({ matched: MAX_COMPARED_CALLS, argumentsDiffer: 0, resultsDiffer: 0 });
  });

  it("pins the export of an imported transcript byte for byte", async () => {
    const groupId = "golden-anthropic-parallel-weather";
    await importText(loadFixtureText("anthropic-parallel-weather.json"), {
      groupId,
      name: "anthropic-parallel-weather.json",
      now: FIXED_TIME,
    });
    const exported = await exportThreadText({ groupId, database: t.database });
    await expect(exported).toMatchFileSnapshot("fixtures/golden/anthropic-parallel-weather.toolscope.jsonl");
  });
});
