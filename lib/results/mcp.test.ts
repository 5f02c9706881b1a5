// Tests for reading MCP CallToolResults, using the MCP seed's own blocks and its JSON-RPC example.
import { describe, expect, it } from "vitest";

import { detectMcpResult, STRUCTURED_WITHOUT_TEXT } from "./mcp";

// seeds/mcp-tool-result-types.md — "Example valid response for this tool".
const SEED_WEATHER_RESPONSE = `{
  "jsonrpc": "2.0",
  "id": 5,
  "result": {
    "content": [
      {
        "type": "text",
        "text": "{\\"temperature\\": 22.5, \\"conditions\\": \\"Partly cloudy\\", \\"humidity\\": 65}"
      }
    ],
    "structuredContent": {
      "temperature": 22.5,
      "conditions": "Partly cloudy",
      "humidity": 65
    }
  }
}`;

// A real 1×1 transparent PNG.
const PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

const SEED_BLOCKS = [
  { type: "text", text: "Tool result text" },
  { type: "image", data: PNG_1X1, mimeType: "image/png", annotations: { audience: ["user"], priority: 0.9 } },
  { type: "audio", data: "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=", mimeType: "audio/wav" },
  {
    type: "resource_link",
    uri: "file:///project/src/main.rs",
    name: "main.rs",
    description: "Primary application entry point",
    mimeType: "text/x-rust",
    annotations: { audience: ["assistant"], priority: 0.9 },
  },
  {
    type: "resource",
    resource: {
      uri: "file:///project/src/main.rs",
      title: "Project Rust Main File",
      mimeType: "text/x-rust",
      text: 'fn main() {\n    println!("Hello world!");\n}',
    },
  },
];

describe("detectMcpResult", () => {
  it("unwraps the seed's JSON-RPC response and reads content and structuredContent", () => {
    expect(detectMcpResult(SEED_WEATHER_RESPONSE)).toEqual({
      kind: "mcp",
      content: [{ type: "text", text: '{"temperature": 22.5, "conditions": "Partly cloudy", "humidity": 65}' }],
      structuredContent: { temperature: 22.5, conditions: "Partly cloudy", humidity: 65 },
      isError: false,
      problems: [],
      warnings: [],
    });
  });

  it("reads every block type of the seed", () => {
    const analysis = detectMcpResult(JSON.stringify({ content: SEED_BLOCKS }));
    expect(analysis).toEqual({ kind: "mcp", content: SEED_BLOCKS, isError: false, problems: [], warnings: [] });
  });

  it("keeps an image whose data is the seed's placeholder, but says it is not base64", () => {
    const analysis = detectMcpResult(
      JSON.stringify({ content: [{ type: "image", data: "base64-encoded-data", mimeType: "image/png" }] }),
    );
    expect(analysis).toMatchObject({
      kind: "mcp",
      content: [{ type: "image", data: "base64-encoded-data", mimeType: "image/png" }],
      problems: ["content[0].data: is not valid base64"],
    });
  });

  it("reads isError", () => {
    const analysis = detectMcpResult(
      '{"content":[{"type":"text","text":"Failed to fetch weather data: API rate limit exceeded"}],"isError":true}',
    );
    expect(analysis).toMatchObject({ kind: "mcp", isError: true, problems: [] });
  });

  it("turns unknown or malformed blocks into unknown blocks and says why", () => {
    const analysis = detectMcpResult(
      JSON.stringify({
        content: [
          { type: "text", text: 42 },
          { type: "video", url: "https://example.com/v.mp4" },
          "loose string",
          { type: "image", data: PNG_1X1 },
          { type: "resource", resource: { uri: "mem://x", blob: "not base64!" } },
          { type: "resource", resource: { uri: "mem://y" } },
          { type: "resource_link", uri: "file:///a", name: 7 },
        ],
        isError: "yes",
        structuredContent: [1, 2],
      }),
    );
    if (analysis.kind !== "mcp") throw new Error("expected an MCP result");
    expect(analysis.content).toEqual([
      { type: "unknown", raw: { type: "text", text: 42 } },
      { type: "unknown", raw: { type: "video", url: "https://example.com/v.mp4" } },
      { type: "unknown", raw: "loose string" },
      { type: "unknown", raw: { type: "image", data: PNG_1X1 } },
      { type: "resource", resource: { uri: "mem://x", blob: "not base64!" } },
      { type: "resource", resource: { uri: "mem://y" } },
      { type: "resource_link", uri: "file:///a" },
    ]);
    expect(analysis.isError).toBe(false);
    expect(analysis.structuredContent).toEqual([1, 2]);
    expect(analysis.problems).toEqual([
      "content[0]: text block without a string `text`",
      'content[1]: unknown content type "video"',
      'content[2]: must be an object with a type (got "loose string")',
      "content[3]: image block without string `mimeType`",
      "content[4].resource.blob: is not valid base64",
      "content[5].resource: has neither text nor blob",
      "content[6].name: must be a string (got 7)",
      'isError: must be a boolean (got "yes")',
      "structuredContent: must be a JSON object (got an array)",
    ]);
  });

  it("recognises structuredContent alone and notes the missing content", () => {
    expect(detectMcpResult('{"structuredContent": {"ok": true}}')).toEqual({
      kind: "mcp",
      content: [],
      structuredContent: { ok: true },
      isError: false,
      problems: ["content: missing (required, may be empty)"],
      warnings: [STRUCTURED_WITHOUT_TEXT],
    });
  });

  it("flags structuredContent that no TextContent block serialises (seed: SHOULD also return it as text)", () => {
    const withText = detectMcpResult(
      '{"content":[{"type":"text","text":"{\\"ok\\": true, \\"n\\": [1, 2]}"}],"structuredContent":{"n":[1,2],"ok":true}}',
    );
    expect(withText.kind === "mcp" ? withText.warnings : null).toEqual([]);
    const otherText = detectMcpResult(
      '{"content":[{"type":"text","text":"All good."}],"structuredContent":{"ok":true}}',
    );
    expect(otherText.kind === "mcp" ? otherText.warnings : null).toEqual([STRUCTURED_WITHOUT_TEXT]);
    const noStructured = detectMcpResult('{"content":[{"type":"text","text":"All good."}]}');
    expect(noStructured.kind === "mcp" ? noStructured.warnings : null).toEqual([]);
  });

  it.each([
    ["plain text", "Replaced text in src/main.rs"],
    ["a content array of strings", '{"content": ["a", "b"]}'],
    ["a string content", '{"content": "hello"}'],
    ["isError alone", '{"isError": true}'],
    ["a JSON-RPC error", '{"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "Unknown tool"}}'],
    ["broken JSON", '{"content": ['],
  ])("returns none for %s", (_name, text) => {
    expect(detectMcpResult(text)).toEqual({ kind: "none" });
  });

  it("ignores inherited keys and __proto__ keys", () => {
    const analysis = detectMcpResult('{"__proto__": {"isError": true}, "content": [{"type": "text", "text": "ok"}]}');
    expect(analysis).toMatchObject({ kind: "mcp", isError: false });
    expect(Reflect.get({}, "isError")).toBeUndefined();
  });

  it("checks a 5 MB base64 image without trouble", () => {
    const data = "QUJD".repeat(1_300_000);
    const analysis = detectMcpResult(JSON.stringify({ content: [{ type: "image", data, mimeType: "image/png" }] }));
    expect(analysis).toMatchObject({ kind: "mcp", problems: [] });
  });
});
