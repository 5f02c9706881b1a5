// Golden tests for the OpenAI Chat Completions adapter.
import { describe, expect, it } from "vitest";
import { goldenPath, loadFixture, summarize } from "./fixtures/load-fixture";
import { FormatError } from "./format-error";
import { parseOpenAIChat } from "./openai-chat";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

describe("parseOpenAIChat", () => {
  const trace = parseOpenAIChat(loadFixture("openai-chat-parallel.json"));

  it("pairs role:tool messages with tool_calls by tool_call_id, parallel calls sharing a step", () => {
    expect(summarize(trace.events)).toEqual([
      "0 message:system @messages[0]",
      "0 message:user @messages[1]",
      "0 call call_Fx0BnVxQ7Wz1jK3mP9tYcR2a get_weather @messages[2].tool_calls[0]",
      "0 call call_9HkLqT2vNw4Xs8YbZr6MdE1c get_weather @messages[2].tool_calls[1]",
      "0 call call_Q3pUe7RmJx5Vc1AoWs9KgH4n search_flights @messages[2].tool_calls[2]",
      "1 result call_Fx0BnVxQ7Wz1jK3mP9tYcR2a @messages[3]",
      "1 result call_9HkLqT2vNw4Xs8YbZr6MdE1c @messages[4]",
      "1 result call_Q3pUe7RmJx5Vc1AoWs9KgH4n error @messages[5]",
      "1 result call_Zq7StaleW3e9Rt5Yu1Io8PaS @messages[6]",
      "1 message:assistant @messages[7]",
      "1 call call_Lm8NbV2cXz6QwE4rTy1UiO9p search_flights @messages[7].tool_calls[0]",
      "2 result call_Lm8NbV2cXz6QwE4rTy1UiO9p @messages[8]",
      "2 message:assistant @messages[9]",
    ]);
  });

  it("keeps invalid JSON arguments verbatim with a parse error and no parsed value", () => {
    const call = trace.events[4];
    expect(call).toMatchObject({
      kind: "tool_call",
      input: "json",
      argumentsText: '{"from":"CDG","to":"HND","date":"2025-06-13',
      argumentsError: expect.stringMatching(/^invalid JSON: /),
    });
    expect(call).not.toHaveProperty("arguments");
    expect(trace.events[2]).toMatchObject({
      argumentsText: '{"location":"Paris, France"}',
      arguments: { location: "Paris, France" },
    });
  });

  it("reads parts-array content and infers isError from the Error: prefix", () => {
    expect(trace.events[1]).toMatchObject({
      text: "Compare the weather in Paris and Tokyo, and find me a flight for the date on this ticket.",
      content: [
        {
          type: "text",
          text: "Compare the weather in Paris and Tokyo, and find me a flight for the date on this ticket.",
        },
        { type: "image", data: PNG, mimeType: "image/png" },
      ],
    });
    expect(trace.events[6]).toMatchObject({ text: "Tokyo, Japan: 24 °C\nConditions: sunny", isError: false });
    expect(trace.events[7]).toMatchObject({ isError: true, errorSignal: "error-prefix" });
    expect(trace.events[0]).toMatchObject({ role: "system", raw: { role: "developer" } });
  });

  it("keeps the orphan tool message and reports it", () => {
    expect(trace.issues).toMatchObject([
      { path: "messages[6]", message: "result for unknown call call_Zq7StaleW3e9Rt5Yu1Io8PaS" },
    ]);
  });

  it("reads function tool declarations", () => {
    expect(trace.declarations).toMatchObject([
      {
        name: "get_weather",
        description: "Get the current weather for a city.",
        inputSchema: { required: ["location"] },
      },
      { name: "search_flights", inputSchema: { required: ["from", "to", "date"] } },
    ]);
  });

  it("matches the golden canonical trace", async () => {
    await expect(`${JSON.stringify(trace, null, 2)}\n`).toMatchFileSnapshot(goldenPath("openai-chat-parallel.json"));
  });

  it("reads a completion's first choice as the model's turn", () => {
    const completion = {
      id: "chatcmpl-BfXz1hQy9kV2mN3pL4rT5sU6wY7",
      object: "chat.completion",
      created: 1749590516,
      model: "gpt-4.1-2025-04-14",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: null,
            refusal: null,
            tool_calls: [
              {
                id: "call_Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8",
                type: "function",
                function: { name: "get_weather", arguments: '{"location":"Oslo"}' },
              },
            ],
            annotations: [],
          },
          logprobs: null,
          finish_reason: "tool_calls",
        },
        { index: 1, message: { role: "assistant", content: "Oslo is cold." }, finish_reason: "stop" },
      ],
    };
    const out = parseOpenAIChat(completion);
    expect(summarize(out.events)).toEqual([
      "0 call call_Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8 get_weather @choices[0].message.tool_calls[0]",
    ]);
    expect(out.issues).toEqual([{ path: "choices", message: "only the first of 2 choices is mapped" }]);
  });

  it("maps custom tool calls as text input and legacy function calls by name", () => {
    const out = parseOpenAIChat([
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_c1", type: "custom", custom: { name: "timestamp", input: "March 3 at 9AM" } }],
      },
      { role: "tool", tool_call_id: "call_c1", content: "saved" },
      { role: "assistant", content: null, function_call: { name: "lookup", arguments: '{"q":"x"}' } },
      { role: "function", name: "lookup", content: "found" },
    ]);
    expect(summarize(out.events)).toEqual([
      "0 call call_c1 timestamp @[0].tool_calls[0]",
      "1 result call_c1 @[1]",
      "1 call lookup#1 lookup synthetic @[2].function_call",
      "2 result lookup#1 @[3]",
    ]);
    expect(out.events[0]).toMatchObject({ input: "text", argumentsText: "March 3 at 9AM" });
    expect(out.events[0]).not.toHaveProperty("arguments");
    expect(out.issues).toEqual([]);
  });

  it("throws a FormatError naming the item and field for malformed input", () => {
    const missingId = { messages: [{ role: "tool", content: "ok" }] };
    expect(() => parseOpenAIChat(missingId)).toThrow(FormatError);
    expect(() => parseOpenAIChat(missingId)).toThrow("messages[0].tool_call_id: expected a string, got undefined");
    expect(() =>
      parseOpenAIChat([
        {
          role: "assistant",
          tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: { a: 1 } } }],
        },
      ]),
    ).toThrow("[0].tool_calls[0].function.arguments: expected a string, got an object");
    expect(() => parseOpenAIChat([{ role: "robot", content: "beep" }])).toThrow(
      '[0].role: expected one of system, developer, user, assistant, tool, function, got "robot"',
    );
  });
});
