// Tests for the combined result analysis, with the seeds' real callback, envelope and MCP payloads.
import { afterEach, describe, expect, it, vi } from "vitest";

import { analyzeResult } from "./analyze";

const WEATHER_SCHEMA = {
  type: "object",
  properties: { temperature: { type: "number" }, conditions: { type: "string" }, humidity: { type: "number" } },
  required: ["temperature", "conditions", "humidity"],
};

const WEATHER_RESULT = JSON.stringify({
  content: [{ type: "text", text: '{"temperature": 22.5, "conditions": "Partly cloudy", "humidity": 65}' }],
  structuredContent: { temperature: 22.5, conditions: "Partly cloudy", humidity: 65 },
});

const TIMEOUT_ENVELOPE = JSON.stringify({
  success: false,
  data: null,
  confidence: 0,
  source: [],
  nextAction: "retry",
  error: { type: "timeout", message: "upstream timed out", retryable: true },
  meta: { toolName: "searchDocs", toolVersion: "2026-05-06", traceId: "t1", durationMs: 30012, cached: false },
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("analyzeResult", () => {
  it("analyses the seed's plain-text callback with a diff display", () => {
    const analysis = analyzeResult({
      text: "Replaced text in src/main.rs",
      displayAs: [
        {
          type: "diff",
          content: {
            path: "src/main.rs",
            patch: '--- src/main.rs\n+++ src/main.rs\n@@ -1,3 +1,4 @@\n fn main() {\n+ println!("hello");\n }',
          },
        },
        { type: "text", content: "edit_file src/main.rs — 1 insertion" },
      ],
    });
    expect(analysis).toMatchObject({
      envelope: { kind: "none" },
      envelopeLocation: null,
      mcp: { kind: "none" },
      schemaValidation: { status: "skipped", reason: "the tool declared no output schema" },
      schemaTarget: "none",
      flags: { errorPrefix: false, invisibleCount: 0, secretCount: 0 },
      display: { kind: "diff", index: 0, path: "src/main.rs" },
      isError: false,
      errorSource: null,
      errorSources: [],
    });
  });

  it("marks the seed's 'Error: ' result as an error from its prefix", () => {
    const analysis = analyzeResult({ text: "Error: API rate limit exceeded. Retry after 60 seconds." });
    expect(analysis).toMatchObject({ isError: true, errorSource: "error_prefix", errorSources: ["error_prefix"] });
    expect(analysis.display).toEqual({ kind: "raw", reason: "no display_as", skipped: [] });
  });

  it("marks a failed envelope as an error from the envelope", () => {
    const analysis = analyzeResult({ text: TIMEOUT_ENVELOPE });
    expect(analysis).toMatchObject({
      envelope: { kind: "valid" },
      envelopeLocation: "text",
      isError: true,
      errorSource: "envelope",
    });
  });

  it("validates MCP structuredContent against the declared schema", () => {
    expect(analyzeResult({ text: WEATHER_RESULT, outputSchema: WEATHER_SCHEMA })).toMatchObject({
      mcp: { kind: "mcp", isError: false },
      schemaTarget: "structuredContent",
      schemaValidation: { status: "valid" },
      isError: false,
    });
    const missingHumidity = JSON.stringify({ content: [], structuredContent: { temperature: 1, conditions: "x" } });
    expect(analyzeResult({ text: missingHumidity, outputSchema: WEATHER_SCHEMA }).schemaValidation).toEqual({
      status: "invalid",
      errors: [{ path: "/humidity", message: "is required" }],
    });
  });

  it("skips schema validation for an MCP error and names every error signal", () => {
    const text = JSON.stringify({
      content: [{ type: "text", text: "Failed to fetch weather data: API rate limit exceeded" }],
      isError: true,
      structuredContent: { success: false, error: "rate limited", nextAction: "retry" },
    });
    const analysis = analyzeResult({ text, outputSchema: WEATHER_SCHEMA });
    expect(analysis).toMatchObject({
      schemaValidation: { status: "skipped" },
      envelope: { kind: "invalid" },
      envelopeLocation: "structuredContent",
      isError: true,
      errorSource: "mcp",
      errorSources: ["mcp", "envelope"],
    });
  });

  it("validates a plain JSON text against the schema when the result is not MCP", () => {
    const text = '{"temperature": 22.5, "conditions": "Partly cloudy", "humidity": "65%"}';
    expect(analyzeResult({ text, outputSchema: WEATHER_SCHEMA })).toMatchObject({
      schemaTarget: "text_json",
      schemaValidation: { status: "invalid", errors: [{ path: "/humidity", message: "must be number" }] },
    });
    expect(analyzeResult({ text: "42", outputSchema: { type: "number" } }).schemaValidation).toEqual({
      status: "valid",
    });
  });

  it("fails a declared schema when the text is not JSON at all", () => {
    expect(analyzeResult({ text: "It is sunny and 22 degrees.", outputSchema: WEATHER_SCHEMA })).toMatchObject({
      schemaTarget: "none",
      schemaValidation: { status: "invalid" },
    });
  });

  it("parses the text once and shares it", () => {
    const parse = vi.spyOn(JSON, "parse");
    analyzeResult({ text: WEATHER_RESULT, outputSchema: WEATHER_SCHEMA });
    // The result text once; its TextContent block once more, to check it serialises structuredContent.
    expect(parse.mock.calls.filter(([text]) => text === WEATHER_RESULT)).toHaveLength(1);
    parse.mockClear();
    analyzeResult({ text: "Deployment completed successfully." });
    expect(parse).not.toHaveBeenCalled();
  });

  it("returns plain JSON", () => {
    const analysis = analyzeResult({
      text: WEATHER_RESULT.replace("Partly", "Part\u200Bly"),
      displayAs: [{ type: "video" }, { type: "text", content: "22.5 °C" }],
      outputSchema: WEATHER_SCHEMA,
    });
    expect(JSON.parse(JSON.stringify(analysis))).toStrictEqual(analysis);
  });

  it("handles a 5 MB JSON envelope and a 5 MB plain text", () => {
    const rows = Array.from({ length: 90_000 }, (_, i) => ({ id: i, title: `document ${i} with some padding text` }));
    const big = JSON.stringify({ ...JSON.parse(TIMEOUT_ENVELOPE), success: true, error: null, data: { rows } });
    expect(big.length).toBeGreaterThan(5_000_000);
    const analysis = analyzeResult({ text: big, outputSchema: { type: "object" } });
    expect(analysis).toMatchObject({
      envelope: { kind: "valid" },
      schemaValidation: { status: "valid" },
      isError: false,
    });

    const plain = `Error: ${"log line with a \u202E bidi override\n".repeat(160_000)}`;
    expect(plain.length).toBeGreaterThan(5_000_000);
    expect(analyzeResult({ text: plain }).flags).toMatchObject({ errorPrefix: true, invisibleCount: 160_000 });
  });
});
