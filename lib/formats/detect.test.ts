// Tests for format detection and the parseTranscript / parseTranscriptText entry points.
import { describe, expect, it } from "vitest";
import { detectFormat, parseTranscript, parseTranscriptText } from "./detect";
import { loadFixture, loadFixtureText } from "./fixtures/load-fixture";
import { FormatError } from "./format-error";

describe("detectFormat", () => {
  it.each([
    ["anthropic-parallel-weather.json", "anthropic"],
    ["openai-chat-parallel.json", "openai-chat"],
    ["openai-responses-input.json", "openai-responses"],
    ["openai-responses-response.json", "openai-responses"],
    ["gemini-no-ids.json", "gemini"],
    ["gemini-with-ids.json", "gemini"],
  ])("detects %s as %s", (fixture, format) => {
    expect(detectFormat(loadFixture(fixture))).toBe(format);
  });

  it.each([
    ["mcp-session.jsonl", "mcp"],
    ["agent-stream-ailoy.jsonl", "agent-stream"],
  ])("detects %s as %s through parseTranscriptText", (fixture, format) => {
    expect(parseTranscriptText(loadFixtureText(fixture)).format).toBe(format);
  });

  it("tells the message formats apart by their block and role vocabulary", () => {
    expect(
      detectFormat([{ role: "assistant", content: [{ type: "tool_use", id: "toolu_01", name: "f", input: {} }] }]),
    ).toBe("anthropic");
    expect(
      detectFormat([
        { role: "user", content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: "" } }] },
      ]),
    ).toBe("anthropic");
    expect(detectFormat([{ role: "tool", tool_call_id: "call_1", content: "ok" }])).toBe("openai-chat");
    expect(detectFormat([{ role: "user", content: [{ type: "input_text", text: "hi" }] }])).toBe("openai-responses");
    expect(detectFormat([{ type: "function_call_output", call_id: "call_1", output: "ok" }])).toBe("openai-responses");
    expect(detectFormat([{ role: "model", parts: [{ text: "hi" }] }])).toBe("gemini");
    expect(detectFormat({ messages: [{ role: "user", content: "hi" }], system: "be brief" })).toBe("anthropic");
    expect(detectFormat({ model: "claude-opus-4-1", messages: [{ role: "user", content: "hi" }] })).toBe("anthropic");
    expect(detectFormat({ messages: [{ role: "user", content: "hi" }] })).toBe("openai-chat");
    expect(detectFormat({ jsonrpc: "2.0", id: 1, method: "tools/list" })).toBe("mcp");
    expect(
      detectFormat({
        type: "message",
        role: "assistant",
        content: [{ type: "text", text: "hi" }],
        stop_reason: "end_turn",
      }),
    ).toBe("anthropic");
    expect(
      detectFormat({ object: "chat.completion", choices: [{ message: { role: "assistant", content: "hi" } }] }),
    ).toBe("openai-chat");
    expect(detectFormat({ candidates: [{ content: { role: "model", parts: [{ text: "hi" }] } }] })).toBe("gemini");
    // A Responses reasoning item shares its type name with stream chunks but has no role.
    expect(detectFormat([{ type: "reasoning", id: "rs_1", summary: [] }])).toBe("openai-responses");
    expect(detectFormat([{ type: "reasoning", role: "assistant", content: "hmm" }])).toBe("agent-stream");
  });

  it("reads text-only role/content messages, valid in several formats, as openai-chat", () => {
    expect(
      detectFormat([
        { role: "user", content: "hi" },
        { role: "assistant", content: "hello" },
      ]),
    ).toBe("openai-chat");
  });

  it("does not claim Toolscope's own export, or things that are no transcript", () => {
    const exportText =
      '{"kind":"toolscope-export","version":1,"toolscope":"0.1.0"}\n{"kind":"thread","group_id":"thread_1"}\n';
    expect(detectFormat([{ kind: "toolscope-export", version: 1 }, { kind: "thread" }])).toBeNull();
    expect(detectFormat({ kind: "toolscope-export", version: 1 })).toBeNull();
    expect(() => parseTranscriptText(exportText)).toThrow("cannot tell the transcript format");
    expect(detectFormat({ hello: "world" })).toBeNull();
    expect(detectFormat("messages")).toBeNull();
    expect(detectFormat([])).toBeNull();
  });
});

describe("parseTranscript", () => {
  const textOnly = [
    { role: "user", content: "hi" },
    { role: "assistant", content: "hello" },
  ];

  it("lets an explicit format win over detection", () => {
    expect(parseTranscript(textOnly).format).toBe("openai-chat");
    const anthropic = parseTranscript(textOnly, "anthropic");
    expect(anthropic.format).toBe("anthropic");
    expect(anthropic.events.map((event) => event.kind)).toEqual(["message", "message"]);
  });

  it("throws a FormatError when nothing matches", () => {
    expect(() => parseTranscript({ hello: "world" })).toThrow(FormatError);
  });
});

describe("parseTranscriptText", () => {
  it("accepts a JSON document, with or without a BOM", () => {
    const text = `\uFEFF${JSON.stringify({ contents: [{ role: "user", parts: [{ text: "hi" }] }] }, null, 2)}`;
    expect(parseTranscriptText(text).format).toBe("gemini");
  });

  it("accepts JSONL with blank lines and CRLF endings", () => {
    const text = [
      '{"type":"output_text","role":"assistant","is_type_switched":true,"content":"Hel"}',
      "",
      '{"type":"output_text","role":"assistant","is_type_switched":false,"content":"lo"}',
    ].join("\r\n");
    const trace = parseTranscriptText(text);
    expect(trace.events).toMatchObject([{ kind: "message", text: "Hello", path: "[0:2]" }]);
  });

  it("names the JSONL line that does not parse", () => {
    const text = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n\n{"jsonrpc":"2.0","id":1,"result":{"tools":[]}\n';
    expect(() => parseTranscriptText(text)).toThrow(FormatError);
    expect(() => parseTranscriptText(text)).toThrow(/^line 3: invalid JSON on line 3: /);
  });

  it("reports a broken JSON document as JSON, not as line 1 of JSONL", () => {
    expect(() => parseTranscriptText('{\n  "messages": [\n')).toThrow(/^invalid JSON: /);
    expect(() => parseTranscriptText("   \n")).toThrow("empty transcript");
  });

  it("passes the explicit format through", () => {
    const text = '{"role":"user","content":"hi"}\n{"role":"assistant","content":"hello"}\n';
    expect(parseTranscriptText(text, "anthropic").format).toBe("anthropic");
  });
});
