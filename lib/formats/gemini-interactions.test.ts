// The Gemini Interactions API (typed with @google/genai): interactions, create requests and chains, told apart
// from OpenAI Responses (which it was misdetected as), and detection that refuses with its reasons.
import type { Interactions } from "@google/genai";
import { describe, expect, it } from "vitest";
import { explainFormat, parseTranscript } from "./detect";
import { summarize } from "./fixtures/load-fixture";

const first = {
  id: "int_01",
  status: "requires_action",
  model: "gemini-3-pro-preview",
  system_instruction: "You are a travel assistant.",
  tools: [
    {
      type: "function",
      name: "get_weather",
      description: "Weather for a city.",
      parameters: { type: "object", properties: { city: { type: "string" } } },
    },
  ],
  input: [
    {
      type: "user_input",
      content: [
        { type: "text", text: "Weather in Paris and Tokyo?" },
        { type: "image", mime_type: "image/png", data: "iVBORw0KGgo=" },
      ],
    },
  ],
  steps: [
    { type: "thought", signature: "c2ln", summary: [{ type: "text", text: "Two lookups." }] },
    { type: "function_call", id: "fc-paris", name: "get_weather", arguments: { city: "Paris" } },
    { type: "function_call", id: "fc-tokyo", name: "get_weather", arguments: { city: "Tokyo" } },
  ],
} satisfies Interactions.Interaction;

const second = {
  id: "int_02",
  status: "completed",
  previous_interaction_id: "int_01",
  input: [
    { type: "function_result", call_id: "fc-paris", name: "get_weather", result: { temp_c: 18 } },
    {
      type: "function_result",
      call_id: "fc-tokyo",
      name: "get_weather",
      result: "weather service down",
      is_error: true,
    },
  ],
  steps: [{ type: "model_output", content: [{ type: "text", text: "Paris is 18 °C; Tokyo is unknown." }] }],
} satisfies Interactions.Interaction;

describe("parseGeminiInteractions", () => {
  it("reads a chain of interactions: steps, calls with ids, results with is_error, media in input", () => {
    expect(explainFormat([first, second])).toMatchObject({ format: "gemini-interactions" });
    const trace = parseTranscript([first, second]);
    expect(summarize(trace.events)).toEqual([
      "0 message:system @[0].system_instruction",
      "0 message:user @[0].input[0]",
      "0 reasoning @[0].steps[0]",
      "0 call fc-paris get_weather @[0].steps[1]",
      "0 call fc-tokyo get_weather @[0].steps[2]",
      "1 result fc-paris @[1].input[0]",
      "1 result fc-tokyo error @[1].input[1]",
      "1 message:assistant @[1].steps[0]",
    ]);
    expect(trace.declarations.map((declaration) => declaration.name)).toEqual(["get_weather"]);
    expect(trace.events[1]).toMatchObject({ content: [{ type: "text" }, { type: "image", mimeType: "image/png" }] });
    expect(trace.events[6]).toMatchObject({ text: "weather service down", isError: true, errorSignal: "vendor-flag" });
    expect(trace.issues).toEqual([]);
  });

  it("is not misdetected as OpenAI Responses", () => {
    expect(explainFormat(first)).toEqual({
      format: "gemini-interactions",
      reason: "Gemini Interactions: a steps array",
    });
    expect(explainFormat({ model: "gemini-3-flash", input: "Hello" })).toEqual({
      format: "gemini-interactions",
      reason: "Gemini Interactions: model gemini-3-flash with input",
    });
    expect(
      explainFormat({ model: "gpt-5", input: [{ role: "user", content: "Hello" }], instructions: "Be brief." }),
    ).toMatchObject({ format: "openai-responses" });
  });

  it("refuses a body that is both, and says why", () => {
    expect(explainFormat({ steps: [], instructions: "Be brief.", input: "Hi" })).toEqual({
      format: null,
      reason: "the body has Gemini Interactions fields (a steps array) and OpenAI Responses fields (instructions)",
    });
    expect(() =>
      parseTranscript([
        { type: "function_call_output", call_id: "a", output: "x" },
        { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } },
      ]),
    ).toThrow(
      "cannot tell the transcript format: the items match several formats — OpenAI Responses: a function_call_output item at [0]; MCP: a JSON-RPC message at [1]",
    );
  });
});
