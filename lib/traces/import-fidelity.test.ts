// Import fidelity on real SQLite and PostgreSQL, from SDK-typed captures (issue 29): what the model read is the
// stored text of a document-only result; Gemini streamGenerateContent captures import like the other streams.
import type { MessageCreateParamsNonStreaming } from "@anthropic-ai/sdk/resources/messages";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { geminiChunks } from "../formats/fixtures/stream-captures.ts";
import { geminiRequest, PDF } from "../replay/fixtures/vendor-requests.ts";
import { uniqueId } from "../testing/factories.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { listThreads } from "../threads/service.ts";
import { replayQuerySchema } from "./schemas.ts";
import { getReplayTrace, importTranscript, renderThreadHistory } from "./service.ts";

const documentResults = {
  model: "claude-sonnet-4-5",
  max_tokens: 1024,
  messages: [
    { role: "user", content: "What does the inspection note say, and attach the report." },
    {
      role: "assistant",
      content: [
        { type: "tool_use", id: "toolu_note", name: "read_note", input: { site: "7" } },
        { type: "tool_use", id: "toolu_report", name: "fetch_report", input: { site: "7" } },
      ],
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_note",
          content: [
            {
              type: "document",
              source: { type: "text", media_type: "text/plain", data: "Hairline crack on pillar B, 3 mm wide." },
              title: "note-7.txt",
            },
          ],
        },
        {
          type: "tool_result",
          tool_use_id: "toolu_report",
          content: [
            {
              type: "document",
              source: { type: "base64", media_type: "application/pdf", data: PDF },
              title: "report-7.pdf",
            },
          ],
        },
      ],
    },
  ],
} satisfies MessageCreateParamsNonStreaming;

// A user message whose text came before the tool_result (Anthropic requires the result first).
const resultAfterText = {
  model: "claude-sonnet-4-5",
  max_tokens: 1024,
  messages: [
    { role: "user", content: "Look up site 7." },
    { role: "assistant", content: [{ type: "tool_use", id: "toolu_site", name: "lookup", input: { site: "7" } }] },
    {
      role: "user",
      content: [
        { type: "text", text: "Here is what it said:" },
        { type: "tool_result", tool_use_id: "toolu_site", content: "crack on pillar B" },
      ],
    },
  ],
} satisfies MessageCreateParamsNonStreaming;

describe.each(testBackends())("import fidelity on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("stores a document-only tool result as what the model read: the document's text, or a reference", async () => {
    const groupId = uniqueId("document-results");
    await importTranscript({ text: JSON.stringify(documentResults), groupId, database: t.database });
    const results = await t.database.client.toolResult.findMany({
      where: { toolCall: { thread: { groupId } } },
      orderBy: { id: "asc" },
      select: { text: true, toolCall: { select: { callKey: true } } },
    });
    expect(results.map((result) => [result.toolCall.callKey, result.text])).toEqual([
      ["toolu_note", "Hairline crack on pillar B, 3 mm wide."],
      ["toolu_report", "[document · report-7.pdf · application/pdf]"],
    ]);
    const trace = await getReplayTrace({ groupId, database: t.database });
    expect(trace.events.filter((event) => event.kind === "tool_result").map((event) => event.text)).toEqual([
      "Hairline crack on pillar B, 3 mm wide.",
      "[document · report-7.pdf · application/pdf]",
    ]);
    const found = await listThreads({ query: { q: "Hairline crack", in: "text" }, database: t.database });
    expect(found.threads.map((thread) => thread.groupId)).toContain(groupId);
  });

  it.each([
    ["a JSON array", JSON.stringify(geminiChunks)],
    ["JSONL", geminiChunks.map((chunk) => JSON.stringify(chunk)).join("\n")],
    ["SSE", geminiChunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join("")],
  ])("imports a Gemini streamGenerateContent capture given as %s", async (_kind, text) => {
    const groupId = uniqueId("gemini-stream");
    const reply = await importTranscript({ text, groupId, database: t.database });
    expect(reply.status).toBe(201);
    const calls = await t.database.client.toolCall.findMany({
      where: { thread: { groupId } },
      orderBy: { id: "asc" },
      select: { callKey: true, toolName: true, argumentsText: true, status: true },
    });
    expect(calls).toEqual([
      { callKey: "fc-paris", toolName: "get_weather", argumentsText: '{"city":"Paris"}', status: "pending" },
      { callKey: "fc-tokyo", toolName: "get_weather", argumentsText: '{"city":"Tokyo"}', status: "pending" },
    ]);
    const trace = await getReplayTrace({ groupId, database: t.database });
    expect(trace.events.map((event) => event.kind)).toEqual(["reasoning", "message", "tool_call", "tool_call"]);
  });

  it("replays in the thread's own encoding when no vendor is asked for", async () => {
    expect(replayQuerySchema.parse({}).vendor).toBeUndefined();
    const groupId = uniqueId("own-encoding");
    await importTranscript({ text: JSON.stringify(geminiRequest), groupId, database: t.database });
    const replay = await renderThreadHistory({ groupId, database: t.database });
    expect(replay.vendor).toBe("gemini");
    expect(replay.request).toHaveProperty("contents");
  });

  it("lists a tool_result sent ahead of the user text it followed in adjustments", async () => {
    const groupId = uniqueId("result-after-text");
    await importTranscript({ text: JSON.stringify(resultAfterText), groupId, database: t.database });
    const replay = await renderThreadHistory({ groupId, vendor: "anthropic", database: t.database });
    expect(replay.request).toMatchObject({
      messages: [
        {},
        {},
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_site" }, { type: "text" }] },
      ],
    });
    expect(replay.adjustments).toEqual([
      { index: expect.any(Number), change: expect.stringMatching(/tool_result for toolu_site .* sent first/) },
    ]);
  });
});
