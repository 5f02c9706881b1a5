// Streaming captures: Anthropic events (array and SSE text), Chat chunks, Responses events, Interactions SSE —
// assembled into calls with whole arguments, checked against the official SDKs' own stream accumulators.
import { MessageStream } from "@anthropic-ai/sdk/lib/MessageStream";
import { ChatCompletionStream } from "openai/lib/ChatCompletionStream";
import { describe, expect, it } from "vitest";
import type { CanonicalTrace, FormatName } from "./canonical";
import { explainFormat, parseTranscript, parseTranscriptText } from "./detect";
import {
  anthropicStream,
  asServerSentEvents,
  chatChunks,
  geminiChunks,
  interactionsEvents,
  responsesEvents,
} from "./fixtures/stream-captures";
import { goldenPath, summarize } from "./fixtures/load-fixture";

type Capture = {
  name: string;
  format: FormatName;
  events: readonly object[];
  eventName: (event: object) => string | undefined;
};

const typeOf = (event: object): string | undefined =>
  "type" in event && typeof event.type === "string" ? event.type : undefined;
const CAPTURES: Capture[] = [
  { name: "anthropic-stream", format: "anthropic", events: anthropicStream, eventName: typeOf },
  { name: "openai-chat-chunks", format: "openai-chat", events: chatChunks, eventName: () => undefined },
  { name: "openai-responses-stream", format: "openai-responses", events: responsesEvents, eventName: typeOf },
  {
    name: "gemini-interactions-stream",
    format: "gemini-interactions",
    events: interactionsEvents,
    eventName: (event) =>
      "event_type" in event && typeof event.event_type === "string" ? event.event_type : undefined,
  },
];

function calls(trace: CanonicalTrace): [string, string][] {
  return trace.events.flatMap((event) =>
    event.kind === "tool_call" ? [[event.callId, event.argumentsText] as [string, string]] : [],
  );
}

describe.each(CAPTURES)("$name", ({ name, format, events, eventName }) => {
  const json = JSON.stringify(events);
  const sse = `${asServerSentEvents(events, eventName)}${format === "openai-chat" ? "data: [DONE]\n\n" : ""}`;
  const trace = parseTranscriptText(json);

  it("is detected by its events, and says so", () => {
    expect(explainFormat(JSON.parse(json))).toMatchObject({ format, reason: expect.stringMatching(/stream|chunk/) });
  });

  it("assembles parallel calls whose arguments arrived in pieces, digits intact", () => {
    expect(calls(trace).map(([, args]) => JSON.parse(args.replace("12345678901234567890", '"big"')))).toEqual([
      { city: "Paris", order: "big" },
      { city: "Tokyo" },
    ]);
    expect(calls(trace)[0]?.[1]).toContain("12345678901234567890");
    expect(trace.issues).toEqual([]);
  });

  it("reads the raw text/event-stream capture the same as the event array", () => {
    expect(parseTranscriptText(sse)).toEqual(trace);
  });

  it("matches the golden canonical trace", async () => {
    await expect(`${JSON.stringify(summarize(trace.events), null, 2)}\n`).toMatchFileSnapshot(
      goldenPath(`${name}.summary.json`),
    );
    await expect(`${JSON.stringify(trace, null, 2)}\n`).toMatchFileSnapshot(goldenPath(`${name}.json`));
  });
});

