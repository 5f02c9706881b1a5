// The fork routes over their Next handlers on a real database, against the fake provider: statuses, the one
// error shape, Location, and no key in any answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeProvider, type FakeProvider } from "@/lib/models/fake-provider.ts";
import { createSeeder } from "@/lib/overview/test-seed.ts";
import { recordEvents } from "@/lib/events/service.ts";
import { uniqueId } from "@/lib/testing/factories.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "@/lib/testing/test-databases.ts";
import { GET as listForks, POST as postFork, PUT as putForks } from "./route.ts";
import { GET as getFork } from "../fork/route.ts";
import { POST as postContinue } from "../fork/continue/route.ts";
import { POST as postAnswer } from "../fork/calls/[callId]/answer/route.ts";
import { GET as getModels } from "../../../models/route.ts";

const KEY = "sk-routes-secret-8a7b6c5d4e3f";
const context = (params: Record<string, string>) => ({ params: Promise.resolve(params) });
const url = (path: string) => `http://127.0.0.1${path}`;
const post = (path: string, body: unknown, type = "application/json") =>
  new Request(url(path), {
    method: "POST",
    headers: { "content-type": type },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

describe.each(testBackends())("fork routes on $provider", (backend) => {
  let t: TestDatabase;
  let fake: FakeProvider;
  const saved = { models: process.env.TOOLSCOPE_MODELS, key: process.env.ROUTES_FAKE_KEY };
  const groupId = uniqueId("routes-original");
  const answers: string[] = [];
  const read = async (response: Response) => {
    const text = await response.text();
    answers.push(text);
    return JSON.parse(text);
  };

  beforeAll(async () => {
    t = await useTestDatabase(backend);
    fake = await startFakeProvider({ key: KEY });
    process.env.TOOLSCOPE_MODELS = JSON.stringify([
      {
        name: "fake",
        api: "openai-chat",
        baseUrl: fake.baseUrls["openai-chat"],
        model: "m",
        apiKeyEnv: "ROUTES_FAKE_KEY",
      },
    ]);
    process.env.ROUTES_FAKE_KEY = KEY;
    await recordEvents(
      { type: "message", group_id: groupId, role: "user", text: "Find the docs" },
      { database: t.database },
    );
    await recordEvents(
      { type: "tool_call", group_id: groupId, id: "c1", name: "search_docs", arguments: { q: "fork" } },
      { database: t.database },
    );
    await createSeeder(t.database).deliver({ group_id: groupId, id: "c1", text: "2 documents" });
  });
  afterAll(async () => {
    process.env.TOOLSCOPE_MODELS = saved.models;
    process.env.ROUTES_FAKE_KEY = saved.key;
    await fake.close();
    await t.cleanup();
    for (const answer of answers) expect(answer).not.toContain(KEY);
  });

  it.each([
    ["not JSON", "step=3", "text/plain", 415, { code: "unsupported_media_type" }],
    ["a bad step", { step: "three", model: "fake" }, "application/json", 422, { code: "invalid", path: "step" }],
    [
      "an unknown edit",
      { step: 3, model: "fake", edits: [{ call: "c1", colour: "red" }] },
      "application/json",
      422,
      { code: "invalid", path: "edits[0]" },
    ],
    // A malformed edit names the field of the shape it meant, not only "Invalid input".
    [
      "an edit with a text that is not a string",
      { step: 3, model: "fake", edits: [{ call: "c1", text: 5 }] },
      "application/json",
      422,
      { code: "invalid", path: "edits[0].text" },
    ],
    [
      "an insert without its role",
      { step: 3, model: "fake", edits: [{ insert: { after: 0, text: "hi" } }] },
      "application/json",
      422,
      { code: "invalid", path: "edits[0].insert.role" },
    ],
    ["an unknown target", { step: 3, model: "gpt-9" }, "application/json", 422, { code: "invalid", path: "model" }],
  ])("POST …/forks with %s answers %i", async (_label, body, type, status, error) => {
    const response = await postFork(post(`/api/threads/${groupId}/forks`, body, type), context({ groupId }));
    expect(response.status).toBe(status);
    expect(await read(response)).toEqual({ error: { ...error, message: expect.any(String) } });
  });

  it("forks (201, Location), reads, answers and continues over HTTP", async () => {
    fake.enqueue("m", {
      text: "Searching again.",
      toolCalls: [{ id: "call_x", name: "search_docs", arguments: { q: "fork" } }],
    });
    const created = await postFork(
      post(`/api/threads/${groupId}/forks`, { step: 3, model: "fake", group_id: `${groupId}-fork` }),
      context({ groupId }),
    );
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(`/api/threads/${groupId}-fork/fork`);
    expect(await read(created)).toMatchObject({
      group_id: `${groupId}-fork`,
      status: "awaiting_results",
      turn: { status: "completed", toolCalls: 1 },
    });

    const again = await postFork(
      post(`/api/threads/${groupId}/forks`, { step: 3, model: "fake", group_id: `${groupId}-fork` }),
      context({ groupId }),
    );
    expect(again.status).toBe(409);

    const fork = context({ groupId: `${groupId}-fork` });
    const state = await read(await getFork(new Request(url(`/api/threads/${groupId}-fork/fork`)), fork));
    expect(state.calls).toMatchObject([{ callKey: "call_x", status: "pending", recording: { callKey: "c1" } }]);
    expect((await postContinue(new Request(url("/x"), { method: "POST" }), fork)).status).toBe(409);

    const badAnswer = await postAnswer(
      post("/x", { from: "tape" }),
      context({ groupId: `${groupId}-fork`, callId: "call_x" }),
    );
    expect(badAnswer.status).toBe(422);
    const answered = await postAnswer(
      post("/x", { from: "recording" }),
      context({ groupId: `${groupId}-fork`, callId: "call_x" }),
    );
    expect(answered.status).toBe(201);
    expect(await read(answered)).toMatchObject({
      answered_by: "recording",
      recorded_from: { group_id: groupId, id: "c1" },
    });

    fake.enqueue("m", { text: "Done." });
    const next = await postContinue(post("/x", { wait: true }), fork);
    expect(next.status).toBe(201);
    expect(await read(next)).toMatchObject({ status: "finished", turn: { ordinal: 2 } });

    const list = await read(await listForks(new Request(url(`/api/threads/${groupId}/forks`)), context({ groupId })));
    expect(list.forks).toMatchObject([
      { groupId: `${groupId}-fork`, atStep: 3, target: "fake", status: "finished", turns: 2 },
    ]);
    expect((await getFork(new Request(url("/x")), context({ groupId }))).status).toBe(404);
    expect((await putForks(new Request(url("/x"), { method: "PUT" }), context({ groupId }))).status).toBe(405);
  });

  it("GET /api/models lists targets with the key's variable name, never the key", async () => {
    const response = await getModels(new Request(url("/api/models")));
    expect(response.status).toBe(200);
    expect(await read(response)).toEqual({
      problem: null,
      targets: [expect.objectContaining({ name: "fake", apiKeyEnv: "ROUTES_FAKE_KEY", keyState: "set" })],
    });
  });
});
