// Golden tests for the agent-response stream adapter.
import { describe, expect, it } from "vitest";
import { parseAgentStream } from "./agent-stream";
import { readJsonOrJsonl } from "./detect";
import { goldenPath, loadFixtureText, summarize } from "./fixtures/load-fixture";
import { FormatError } from "./format-error";

describe("parseAgentStream", () => {
  const trace = parseAgentStream(readJsonOrJsonl(loadFixtureText("agent-stream-ailoy.jsonl")));

  it("merges consecutive chunks of one type until is_type_switched, one event per tool call and result", () => {
    expect(summarize(trace.events)).toEqual([
      "0 reasoning @[0:2]",
      "0 message:assistant @[2:4]",
      "0 call call_k2V9dQm4Xr7pL1sT8wYb3NcZ get_weather @[4]",
      "0 call call_H5jR0eWq6Ua2Zn9Bx4Mv7CtY get_weather @[5]",
      "0 call get_air_quality#2 get_air_quality synthetic @[6]",
      "1 result call_k2V9dQm4Xr7pL1sT8wYb3NcZ @[7]",
      "1 result call_H5jR0eWq6Ua2Zn9Bx4Mv7CtY error @[8]",
      "1 result get_air_quality#2 @[9]",
      "1 result call_Orph4nR3sult8Xy2Wq6Ez1Tc @[10]",
      "1 message:assistant @[11:13]",
      "1 error:runtime @[13]",
    ]);
    expect(trace.events[0]).toMatchObject({ text: "The user wants the weather for two cities and the air quality." });
    expect(trace.events[1]).toMatchObject({ text: "Let me check both." });
    expect(Array.isArray(trace.events[1]?.raw)).toBe(true);
    expect(trace.events[10]).toMatchObject({ kind: "error", layer: "runtime", message: "Context length exceeded" });
  });

  it("reads object arguments, invalid JSON string arguments and Ailoy ToolMessage results", () => {
    expect(trace.events[2]).toMatchObject({ argumentsText: '{"location":"Seoul"}', arguments: { location: "Seoul" } });
    expect(trace.events[4]).toMatchObject({
      argumentsText: '{"city": "Seoul"',
      argumentsError: expect.stringMatching(/^invalid JSON: /),
    });
    expect(trace.events[4]).not.toHaveProperty("arguments");
    expect(trace.events[5]).toMatchObject({
      text: '{"temp_c": 21, "sky": "clear"}',
      content: [{ type: "text" }],
      isError: false,
    });
    expect(trace.events[6]).toMatchObject({
      text: "Error: upstream KMA API timed out after 10s",
      isError: true,
      errorSignal: "error-prefix",
    });
    expect(trace.events[7]).toMatchObject({ name: "get_air_quality", text: '{"pm25": 18}' });
  });

  it("keeps the orphan result and reports it", () => {
    expect(trace.issues.map((issue) => `${issue.path}: ${issue.message}`)).toEqual([
      "[10]: result for unknown call call_Orph4nR3sult8Xy2Wq6Ez1Tc",
    ]);
  });

  it("matches the golden canonical trace", async () => {
    await expect(`${JSON.stringify(trace, null, 2)}\n`).toMatchFileSnapshot(goldenPath("agent-stream-ailoy.json"));
  });

  it("appends streamed argument deltas of one call, and reads {id, name, arguments} / {call_id, output} shapes", () => {
    const out = parseAgentStream([
      {
        type: "tool_call",
        role: "assistant",
        is_type_switched: true,
        content: { id: "call_1", name: "search", arguments: '{"q":' },
      },
      { type: "tool_call", role: "assistant", is_type_switched: false, content: { arguments: '"tokyo"}' } },
      {
        type: "tool_call",
        role: "assistant",
        is_type_switched: false,
        content: { id: "call_2", name: "search", arguments: "{}" },
      },
      {
        type: "tool_call_result",
        role: "tool",
        is_type_switched: true,
        content: { call_id: "call_2", output: { hits: 0 } },
      },
      {
        type: "tool_call_result",
        role: "tool",
        is_type_switched: false,
        content: { call_id: "call_1", output: "3 hits", is_error: false },
      },
    ]);
    expect(summarize(out.events)).toEqual([
      "0 call call_1 search @[0:2]",
      "0 call call_2 search @[2]",
      "1 result call_2 @[3]",
      "1 result call_1 @[4]",
    ]);
    expect(out.events[0]).toMatchObject({ argumentsText: '{"q":"tokyo"}', arguments: { q: "tokyo" } });
    expect(out.events[2]).toMatchObject({ text: '{"hits":0}' });
    expect(out.events[3]).not.toHaveProperty("errorSignal");
  });

  it("throws a FormatError naming the item and field for malformed input", () => {
    expect(() => parseAgentStream([{ type: "output_text", role: "assistant", content: 42 }])).toThrow(FormatError);
    expect(() => parseAgentStream([{ type: "output_text", role: "assistant", content: 42 }])).toThrow(
      "[0].content: expected a string",
    );
    expect(() => parseAgentStream([{ type: "thinking", content: "x" }])).toThrow(
      '[0].type: expected one of output_text, tool_call, tool_call_result, reasoning, error, got "thinking"',
    );
    expect(() =>
      parseAgentStream([{ type: "tool_call", content: { id: "c", function: { arguments: "{}" } } }]),
    ).toThrow("[0].content.function.name: expected a string");
  });
});
