// Forks end to end on real SQLite and PostgreSQL, against the local fake provider in each API's wire format:
// fork with edits → the model's parallel calls become pending calls → answered from the recording, by hand and by
// a runtime's callback → Continue → the run ends; errors verbatim, usage stored, keys nowhere.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../http/app-error.ts";
import { startFakeProvider, type FakeProvider } from "../models/fake-provider.ts";
import { MODEL_APIS, type ModelApi } from "../models/schemas.ts";
import { createSeeder } from "../overview/test-seed.ts";
import { uniqueId } from "../testing/factories.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { getReplayTrace } from "../traces/replay-thread.ts";
import { compareThreads } from "../traces/compare-threads.ts";
import { answerForkCall, continueFork, createFork, getFork, getForkLinks, stopFork } from "./service.ts";
import { createForkSchema } from "./schemas.ts";

const KEY = "sk-fork-test-key-5f1e2d3c4b5a6978";
const WEATHER = {
  name: "get_weather",
  description: "Current weather",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected a rejection");
}

describe.each(testBackends())("forks on $provider", (backend) => {
  let t: TestDatabase;
  let fake: FakeProvider;
  let env: Record<string, string>;
  const original = uniqueId("original");

  beforeAll(async () => {
    t = await useTestDatabase(backend);
    fake = await startFakeProvider({ key: KEY });
    env = {
      TOOLSCOPE_MODELS: JSON.stringify([
        ...MODEL_APIS.map((api) => ({
          name: `fake-${api}`,
          api,
          baseUrl: fake.baseUrls[api],
          model: `model-${api}`,
          apiKeyEnv: "FAKE_PROVIDER_KEY",
          timeoutMs: 5000,
        })),
        {
          name: "keyless",
          api: "openai-chat",
          baseUrl: fake.baseUrls["openai-chat"],
          model: "model-keyless",
          apiKeyEnv: "UNSET_KEY_VARIABLE",
        },
      ]),
      FAKE_PROVIDER_KEY: KEY,
    };
    // The original run, live through the ingestion services: a question, two parallel weather calls, their results, an answer.
    const seed = createSeeder(t.database);
    const { recordEvents } = await import("../events/service.ts");
    const event = async (body: Record<string, unknown>) =>
      expect((await recordEvents({ group_id: original, ...body }, { database: t.database })).status).toBeLessThan(300);
    await event({ type: "message", role: "user", text: "Should I take an umbrella in Paris or Rome today?" });
    await event({
      type: "tool_call",
      id: "call_paris",
      name: "get_weather",
      arguments: '{"city":"Paris"}',
      declaration: WEATHER,
      step: 0,
    });
    await event({
      type: "tool_call",
      id: "call_rome",
      name: "get_weather",
      arguments: '{"city":"Rome"}',
      declaration: WEATHER,
      step: 0,
    });
    await seed.deliver({
      group_id: original,
      id: "call_paris",
      text: '{"city":"Paris","rain":true}',
      display_as: [{ type: "text", content: "Paris: rain" }],
    });
    await seed.deliver({ group_id: original, id: "call_rome", text: '{"city":"Rome","rain":false}' });
    await event({ type: "output_text", text: "Take an umbrella in Paris." });
  });
  afterAll(async () => {
    await fake.close();
    await t.cleanup();
  });

  const fork = (body: Record<string, unknown>) =>
    createFork({ groupId: original, input: createForkSchema.parse(body), database: t.database, env });
  const view = (groupId: string) => getFork({ groupId, database: t.database, env });

  it.each(MODEL_APIS)(
    "forks at a step with an edited result, runs %s to the end with every kind of answer",
    async (api: ModelApi) => {
      const model = `model-${api}`;
      fake.enqueue(model, {
        text: "Let me check Paris again and Berlin.",
        toolCalls: [
          { id: api === "gemini" ? undefined : `${api}_a`, name: "get_weather", arguments: { city: "Paris" } },
          { id: api === "gemini" ? undefined : `${api}_b`, name: "get_weather", arguments: { city: "Berlin" } },
        ],
        usage: { input: 500, output: 40 },
      });
      const sentBefore = fake.requests.length;
      const created = await fork({
        step: 5,
        model: `fake-${api}`,
        edits: [{ call: "call_paris", text: '{"city":"Paris","rain":false,"note":"edited"}' }],
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        fork_of: original,
        at_step: 5,
        model: `fake-${api}`,
        api,
        status: "awaiting_results",
      });
      expect(created.body.turn).toMatchObject({
        ordinal: 1,
        status: "completed",
        toolCalls: 2,
        usage: { inputTokens: 500, outputTokens: 40, totalTokens: 540 },
      });
      expect(created.body.turn?.live.text).toBe("Let me check Paris again and Berlin.");
      const groupId = created.body.group_id;

      // What the model was sent: the original's history in this API's encoding, with the edit, and the tool declared.
      const sent = fake.requests.slice(sentBefore);
      expect(sent).toHaveLength(1);
      const sentJson = JSON.stringify(sent[0]?.body);
      expect(sentJson).toContain("Should I take an umbrella in Paris or Rome today?");
      expect(sentJson).toContain("edited");
      expect(sentJson).not.toContain('\\"rain\\":true');
      expect(sentJson).toContain("get_weather");
      expect(sentJson).not.toContain("Take an umbrella in Paris."); // step 5 stops before the final answer

      // The fork is a thread linked both ways; its pending calls are the model's two.
      expect((await getForkLinks({ groupId, database: t.database })).forkOf).toEqual({
        groupId: original,
        atStep: 5,
        exists: true,
      });
      expect((await getForkLinks({ groupId: original, database: t.database })).forks.map((f) => f.groupId)).toContain(
        groupId,
      );
      let state = await view(groupId);
      expect(state.calls.map((call) => [call.toolName, call.status, call.answeredBy])).toEqual([
        ["get_weather", "pending", null],
        ["get_weather", "pending", null],
      ]);
      const [paris, berlin] = state.calls;
      if (paris === undefined || berlin === undefined) throw new Error("expected two calls");
      expect(paris.recording).toMatchObject({ callKey: "call_paris" });
      expect(berlin.recording).toBeNull();
      expect(state.canContinue).toBe(false);
      expect(state.continueBlocked).toMatch(/pending calls/);
      expect(await rejection(continueFork({ groupId, wait: true, database: t.database, env }))).toMatchObject({
        code: "conflict",
      });

      // (a) from the recording: the original's own result for get_weather(Paris) — not the edited one.
      const fromRecording = await answerForkCall({
        groupId,
        callKey: paris.callKey,
        input: { from: "recording" },
        database: t.database,
      });
      expect(fromRecording).toMatchObject({
        answered_by: "recording",
        recorded_from: { group_id: original, id: "call_paris" },
      });
      // No recording of Berlin: refused with the reason; then (b) by hand.
      expect(
        (
          await rejection(
            answerForkCall({ groupId, callKey: berlin.callKey, input: { from: "recording" }, database: t.database }),
          )
        ).message,
      ).toMatch(/no recorded get_weather call/);
      await answerForkCall({
        groupId,
        callKey: berlin.callKey,
        input: { text: '{"city":"Berlin","rain":true}' },
        database: t.database,
      });
      expect(
        await rejection(
          answerForkCall({ groupId, callKey: berlin.callKey, input: { text: "again" }, database: t.database }),
        ),
      ).toMatchObject({ code: "conflict" });
      state = await view(groupId);
      expect(state.calls.map((call) => call.answeredBy)).toEqual(["recording", "manual"]);
      expect(state.calls[0]?.recordedFrom).toMatchObject({ groupId: original, callKey: "call_paris" });
      expect(state.calls[0]?.resultPreview).toContain('"rain":true');
      expect(state.canContinue).toBe(true);

      // Continue: the next turn carries both answers; the model answers without a tool, so the run is over.
      fake.enqueue(model, { text: "Umbrella for Paris and Berlin.", usage: { input: 650, output: 12 } });
      const next = await continueFork({ groupId, wait: true, database: t.database, env });
      expect(next.status).toBe(201);
      expect(next.body).toMatchObject({ status: "finished", turn: { ordinal: 2, status: "completed", toolCalls: 0 } });
      const secondRequest = JSON.stringify(fake.requests.at(-1)?.body);
      // A JSON string (OpenAI), a string in a block (Anthropic) or an object (Gemini): the hand-typed answer either way.
      expect(secondRequest).toMatch(/\\?"city\\?":\\?"Berlin\\?",\\?"rain\\?":true/);
      expect(secondRequest).toContain("Let me check Paris again and Berlin.");
      state = await view(groupId);
      expect(state.usage).toMatchObject({ inputTokens: 1150, outputTokens: 52, totalTokens: 1202 });
      expect(state.turns.map((turn) => turn.ordinal)).toEqual([1, 2]);
      expect(state.canContinue).toBe(false);
      expect((await rejection(continueFork({ groupId, wait: true, database: t.database, env }))).message).toMatch(
        /run is over/,
      );

      // The fork replays like any thread, in the target's encoding, with the model's turns in it.
      const replay = await getReplayTrace({ groupId, database: t.database });
      expect(replay.format).toBe(api);
      expect(replay.declarations.map((declaration) => declaration.name)).toEqual(["get_weather"]);
      expect(replay.events.at(-1)).toMatchObject({
        kind: "message",
        role: "assistant",
        text: "Umbrella for Paris and Berlin.",
      });

      // Compare: step-aligned, the first divergence is where the fork's model asked for Berlin.
      const comparison = await compareThreads({ a: original, b: groupId, database: t.database });
      expect(comparison.rows.map((row) => [row.verdict, row.a?.callKey ?? null, row.b?.origin ?? null])).toEqual([
        ["edited", "call_paris", "history"],
        ["same", "call_rome", "history"],
        ["only_b", null, "run"],
        ["only_b", null, "run"],
      ]);
      expect(comparison.firstDivergence).toBe(2);
      expect(comparison.forkPoint).toEqual({ side: "b", atStep: 5, lastHistoryRow: 1 });
      expect(comparison.summary.edited).toBe(1);
    },
  );

  it("answers a fork request with the model's output masked, as the fork page shows it", async () => {
    const secret = "sk-ant-api03-" + "x".repeat(40);
    fake.enqueue("model-anthropic", { text: `Use the key ${secret} for the weather API.` });
    const created = await fork({ step: 5, model: "fake-anthropic" });
    const text = created.body.turn?.live.text ?? "";
    expect(text).toContain("Use the key sk-a…[masked");
    expect(JSON.stringify(created.body)).not.toContain(secret);
    expect(JSON.stringify(await view(created.body.group_id))).not.toContain(secret);
  });

  it("lets a runtime answer a fork's call through the callback, unchanged", async () => {
    fake.enqueue("model-openai-chat", {
      toolCalls: [{ id: "call_runtime", name: "get_weather", arguments: { city: "Oslo" } }],
    });
    const { body } = await fork({ step: 5, model: "fake-openai-chat" });
    const reply = await createSeeder(t.database).deliver({
      group_id: body.group_id,
      id: "call_runtime",
      text: "Oslo: snow",
    });
    expect(reply.status).toBe(200);
    const state = await view(body.group_id);
    expect(state.calls[0]).toMatchObject({ callKey: "call_runtime", status: "completed", answeredBy: "callback" });
    expect(state.canContinue).toBe(true);
  });

  it("stores a provider's error verbatim, and Continue sends the turn again", async () => {
    const error = {
      error: { message: "Rate limit reached for requests", type: "requests", code: "rate_limit_exceeded" },
    };
    fake.enqueue("model-anthropic", { error: { status: 429, body: error } });
    const created = await fork({ step: 5, model: "fake-anthropic" });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe("failed");
    expect(created.body.turn).toMatchObject({
      status: "failed",
      error: { httpStatus: 429, text: JSON.stringify(error) },
    });
    fake.enqueue("model-anthropic", { text: "Fine." });
    const retried = await continueFork({ groupId: created.body.group_id, wait: true, database: t.database, env });
    expect(retried.body).toMatchObject({ status: "finished", turn: { ordinal: 2, status: "completed" } });
    expect((await view(created.body.group_id)).completedTurns).toBe(1);
  });

  it("stops at the step limit", async () => {
    fake.enqueue("model-gemini", { toolCalls: [{ name: "get_weather", arguments: { city: "Lima" } }] });
    const created = await fork({ step: 5, model: "fake-gemini", max_turns: 1 });
    expect(created.body.status).toBe("step_limit");
    const state = await view(created.body.group_id);
    expect(state.continueBlocked).toMatch(/step limit \(1 model turns\)/);
    expect(state.calls[0]?.callKey).toBe("get_weather#2");
  });

  it("runs on the server without waiting, streams progress, and stops on request", async () => {
    fake.enqueue("model-openai-responses", { hang: true });
    const before = fake.requests.length;
    const created = await fork({ step: 5, model: "fake-openai-responses", wait: false });
    expect(created.status).toBe(202);
    expect(created.body.turn).toMatchObject({ status: "streaming" });
    await fake.waitForRequests(before + 1);
    expect((await view(created.body.group_id)).status).toBe("running");
    expect(await stopFork({ groupId: created.body.group_id, database: t.database })).toEqual({
      group_id: created.body.group_id,
      stopping: true,
    });
    for (let i = 0; i < 100 && (await view(created.body.group_id)).status === "running"; i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const state = await view(created.body.group_id);
    expect(state.status).toBe("cancelled");
    expect(state.turns[0]).toMatchObject({
      status: "cancelled",
      error: { text: "Stopped before the model finished answering" },
    });
  });

  it("refuses bad forks precisely, before writing anything", async () => {
    const threadsBefore = await t.database.client.thread.count();
    expect(await rejection(fork({ step: 5, model: "nope" }))).toMatchObject({ code: "invalid", path: "model" });
    expect((await rejection(fork({ step: 5, model: "keyless" }))).message).toBe(
      'The key for model target "keyless" is missing: set UNSET_KEY_VARIABLE on the server',
    );
    const pending = await rejection(fork({ step: 2, model: "fake-openai-chat" }));
    expect(pending).toMatchObject({ code: "invalid", path: "step" });
    expect(pending.message).toMatch(/"call_paris" has no result in the first 2 events/);
    expect(
      await rejection(fork({ step: 5, model: "fake-openai-chat", edits: [{ call: "call_x", text: "?" }] })),
    ).toMatchObject({ path: "edits[0].call" });
    expect(await rejection(fork({ step: 99, model: "fake-openai-chat" }))).toMatchObject({ path: "step" });
    expect(
      await rejection(
        createFork({
          groupId: "no-such-thread",
          input: createForkSchema.parse({ step: 1, model: "fake-openai-chat" }),
          database: t.database,
          env,
        }),
      ),
    ).toMatchObject({ code: "not_found" });
    expect(await t.database.client.thread.count()).toBe(threadsBefore);
    // A pending call at the step can be answered by an edit instead.
    fake.enqueue("model-openai-chat", { text: "ok" });
    const answered = await fork({ step: 2, model: "fake-openai-chat", edits: [{ call: "call_paris", text: "sunny" }] });
    expect(answered.body.status).toBe("finished");
  });

  it("fails a turn whose answer cannot be stored, instead of leaving it streaming", async () => {
    const settled = async (groupId: string) => {
      for (let i = 0; i < 100 && (await view(groupId)).status === "running"; i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      return view(groupId);
    };
    // A call id longer than any id Toolscope takes (512), a tool name with NUL (PostgreSQL refuses NUL in text).
    fake.enqueue("model-openai-chat", {
      toolCalls: [{ id: `call_${"x".repeat(600)}`, name: "get_weather", arguments: { city: "Paris" } }],
    });
    const longId = await fork({ step: 5, model: "fake-openai-chat" });
    expect(longId.body).toMatchObject({
      status: "failed",
      turn: {
        status: "failed",
        error: {
          text: expect.stringMatching(/^The answer could not be read as openai-chat: .*id is over 512 characters/),
        },
      },
    });
    fake.enqueue("model-anthropic", {
      toolCalls: [{ id: "toolu_nul", name: "get\u0000weather", arguments: { city: "Paris" } }],
    });
    const nulName = await fork({ step: 5, model: "fake-anthropic" });
    expect(nulName.body).toMatchObject({
      status: "failed",
      turn: { status: "failed", error: { text: expect.stringMatching(/name contains NUL/) } },
    });
    expect((await view(nulName.body.group_id)).canContinue).toBe(true);
    // An error body with NUL in it: kept, with the NUL written out.
    fake.enqueue("model-gemini", { error: { status: 500, body: "upstream said \u0000 and stopped" } });
    const nulError = await fork({ step: 5, model: "fake-gemini" });
    expect(nulError.body).toMatchObject({
      status: "failed",
      turn: { status: "failed", error: { httpStatus: 500, text: "upstream said \\u0000 and stopped" } },
    });
    // An id within 512 characters but over 1,024 UTF-8 bytes (3-byte characters that do not compress), beside a
    // thread id of 1,020 bytes: no PostgreSQL index entry could hold both, so it is refused like at every way in.
    const wide = (n: number) =>
      Array.from({ length: n }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7919) % 20000))).join("");
    fake.enqueue("model-openai-responses", {
      toolCalls: [{ id: wide(512), name: "get_weather", arguments: { city: "Paris" } }],
    });
    const wideFork = await fork({ step: 5, model: "fake-openai-responses", group_id: wide(340) });
    const state = await settled(wideFork.body.group_id);
    expect(state.turns[0]?.status).toBe("failed");
    expect(state.turns[0]?.error?.text).toMatch(/id is over 1024 bytes in UTF-8/);
  });

  it("fails a turn whose answer would add more rows than a turn keeps", async () => {
    const calls = Array.from({ length: 1001 }, (_, index) => ({
      id: `call_many_${index}`,
      name: "get_weather",
      arguments: { city: `City ${index}` },
    }));
    fake.enqueue("model-openai-chat", { toolCalls: calls });
    const created = await fork({ step: 5, model: "fake-openai-chat" });
    expect(created.body).toMatchObject({
      status: "failed",
      turn: {
        status: "failed",
        toolCalls: 0,
        error: {
          text: "The answer could not be read as openai-chat: the answer holds 1001 events (1001 tool calls); one model turn keeps at most 1000",
        },
      },
    });
    expect((await view(created.body.group_id)).calls).toEqual([]);
  });

  it("never stores the key: not in any row of any table", async () => {
    fake.enqueue("model-openai-chat", {
      error: { status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}` } } },
    });
    const created = await fork({ step: 5, model: "fake-openai-chat" });
    expect(created.body.turn?.error?.text).toBe(
      '{"error":{"message":"Incorrect API key provided: [API key redacted]"}}',
    );
    // A provider (or a proxy in front of it) that echoes the key into its answer: the fork's rows get it masked.
    fake.enqueue("model-anthropic", {
      text: `Echo: ${KEY}`,
      toolCalls: [{ id: `toolu_${KEY}`, name: "get_weather", arguments: { city: KEY } }],
    });
    const echoed = await fork({ step: 5, model: "fake-anthropic" });
    expect(echoed.body.turn).toMatchObject({ status: "completed", toolCalls: 1 });
    const replay = await getReplayTrace({ groupId: echoed.body.group_id, database: t.database });
    expect(replay.events.slice(-2)).toMatchObject([
      { kind: "message", text: "Echo: [API key redacted]" },
      { kind: "tool_call", callId: "toolu_[API key redacted]", arguments: { city: "[API key redacted]" } },
    ]);
    const tables = ["Thread", "ToolCall", "ToolResult", "Event", "Delivery", "ForkRun", "ModelTurn"];
    for (const table of tables) {
      const rows: unknown[] = await t.database.client.$queryRawUnsafe(`SELECT * FROM "${table}"`);
      expect(
        JSON.stringify(rows, (_key, value: unknown) =>
          typeof value === "bigint"
            ? Number(value)
            : value instanceof Uint8Array
              ? Buffer.from(value).toString("utf8")
              : value,
        ),
      ).not.toContain(KEY);
    }
    // …while every request to the provider did carry it.
    expect(fake.requests.every((request) => Object.values(request.headers).some((value) => value.includes(KEY)))).toBe(
      true,
    );
  });
});
