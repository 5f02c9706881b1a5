// The four API clients against the local fake provider, which streams each API's real wire format: answers
// with parallel tool calls, reasoning and usage come back in the vendor's own shape (read by lib/formats), and
// provider errors arrive verbatim with the key masked.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTranscript } from "../formats/detect.ts";
import { callModel, ProviderError } from "./client.ts";
import { startFakeProvider, type FakeProvider } from "./fake-provider.ts";
import { MODEL_APIS, type LiveOutput, type ModelApi, type ModelTarget } from "./schemas.ts";

const KEY = "sk-test-fake-0123456789abcdef";

const HISTORY: Record<ModelApi, Record<string, unknown>> = {
  "openai-chat": { messages: [{ role: "user", content: "Weather in Paris and Rome?" }] },
  "openai-responses": { input: [{ role: "user", content: "Weather in Paris and Rome?" }] },
  anthropic: { messages: [{ role: "user", content: [{ type: "text", text: "Weather in Paris and Rome?" }] }] },
  gemini: { contents: [{ role: "user", parts: [{ text: "Weather in Paris and Rome?" }] }] },
};

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

describe.each(MODEL_APIS)("the %s client", (api) => {
  let fake: FakeProvider;
  let target: ModelTarget;
  beforeAll(async () => {
    fake = await startFakeProvider({ key: KEY });
    target = {
      name: `fake-${api}`,
      api,
      baseUrl: fake.baseUrls[api],
      model: `model-${api}`,
      apiKeyEnv: "FAKE_KEY",
      timeoutMs: 5000,
    };
  });
  afterAll(async () => {
    await fake.close();
  });

  it("streams an answer with parallel tool calls and reads it back as the vendor's own response", async () => {
    fake.enqueue(target.model, {
      text: "Checking both cities.",
      reasoning: api === "openai-chat" ? undefined : "Two cities: two calls.",
      toolCalls: [
        { id: api === "gemini" ? undefined : "call_paris", name: "get_weather", arguments: { city: "Paris" } },
        {
          id: api === "gemini" ? undefined : "call_rome",
          name: "get_weather",
          arguments: { city: "Rome", unit: "celsius" },
        },
      ],
      usage: { input: 321, output: 45, cached: 20, reasoning: api === "openai-chat" ? 0 : 7 },
    });
    const progress: LiveOutput[] = [];
    const answer = await callModel({
      target,
      history: HISTORY[api],
      apiKey: KEY,
      onProgress: (live) => progress.push(structuredClone(live)),
    });

    // It streamed: the text grew over several events before the answer was complete.
    const texts = [...new Set(progress.map((live) => live.text))];
    expect(texts.length).toBeGreaterThan(2);
    expect(answer.live.text).toBe("Checking both cities.");
    expect(answer.live.calls.map((call) => [call.name, JSON.parse(call.arguments)])).toEqual([
      ["get_weather", { city: "Paris" }],
      ["get_weather", { city: "Rome", unit: "celsius" }],
    ]);

    const trace = parseTranscript(answer.response, api);
    const calls = trace.events.filter((event) => event.kind === "tool_call");
    expect(calls.map((call) => (call.kind === "tool_call" ? [call.name, call.arguments] : null))).toEqual([
      ["get_weather", { city: "Paris" }],
      ["get_weather", { city: "Rome", unit: "celsius" }],
    ]);
    if (api !== "gemini")
      expect(calls.map((call) => (call.kind === "tool_call" ? call.callId : null))).toEqual([
        "call_paris",
        "call_rome",
      ]);
    expect(
      trace.events.some(
        (event) => event.kind === "message" && event.role === "assistant" && event.text === "Checking both cities.",
      ),
    ).toBe(true);
    if (api !== "openai-chat")
      expect(trace.events.some((event) => event.kind === "reasoning" && event.text === "Two cities: two calls.")).toBe(
        true,
      );

    expect(answer.usage.inputTokens).toBe(321);
    expect(answer.usage.outputTokens).toBe(45);
    expect(answer.usage.totalTokens).toBe(366);
    expect(answer.usage.cachedInputTokens).toBe(20);
    expect(answer.usage.raw).not.toBeNull();
    expect(answer.stopReason).toBe(
      { "openai-chat": "tool_calls", "openai-responses": "completed", anthropic: "tool_use", gemini: "STOP" }[api],
    );

    const sent = fake.requests.at(-1);
    expect(sent?.model).toBe(target.model);
    expect(sent?.body).toMatchObject(HISTORY[api]);
    expect(JSON.stringify(sent?.body)).not.toContain(KEY);
  });

  it("reads a plain text answer (no tool call)", async () => {
    fake.enqueue(target.model, { text: "It is sunny." });
    const answer = await callModel({ target, history: HISTORY[api], apiKey: KEY });
    expect(answer.live).toEqual({ text: "It is sunny.", reasoning: "", calls: [] });
    const trace = parseTranscript(answer.response, api);
    expect(trace.events.filter((event) => event.kind === "tool_call")).toEqual([]);
  });

  it("reports the provider's HTTP error body verbatim", async () => {
    const body = {
      error: {
        message: "This model's maximum context length is 8192 tokens.",
        type: "invalid_request_error",
        code: "context_length_exceeded",
      },
    };
    fake.enqueue(target.model, { error: { status: 400, body } });
    const error = await failure(callModel({ target, history: HISTORY[api], apiKey: KEY }));
    expect(error.httpStatus).toBe(400);
    expect(error.text).toBe(JSON.stringify(body));
  });

  it("masks the key when the provider quotes it back", async () => {
    const error = await failure(callModel({ target, history: HISTORY[api], apiKey: `${KEY}-wrong` }));
    expect(error.httpStatus).toBe(api === "gemini" ? 400 : 401);
    expect(error.text).not.toContain(KEY);
    expect(error.message).not.toContain(KEY);
    if (api.startsWith("openai")) expect(error.text).toContain("Incorrect API key provided: [API key redacted]");
  });

  it("masks the key wherever the answer echoes it: text, reasoning, a call's id, name and arguments", async () => {
    fake.enqueue(target.model, {
      text: `Your key is ${KEY}.`,
      reasoning: api === "openai-chat" ? undefined : `I saw ${KEY}`,
      toolCalls: [{ id: api === "gemini" ? undefined : `call_${KEY}`, name: `tool_${KEY}`, arguments: { [KEY]: KEY } }],
    });
    const answer = await callModel({ target, history: HISTORY[api], apiKey: KEY });
    expect(JSON.stringify(answer)).not.toContain(KEY);
    expect(answer.live.text).toBe("Your key is [API key redacted].");
    expect(answer.live.calls[0]?.name).toBe("tool_[API key redacted]");
    expect(JSON.parse(answer.live.calls[0]?.arguments ?? "")).toEqual({ "[API key redacted]": "[API key redacted]" });
  });

  it("reports an error event in the middle of the stream", async () => {
    fake.enqueue(target.model, {
      text: "Half an answ",
      streamError: "The server had an error while processing your request.",
    });
    const error = await failure(callModel({ target, history: HISTORY[api], apiKey: KEY }));
    expect(error.httpStatus).toBeNull();
    expect(error.text).toContain("The server had an error while processing your request.");
  });

  it("gives up at the target's timeout", async () => {
    fake.enqueue(target.model, { hang: true });
    const error = await failure(
      callModel({ target: { ...target, timeoutMs: 1000 }, history: HISTORY[api], apiKey: KEY }),
    );
    expect(error.text).toMatch(/within 1000 ms/);
  });

  it("stops when asked to", async () => {
    fake.enqueue(target.model, { hang: true });
    const controller = new AbortController();
    const pending = callModel({ target, history: HISTORY[api], apiKey: KEY, signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    expect((await failure(pending)).text).toBe("Stopped before the model finished answering");
  });
});

describe("a provider echoing the key outside the answer's text", () => {
  it("has it masked in the usage object and the stop reason too", async () => {
    const chunk = (fields: Record<string, unknown>) =>
      `data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", model: "m", ...fields })}\n\n`;
    const server = http.createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(chunk({ choices: [{ index: 0, delta: { content: "ok" }, finish_reason: null }] }));
      response.write(chunk({ choices: [{ index: 0, delta: {}, finish_reason: `stop ${KEY}` }] }));
      response.write(
        chunk({
          choices: [],
          usage: { prompt_tokens: 3, completion_tokens: 1, debug: { authorization: `Bearer ${KEY}` } },
        }),
      );
      response.end("data: [DONE]\n\n");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const target: ModelTarget = {
        name: "echo",
        api: "openai-chat",
        baseUrl: `http://127.0.0.1:${port}/v1`,
        model: "m",
        apiKeyEnv: "FAKE_KEY",
        timeoutMs: 5000,
      };
      const answer = await callModel({ target, history: HISTORY["openai-chat"], apiKey: KEY });
      expect(answer.stopReason).toBe("stop [API key redacted]");
      expect(answer.usage.raw).toEqual({
        prompt_tokens: 3,
        completion_tokens: 1,
        debug: { authorization: "Bearer [API key redacted]" },
      });
      expect(JSON.stringify(answer)).not.toContain(KEY);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("a stream that breaks off", () => {
  it("says the answer broke off, not that the provider could not be reached", async () => {
    const server = http.createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(
        `data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta: { content: "Half an ans" } }] })}\n\n`,
        () => response.socket?.destroy(),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const target: ModelTarget = {
        name: "reset",
        api: "openai-chat",
        baseUrl: `http://127.0.0.1:${port}/v1`,
        model: "m",
        timeoutMs: 5000,
      };
      const error = await failure(callModel({ target, history: HISTORY["openai-chat"], apiKey: null }));
      expect(error.text).toMatch(
        new RegExp(`^The answer from http://127\\.0\\.0\\.1:${port}/v1/chat/completions broke off while streaming: `),
      );
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    // Nothing listening: that one could not be reached.
    const closed: ModelTarget = {
      name: "gone",
      api: "openai-chat",
      baseUrl: "http://127.0.0.1:9/v1",
      model: "m",
      timeoutMs: 5000,
    };
    expect((await failure(callModel({ target: closed, history: HISTORY["openai-chat"], apiKey: null }))).text).toMatch(
      /^Could not reach http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions: /,
    );
  });
});

describe("a provider streaming without end", () => {
  it("fails the turn once the stream passes the byte limit, instead of holding it all in memory", async () => {
    const event = `data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta: { content: "A".repeat(16_000) } }] })}\n\n`;
    let written = 0;
    const server = http.createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      const pump = () => {
        while (!response.destroyed && response.write(event)) written += event.length;
      };
      response.on("drain", pump);
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const target: ModelTarget = {
        name: "flood",
        api: "openai-chat",
        baseUrl: `http://127.0.0.1:${port}/v1`,
        model: "m",
        timeoutMs: 30_000,
      };
      let longest = 0;
      const error = await failure(
        callModel({
          target,
          history: HISTORY["openai-chat"],
          apiKey: null,
          maxAnswerBytes: 1024 * 1024,
          onProgress: (live) => (longest = live.text.length),
        }),
      );
      expect(error.text).toBe(
        "The answer passed 1048576 bytes without ending; Toolscope stopped reading it (a model's answer is far smaller)",
      );
      expect(longest).toBeLessThanOrEqual(1024 * 1024);
      expect(written).toBeLessThan(64 * 1024 * 1024);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("progress while an answer streams", () => {
  const serve = async (write: (response: http.ServerResponse) => Promise<void>) => {
    const server = http.createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      void write(response).then(() => response.end("data: [DONE]\n\n"));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const target: ModelTarget = {
      name: "p",
      api: "openai-chat",
      baseUrl: `http://127.0.0.1:${port}/v1`,
      model: "m",
      timeoutMs: 30_000,
    };
    return { target, close: () => new Promise((resolve) => server.close(resolve)) };
  };
  const chunk = (delta: Record<string, unknown>) =>
    `data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta }] })}\n\n`;

  it("is assembled at most every progressEveryMs, not after each of thousands of events", async () => {
    // Assembling what arrived costs time growing with it: after every one of N tool call events, N² in all.
    const { target, close } = await serve(async (response) => {
      for (let index = 0; index < 3000; index++)
        response.write(
          chunk({
            tool_calls: [
              { index, id: `call_${index}`, type: "function", function: { name: "search", arguments: "{}" } },
            ],
          }),
        );
    });
    try {
      const progress: number[] = [];
      const answer = await callModel({
        target,
        history: HISTORY["openai-chat"],
        apiKey: null,
        progressEveryMs: 60_000,
        onProgress: (live) => progress.push(live.calls.length),
      });
      expect(answer.live.calls).toHaveLength(3000);
      expect(progress).toEqual([1]);
    } finally {
      await close();
    }
  });

  it("still reports what arrived last when the provider pauses", async () => {
    const { target, close } = await serve(async (response) => {
      response.write(chunk({ content: "Hel" }));
      response.write(chunk({ content: "lo" }));
      await new Promise((resolve) => setTimeout(resolve, 1500));
    });
    try {
      const progress: string[] = [];
      const pending = callModel({
        target,
        history: HISTORY["openai-chat"],
        apiKey: null,
        progressEveryMs: 200,
        onProgress: (live) => progress.push(live.text),
      });
      await new Promise((resolve) => setTimeout(resolve, 900));
      expect(progress).toEqual(["Hel", "Hello"]);
      await pending;
    } finally {
      await close();
    }
  });
});

describe("an unreachable provider", () => {
  it("says which URL could not be reached", async () => {
    const fake = await startFakeProvider();
    const baseUrl = fake.baseUrls["openai-chat"];
    await fake.close();
    const target: ModelTarget = { name: "gone", api: "openai-chat", baseUrl, model: "m", timeoutMs: 2000 };
    const error = await failure(callModel({ target, history: HISTORY["openai-chat"], apiKey: null }));
    expect(error.text).toContain(`Could not reach ${baseUrl}/chat/completions`);
    expect(error.text).toMatch(/ECONNREFUSED/);
  });
});
