// Golden tests for the OpenAI Responses adapter.
import { describe, expect, it } from "vitest";
import { goldenPath, loadFixture, summarize } from "./fixtures/load-fixture";
import { FormatError } from "./format-error";
import { parseOpenAIResponses } from "./openai-responses";

describe("parseOpenAIResponses", () => {
  const trace = parseOpenAIResponses(loadFixture("openai-responses-input.json"));

  it("pairs function_call and function_call_output by call_id, not by the item id", () => {
    expect(summarize(trace.events)).toEqual([
      "0 message:system @instructions",
      "0 message:user @input[0]",
      "0 reasoning @input[1]",
      "0 call call_mZ6tY3HqKj0sX8vB2nR4wP1e get_weather @input[2]",
      "0 call call_Qp4rW8sT1uV5xY9zA3bC7dE2 get_weather @input[3]",
      "1 result call_mZ6tY3HqKj0sX8vB2nR4wP1e @input[4]",
      "1 result call_Qp4rW8sT1uV5xY9zA3bC7dE2 error @input[5]",
      "1 result call_Vb3StaleN8m2Lk6Jh4Gf0Ds9 @input[6]",
      "1 call call_Rt5yU1iO9pA3sD7fG2hJ6kL0 get_weather @input[7]",
      "2 result call_Rt5yU1iO9pA3sD7fG2hJ6kL0 @input[8]",
      "2 call call_Xo2cV6bN0mQ4wE8rT3yU7iP1 timestamp @input[9]",
      "3 result call_Xo2cV6bN0mQ4wE8rT3yU7iP1 @input[10]",
      "3 message:assistant @input[11]",
      "4 message:user @input[12]",
    ]);
    expect(trace.events[3]).toMatchObject({
      itemId: "fc_6848a1f8a7c48191b7a2f9e1a6c2d8e40ee7ffcd1f1b4a8b",
      arguments: { location: "Paris, France" },
    });
  });

  it("keeps invalid JSON arguments verbatim and maps custom tool calls as text input", () => {
    expect(trace.events[4]).toMatchObject({
      argumentsText: '{"location":"Tokyo, Japan"',
      argumentsError: expect.stringMatching(/^invalid JSON: /),
    });
    expect(trace.events[4]).not.toHaveProperty("arguments");
    expect(trace.events[10]).toMatchObject({
      kind: "tool_call",
      input: "text",
      argumentsText: "March 3 at 9AM",
      itemId: "ctc_6848a1fb3e2c8191b4a5f6d7e8c9b0a10ee7ffcd1f1b4a8b",
    });
    expect(trace.events[10]).not.toHaveProperty("arguments");
  });

  it("reads reasoning summaries, Error: outputs and array outputs", () => {
    expect(trace.events[2]).toMatchObject({
      text: "**Checking two cities**\n\nBoth forecasts are independent; fetch them in parallel.",
    });
    expect(trace.events[6]).toMatchObject({
      text: "Error: arguments are not valid JSON",
      isError: true,
      errorSignal: "error-prefix",
    });
    expect(trace.events[9]).toMatchObject({
      text: '{"temp_c":24,"conditions":"sunny"}',
      content: [{ type: "text" }, { type: "image", mimeType: "image/png" }],
    });
    expect(trace.events[13]).toMatchObject({ role: "user", text: "Thanks!" });
  });

  it("reports the orphan output and the hosted tool it cannot declare", () => {
    expect(trace.issues.map((issue) => `${issue.path}: ${issue.message}`)).toEqual([
      "tools[2]: unmapped hosted tool type web_search_preview",
      "input[6]: result for unknown call call_Vb3StaleN8m2Lk6Jh4Gf0Ds9",
    ]);
    expect(trace.declarations.map((declaration) => declaration.name)).toEqual(["get_weather", "timestamp"]);
    expect(trace.declarations[1]).not.toHaveProperty("inputSchema");
  });

  it("matches the golden canonical trace", async () => {
    await expect(`${JSON.stringify(trace, null, 2)}\n`).toMatchFileSnapshot(goldenPath("openai-responses-input.json"));
  });

  it("reads a response object's output, leaving its parallel calls pending", () => {
    const response = parseOpenAIResponses(loadFixture("openai-responses-response.json"));
    expect(summarize(response.events)).toEqual([
      "0 reasoning @output[0]",
      "0 call call_8sD2fG6hJ0kL4zX8cV2bN6mQ get_weather @output[1]",
      "0 call call_3wE7rT1yU5iO9pA3sD7fG1hJ get_weather @output[2]",
    ]);
    expect(response.issues).toEqual([]);
    expect(response.declarations).toMatchObject([{ name: "get_weather" }]);
  });

  it("accepts a bare items array and a string input", () => {
    expect(
      summarize(parseOpenAIResponses([{ type: "function_call_output", call_id: "call_1", output: "x" }]).events),
    ).toEqual(["0 result call_1 @[0]"]);
    expect(parseOpenAIResponses({ input: "hello" }).events).toMatchObject([
      { kind: "message", role: "user", text: "hello", path: "input" },
    ]);
  });

  it("throws a FormatError naming the item and field for malformed input", () => {
    expect(() =>
      parseOpenAIResponses({ input: [{ type: "function_call", id: "fc_1", name: "f", arguments: "{}" }] }),
    ).toThrow(FormatError);
    expect(() =>
      parseOpenAIResponses({ input: [{ type: "function_call", id: "fc_1", name: "f", arguments: "{}" }] }),
    ).toThrow("input[0].call_id: expected a string, got undefined");
    expect(() => parseOpenAIResponses({ output: [{ type: "function_call_output", call_id: "c", output: 7 }] })).toThrow(
      "output[0].output: expected an array, got number",
    );
    expect(() => parseOpenAIResponses({ model: "o4-mini" })).toThrow("expected an `input` or `output` items array");
  });
});