// The SDKs' stream helpers read newline-delimited JSON events (their toReadableStream format).
function jsonLines(events: readonly object[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const event of events) controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`));
      controller.close();
    },
  });
}

describe("assembly agrees with the official SDKs' accumulators", () => {
  it("Anthropic MessageStream.finalMessage()", async () => {
    const final = await MessageStream.fromReadableStream(jsonLines(anthropicStream)).finalMessage();
    const ours = parseTranscript(anthropicStream, "anthropic");
    const sdkCalls = final.content.flatMap((block) => (block.type === "tool_use" ? [[block.id, block.input]] : []));
    // The SDK parses with JSON.parse (the big order number rounds there); ours keeps the digits.
    expect(calls(ours).map(([id, args]) => [id, JSON.parse(args)])).toEqual(sdkCalls);
    const thinking = final.content.find((block) => block.type === "thinking");
    expect(ours.events.find((event) => event.kind === "reasoning")?.raw).toEqual(thinking);
  });

  it("OpenAI ChatCompletionStream.finalChatCompletion()", async () => {
    const final = await ChatCompletionStream.fromReadableStream(jsonLines(chatChunks)).finalChatCompletion();
    const sdkCalls = (final.choices[0]?.message.tool_calls ?? []).flatMap((call) =>
      call.type === "function" ? [[call.id, call.function.arguments]] : [],
    );
    expect(calls(parseTranscript(chatChunks, "openai-chat"))).toEqual(sdkCalls);
  });
});

// Gemini streamGenerateContent: each chunk is a GenerateContentResponse; calls arrive whole, text in pieces.
describe("gemini streamGenerateContent chunks", () => {
  const json = JSON.stringify(geminiChunks);
  const trace = parseTranscriptText(json);

  it("is detected by its chunks, and assembles thought, text and parallel calls", () => {
    expect(explainFormat(JSON.parse(json))).toMatchObject({ format: "gemini", reason: expect.stringMatching(/chunk/) });
    const withoutPaths = (t: CanonicalTrace) => t.events.map(({ path: _path, ...event }) => event);
    expect(withoutPaths(trace)).toEqual(withoutPaths(parseTranscript([{ role: "model", parts: assembledParts }])));
    expect(trace.events.map((event) => [event.kind, event.kind === "tool_call" ? event.callId : event.path])).toEqual([
      ["reasoning", "[0:5].parts[0]"],
      ["message", "[0:5].parts[1]"],
      ["tool_call", "fc-paris"],
      ["tool_call", "fc-tokyo"],
    ]);
    expect(trace.events[0]?.raw).toEqual({ text: "Two cities, two lookups.", thought: true });
    expect(trace.events[2]?.raw).toMatchObject({ thoughtSignature: "c2lnLWdlbWluaQ==" });
    expect(trace.issues).toEqual([]);
  });

  it("reads the JSONL and the text/event-stream captures (CRLF, as Gemini sends them) the same as the array", () => {
    expect(parseTranscriptText(geminiChunks.map((chunk) => JSON.stringify(chunk)).join("\n"))).toEqual(trace);
    const sse = geminiChunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join("");
    expect(parseTranscriptText(sse)).toEqual(trace);
  });

  it("says when the stream was cut before a finishReason", () => {
    const cut = parseTranscript(geminiChunks.slice(0, 3), "gemini");
    expect(cut.events.map((event) => event.kind)).toEqual(["reasoning", "message"]);
    expect(cut.issues).toEqual([{ path: "[0:2]", message: expect.stringMatching(/stream was cut.*finishReason/) }]);
  });
});

const assembledParts = [
  { text: "Two cities, two lookups.", thought: true },
  { text: "Checking Paris and Tokyo." },
  {
    functionCall: { id: "fc-paris", name: "get_weather", args: { city: "Paris" } },
    thoughtSignature: "c2lnLWdlbWluaQ==",
  },
  { functionCall: { id: "fc-tokyo", name: "get_weather", args: { city: "Tokyo" } } },
];

describe("a Chat Completions stream cut before its finish_reason", () => {
  it("imports what arrived and says the stream was cut", () => {
    const cut = chatChunks.filter((chunk) => !chunk.choices.some((choice) => choice.finish_reason !== null));
    expect(cut.length).toBeLessThan(chatChunks.length);
    const trace = parseTranscript(cut, "openai-chat");
    expect(trace.events.filter((event) => event.kind === "tool_call")).toHaveLength(2);
    expect(trace.issues).toEqual([
      { path: `[0:${cut.length - 1}]`, message: expect.stringMatching(/stream was cut.*finish_reason/) },
    ]);
    expect(parseTranscript(chatChunks, "openai-chat").issues).toEqual([]);
  });
});
