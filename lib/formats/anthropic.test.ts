// Golden tests for the Anthropic Messages adapter.
import { describe, expect, it } from "vitest";
import { parseAnthropic } from "./anthropic";
import { goldenPath, loadFixture, summarize } from "./fixtures/load-fixture";
import { FormatError } from "./format-error";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

describe("parseAnthropic", () => {
  const trace = parseAnthropic(loadFixture("anthropic-parallel-weather.json"));

  it("maps the transcript in order, with parallel tool_use blocks sharing the step of their turn", () => {
    expect(summarize(trace.events)).toEqual([
      "0 message:system @system",
      "0 message:user @messages[0]",
      "0 reasoning @messages[1].content[0]",
      "0 message:assistant @messages[1].content[1]",
      "0 call toolu_01A09q90qw90lq917835lq9 get_weather @messages[1].content[2]",
      "0 call toolu_01B7pF3hXjq2vLkLmNo4RsTu get_weather @messages[1].content[3]",
      "0 call toolu_01CkT9wQz8RmYvE2sHd5FgJa get_local_time @messages[1].content[4]",
      "0 call toolu_01DmV6xNc3BqLr8tWy1ZpKeH render_map @messages[1].content[5]",
      "1 result toolu_01A09q90qw90lq917835lq9 @messages[2].content[0]",
      "1 result toolu_01B7pF3hXjq2vLkLmNo4RsTu @messages[2].content[1]",
      "1 result toolu_01CkT9wQz8RmYvE2sHd5FgJa error @messages[2].content[2]",
      "1 result toolu_01DmV6xNc3BqLr8tWy1ZpKeH @messages[2].content[3]",
      "1 reasoning redacted @messages[3].content[0]",
      "1 message:assistant @messages[3].content[1]",
      "1 call toolu_01EqR4sTb7NwXc2VyHj9LmPd get_local_time @messages[3].content[2]",
      "2 result toolu_01EqR4sTb7NwXc2VyHj9LmPd @messages[4].content[0]",
      "2 result toolu_01ZzStaleResult4kQ8wP2mN @messages[4].content[1]",
      "2 message:user @messages[4].content[2]",
      "2 message:assistant @messages[5].content[0]",
    ]);
  });

  it("keeps tool_use input as the parsed object and its JSON text, and the raw block verbatim", () => {
    expect(trace.events[4]).toEqual({
      kind: "tool_call",
      step: 0,
      callId: "toolu_01A09q90qw90lq917835lq9",
      syntheticId: false,
      name: "get_weather",
      input: "json",
      argumentsText: '{"location":"Paris, France","unit":"celsius"}',
      arguments: { location: "Paris, France", unit: "celsius" },
      raw: {
        type: "tool_use",
        id: "toolu_01A09q90qw90lq917835lq9",
        name: "get_weather",
        input: { location: "Paris, France", unit: "celsius" },
      },
      path: "messages[1].content[2]",
    });
  });

  it("reads string content, text-block arrays, is_error and image blocks in tool_result", () => {
    expect(trace.events[8]).toMatchObject({ text: '{"temp_c":18,"conditions":"cloudy"}', isError: false });
    expect(trace.events[8]).not.toHaveProperty("content");
    expect(trace.events[9]).toMatchObject({
      text: '{"temp_c":24,"conditions":"sunny"}',
      content: [{ type: "text", text: '{"temp_c":24,"conditions":"sunny"}' }],
    });
    expect(trace.events[10]).toMatchObject({
      kind: "tool_result",
      text: 'Error: unknown time zone "Asia/Tokio". Did you mean "Asia/Tokyo"?',
      isError: true,
      errorSignal: "vendor-flag",
    });
    expect(trace.events[11]).toMatchObject({
      text: "Map of Tokyo, 512x512",
      content: [
        { type: "text", text: "Map of Tokyo, 512x512" },
        { type: "image", data: PNG, mimeType: "image/png" },
      ],
    });
  });

  it("maps thinking and redacted_thinking to reasoning", () => {
    expect(trace.events[2]).toMatchObject({
      kind: "reasoning",
      text: expect.stringContaining("four independent lookups"),
    });
    expect(trace.events[12]).toMatchObject({ kind: "reasoning", text: "", redacted: true });
  });

  it("keeps a result with no matching call as an event and reports it", () => {
    expect(trace.events[16]).toMatchObject({ kind: "tool_result", callId: "toolu_01ZzStaleResult4kQ8wP2mN" });
    expect(trace.issues).toEqual([
      {
        path: "messages[4].content[1]",
        message: "result for unknown call toolu_01ZzStaleResult4kQ8wP2mN",
        raw: {
          type: "tool_result",
          tool_use_id: "toolu_01ZzStaleResult4kQ8wP2mN",
          content: '{"status":"late delivery from a cancelled run"}',
        },
      },
    ]);
  });

  it("reads declarations from tools", () => {
    expect(trace.declarations.map((declaration) => declaration.name)).toEqual([
      "get_weather",
      "get_local_time",
      "render_map",
    ]);
    expect(trace.declarations[1]).toMatchObject({
      description: "Get the current local time in an IANA time zone.",
      inputSchema: { type: "object", required: ["timezone"] },
    });
  });

  it("matches the golden canonical trace", async () => {
    await expect(`${JSON.stringify(trace, null, 2)}\n`).toMatchFileSnapshot(
      goldenPath("anthropic-parallel-weather.json"),
    );
  });

  it("accepts a bare messages array", () => {
    const bare = parseAnthropic([
      { role: "user", content: "hi" },
      { role: "assistant", content: [{ type: "text", text: "hello" }] },
    ]);
    expect(summarize(bare.events)).toEqual(["0 message:user @[0]", "0 message:assistant @[1].content[0]"]);
  });

  it("reads a Messages API response object as one assistant message", () => {
    const response = {
      id: "msg_01XFDUDYJgAACzvnptvVoYEL",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5-20250929",
      content: [
        { type: "text", text: "Checking both." },
        { type: "tool_use", id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6", name: "get_weather", input: { location: "Oslo" } },
        { type: "tool_use", id: "toolu_01VqJ7ejfxyTfr3xdpqPUx8S", name: "get_weather", input: { location: "Bergen" } },
      ],
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: { input_tokens: 412, output_tokens: 96 },
    };
    expect(summarize(parseAnthropic(response).events)).toEqual([
      "0 message:assistant @content[0]",
      "0 call toolu_01T1x1fJ34qAmk2tNTrN7Up6 get_weather @content[1]",
      "0 call toolu_01VqJ7ejfxyTfr3xdpqPUx8S get_weather @content[2]",
    ]);
  });

  it("reports tool_result blocks placed after text, and calls left unanswered before the next turn", () => {
    const out = parseAnthropic([
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_01X", name: "lookup", input: {} }] },
      {
        role: "user",
        content: [
          { type: "text", text: "here:" },
          { type: "tool_result", tool_use_id: "toolu_01X", content: "ok" },
        ],
      },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_01Y", name: "lookup", input: {} }] },
      { role: "user", content: "no result for you" },
      { role: "assistant", content: "fine" },
    ]);
    expect(out.issues.map((issue) => `${issue.path}: ${issue.message}`)).toEqual([
      "[1].content[1]: tool_result after other content: Anthropic requires tool_result blocks first",
      "[2].content[0]: call toolu_01Y has no result before the next model turn (step 2)",
    ]);
  });

  it("reports unmapped block types instead of dropping them", () => {
    const out = parseAnthropic([
      {
        role: "assistant",
        content: [
          { type: "server_tool_use", id: "srvtoolu_01", name: "web_search", input: { query: "tokyo weather" } },
        ],
      },
    ]);
    expect(out.events).toEqual([]);
    expect(out.issues).toMatchObject([
      { path: "[0].content[0]", message: "unmapped content block type server_tool_use" },
    ]);
  });

  it("throws a FormatError naming the item and field for malformed input", () => {
    const malformed = {
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_01", name: "lookup", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: 42, content: "ok" }] },
      ],
    };
    expect(() => parseAnthropic(malformed)).toThrow(FormatError);
    expect(() => parseAnthropic(malformed)).toThrow(
      "messages[2].content[0].tool_use_id: expected a string, got number",
    );
    expect(() => parseAnthropic({ messages: [{ role: "tool", content: "x" }] })).toThrow(
      'messages[0].role: expected "user" or "assistant", got "tool"',
    );
    expect(() =>
      parseAnthropic({
        messages: [{ role: "assistant", content: [{ type: "tool_use", id: "t", name: "n", input: "x" }] }],
      }),
    ).toThrow("messages[0].content[0].input: expected an object, got string");
    expect(() => parseAnthropic({ system: "x" })).toThrow("messages: expected an array, got undefined");
  });
});
