// Golden tests for the Gemini generateContent adapter.
import { describe, expect, it } from "vitest";
import { goldenPath, loadFixture, summarize } from "./fixtures/load-fixture";
import { FormatError } from "./format-error";
import { parseGemini } from "./gemini";

describe("parseGemini", () => {
  const trace = parseGemini(loadFixture("gemini-no-ids.json"));

  it("assigns stable synthetic ids to calls without an id and pairs results by name, in order", () => {
    expect(summarize(trace.events)).toEqual([
      "0 message:system @systemInstruction.parts[0]",
      "0 message:user @contents[0].parts[0]",
      "0 reasoning @contents[1].parts[0]",
      "0 call get_weather#0 get_weather synthetic @contents[1].parts[1]",
      "0 call get_weather#1 get_weather synthetic @contents[1].parts[2]",
      "0 call get_local_time#2 get_local_time synthetic @contents[1].parts[3]",
      "1 result get_local_time#2 error @contents[2].parts[0]",
      "1 result get_weather#0 @contents[2].parts[1]",
      "1 result get_weather#1 @contents[2].parts[2]",
      "1 result get_exchange_rate#unmatched-0 @contents[2].parts[3]",
      "1 message:assistant @contents[3].parts[0]",
    ]);
  });

  it("stringifies args and response objects", () => {
    expect(trace.events[3]).toMatchObject({
      argumentsText: '{"location":"Paris, France"}',
      arguments: { location: "Paris, France" },
    });
    expect(trace.events[7]).toMatchObject({
      name: "get_weather",
      text: '{"temp_c":18,"conditions":"cloudy"}',
      isError: false,
    });
    expect(trace.events[6]).toMatchObject({
      text: '{"error":"time service unavailable (HTTP 503)"}',
      isError: true,
      errorSignal: "error-key",
    });
  });

  it("keeps the unmatched functionResponse and reports it", () => {
    expect(trace.events[9]).toMatchObject({ kind: "tool_result", name: "get_exchange_rate", text: '{"rate":161.2}' });
    expect(trace.issues.map((issue) => `${issue.path}: ${issue.message}`)).toEqual([
      "tools[1].googleSearch: unmapped built-in tool googleSearch",
      "contents[2].parts[3]: result for unknown call get_exchange_rate#unmatched-0: no earlier unanswered call named get_exchange_rate",
    ]);
  });

  it("keeps the raw part, thought signature included", () => {
    expect(trace.events[3]?.raw).toEqual({
      functionCall: { name: "get_weather", args: { location: "Paris, France" } },
      thoughtSignature: "CiQB0e2Kb7ZlQy0v1i3X7mLkQ9pYwT5sRr2nUuJ4hGc8fD6aEeE=",
    });
    expect(trace.declarations).toMatchObject([
      { name: "get_weather", inputSchema: { type: "OBJECT" } },
      { name: "get_local_time" },
    ]);
  });

  it("matches the golden canonical trace", async () => {
    await expect(`${JSON.stringify(trace, null, 2)}\n`).toMatchFileSnapshot(goldenPath("gemini-no-ids.json"));
  });

  it("pairs by functionCall id when Gemini provides one, whatever the response order", () => {
    const withIds = parseGemini(loadFixture("gemini-with-ids.json"));
    expect(summarize(withIds.events)).toEqual([
      "0 message:user @[0].parts[0]",
      "0 call 8f2k1q9z get_stock_price @[1].parts[0]",
      "0 call c7m3x0ws get_stock_price @[1].parts[1]",
      "1 result c7m3x0ws @[2].parts[0]",
      "1 result 8f2k1q9z @[2].parts[1]",
      "1 message:assistant @[3].parts[0]",
    ]);
    expect(withIds.events[3]).toMatchObject({ text: '{"price":212.4,"currency":"USD"}' });
    expect(withIds.issues).toEqual([]);
  });

  it("reads a generateContent response's first candidate as the model's turn", () => {
    const response = {
      candidates: [
        {
          content: {
            role: "model",
            parts: [
              {
                functionCall: { id: "r4t8y2u6", name: "get_weather", args: { location: "Oslo" } },
                thoughtSignature: "Cp0BAdHtim8=",
              },
            ],
          },
          finishReason: "STOP",
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 58, candidatesTokenCount: 17, totalTokenCount: 75 },
      modelVersion: "gemini-3-pro-preview",
    };
    expect(summarize(parseGemini(response).events)).toEqual([
      "0 call r4t8y2u6 get_weather @candidates[0].content.parts[0]",
    ]);
  });

  it("reads snake_case fields and inline data", () => {
    const out = parseGemini({
      system_instruction: { parts: [{ text: "be brief" }] },
      contents: [
        { role: "user", parts: [{ inline_data: { mime_type: "image/jpeg", data: "/9j/4AAQ" } }] },
        { role: "model", parts: [{ function_call: { name: "describe", args: {} } }] },
        { role: "user", parts: [{ function_response: { name: "describe", response: { output: "a cat" } } }] },
      ],
    });
    expect(summarize(out.events)).toEqual([
      "0 message:system @system_instruction.parts[0]",
      "0 message:user @contents[0].parts[0]",
      "0 call describe#0 describe synthetic @contents[1].parts[0]",
      "1 result describe#0 @contents[2].parts[0]",
    ]);
    expect(out.events[1]).toMatchObject({
      text: "",
      content: [{ type: "image", mimeType: "image/jpeg", data: "/9j/4AAQ" }],
    });
  });

  it("throws a FormatError naming the item and field for malformed input", () => {
    const missingName = { contents: [{ role: "model", parts: [{ functionCall: { args: {} } }] }] };
    expect(() => parseGemini(missingName)).toThrow(FormatError);
    expect(() => parseGemini(missingName)).toThrow(
      "contents[0].parts[0].functionCall.name: expected a string, got undefined",
    );
    expect(() => parseGemini({ contents: [{ role: "assistant", parts: [] }] })).toThrow(
      'contents[0].role: expected "user" or "model", got "assistant"',
    );
    expect(() => parseGemini({ contents: [{ role: "user" }] })).toThrow(
      "contents[0].parts: expected an array, got undefined",
    );
  });
});
