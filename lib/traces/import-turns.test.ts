// Response metadata of imported transcripts on every backend (issue 29 item 6): an Anthropic stream's msg_ id,
// model, stop reason and usage (message_delta's final counts) become a model turn — a timeline row, the thread's
// token figures — kept in the export and written again by an import of that export.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropicStream } from "../formats/fixtures/stream-captures.ts";
import { getThreadSummary, getTimelinePage } from "../threads/service.ts";
import { uniqueId } from "../testing/factories.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { exportThreadText, getReplayTrace, importTranscript } from "./service.ts";

// As the API streams it: message_start counts the prompt and 1 output token; message_delta has the final count.
const stream = anthropicStream.map((event) =>
  event.type === "message_start"
    ? {
        ...event,
        message: {
          ...event.message,
          usage: { ...event.message.usage, input_tokens: 412, output_tokens: 1, cache_read_input_tokens: 300 },
        },
      }
    : event,
);

describe.each(testBackends())("model turns of imports on $provider", (backend) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await useTestDatabase(backend);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("keeps an Anthropic stream's id, model, stop reason and usage as a model turn, through export and re-import", async () => {
    const groupId = uniqueId("import-turn");
    await importTranscript({ text: JSON.stringify(stream), groupId, database: t.database });
    const page = await getTimelinePage({ groupId, database: t.database, limit: 100 });
    const turns = page.events.flatMap((event) => (event.turn ? [event.turn] : []));
    expect(turns).toHaveLength(1);
    expect(turns[0]).toMatchObject({
      source: "import",
      model: "claude-sonnet-4-5",
      responseId: "msg_01Stream",
      stopReason: "tool_use",
      // Anthropic's input_tokens leave out cache reads: the turn's input counts the whole prompt.
      inputTokens: 712,
      outputTokens: 96,
      cachedInputTokens: 300,
    });
    // The turn's row comes before the output it describes.
    expect(page.events.map((event) => event.kind).slice(0, 3)).toEqual(["import", "model_turn", "reasoning"]);
    const summary = await getThreadSummary({ groupId, database: t.database });
    expect(summary?.usage).toEqual({ inputTokens: 712, outputTokens: 96, cachedInputTokens: 300, reasoningTokens: 0 });
    // claude-sonnet-4-5: $3 input, $0.30 cache reads, $15 output per million tokens.
    expect(summary?.cost.usd).toBeCloseTo((412 * 3 + 300 * 0.3 + 96 * 15) / 1e6, 12);

    // Not part of what a model is sent: replay leaves the row out without calling it omitted history.
    const replay = await getReplayTrace({ groupId, database: t.database });
    expect(replay.omitted.model_turn).toBeUndefined();

    const exported = await exportThreadText({ groupId, database: t.database });
    expect(exported).toContain('"type":"model_turn"');
    expect(exported).toContain("msg_01Stream");
    const copy = uniqueId("import-turn-copy");
    await importTranscript({ text: exported, groupId: copy, database: t.database });
    const copied = await getThreadSummary({ groupId: copy, database: t.database });
    expect(copied?.modelTurns).toBe(1);
    expect(copied?.usage).toEqual(summary?.usage);
    expect(await exportThreadText({ groupId: copy, database: t.database })).toBe(
      exported.replaceAll(JSON.stringify(groupId), JSON.stringify(copy)),
    );
  });
});
