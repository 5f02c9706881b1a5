// Golden tests for the MCP JSON-RPC log adapter.
import { describe, expect, it } from "vitest";
import { readJsonOrJsonl } from "./detect";
import { goldenPath, loadFixtureText, summarize } from "./fixtures/load-fixture";
import { FormatError } from "./format-error";
import { parseMcp } from "./mcp";

describe("parseMcp", () => {
  const trace = parseMcp(readJsonOrJsonl(loadFixtureText("mcp-session.jsonl")));

  it("maps tools/call requests to calls and their responses to results or protocol errors", () => {
    expect(summarize(trace.events)).toEqual([
      "0 protocol initialize client->server @[0].message",
      "0 protocol initialize server->client @[1].message",
      "0 protocol notifications/initialized client->server @[2].message",
      "0 protocol tools/list client->server @[3].message",
      "0 protocol tools/list server->client @[4].message",
      "0 call mcp-2 get_weather_data @[5].message",
      "1 result mcp-2 @[6].message",
      "1 call mcp-3 render_radar @[7].message",
      "1 call mcp-4 read_station_log @[8].message",
      "1 call mcp-5 get_weather_data @[9].message",
      "2 result mcp-4 @[10].message",
      "2 result mcp-3 @[11].message",
      "2 result mcp-5 error @[12].message",
      "2 call mcp-6 get_forecast @[13].message",
      "3 error:protocol mcp-6 @[14].message",
      "3 result mcp-42 @[15].message",
      "3 call mcp-7 get_weather_data @[16].message",
    ]);
  });

  it("declares tools from tools/list, outputSchema included", () => {
    expect(trace.declarations.map((declaration) => declaration.name)).toEqual([
      "get_weather_data",
      "render_radar",
      "read_station_log",
    ]);
    expect(trace.declarations[0]).toMatchObject({
      description: "Get current weather data for a location",
      inputSchema: { required: ["location"] },
      outputSchema: { required: ["temperature", "conditions", "humidity"] },
    });
  });

  it("keeps content blocks, structuredContent and isError", () => {
    expect(trace.events[6]).toMatchObject({
      text: '{"temperature": 22.5, "conditions": "Partly cloudy", "humidity": 65}',
      structuredContent: { temperature: 22.5, conditions: "Partly cloudy", humidity: 65 },
      isError: false,
    });
    expect(trace.events[10]).toMatchObject({
      text: "",
      content: [
        {
          type: "resource_link",
          uri: "file:///var/log/stations/LFPG.log",
          name: "LFPG.log",
          mimeType: "text/plain",
          description: "Raw station log",
        },
        {
          type: "resource",
          resource: {
            uri: "file:///var/log/stations/LFPG-summary.txt",
            mimeType: "text/plain",
            text: "LFPG 12Z: wind 240/12kt, visibility 10km",
          },
        },
      ],
    });
    expect(trace.events[11]).toMatchObject({
      text: "Radar for Île-de-France",
      content: [{ type: "text" }, { type: "image", mimeType: "image/png" }, { type: "audio", mimeType: "audio/wav" }],
    });
    expect(trace.events[12]).toMatchObject({
      text: "Location not found: Atlantis",
      isError: true,
      errorSignal: "vendor-flag",
    });
  });

  it("keeps protocol errors distinct from tool execution errors", () => {
    expect(trace.events[14]).toEqual({
      kind: "error",
      step: 3,
      layer: "protocol",
      message: "JSON-RPC error -32602: Unknown tool: get_forecast",
      callId: "mcp-6",
      raw: {
        direction: "receive",
        message: { jsonrpc: "2.0", id: 6, error: { code: -32602, message: "Unknown tool: get_forecast" } },
      },
      path: "[14].message",
    });
  });

  it("keeps a response to an unknown request and reports everything it did not map", () => {
    expect(trace.events[15]).toMatchObject({
      kind: "tool_result",
      callId: "mcp-42",
      text: "late result from a previous session",
    });
    expect(trace.issues.map((issue) => `${issue.path}: ${issue.message}`)).toEqual([
      "[15].message: result for unknown call mcp-42",
    ]);
    // The initialize exchange and tools/list are on the timeline, not issues.
    expect(trace.events.slice(0, 5).map((event) => (event.kind === "protocol" ? event.text : event.kind))).toEqual([
      "initialize · client toolscope-probe 0.1.0 · protocol 2025-06-18",
      "initialize → weather-server 1.4.2 · protocol 2025-06-18 · capabilities: tools",
      "notifications/initialized",
      "tools/list",
      "tools/list → 3 tools: get_weather_data, render_radar, read_station_log",
    ]);
  });

  it("matches the golden canonical trace", async () => {
    await expect(`${JSON.stringify(trace, null, 2)}\n`).toMatchFileSnapshot(goldenPath("mcp-session.json"));
  });

  it("reads bare messages, cancellations and string ids", () => {
    const out = parseMcp([
      {
        jsonrpc: "2.0",
        id: "req-a",
        method: "tools/call",
        params: { name: "slow_query", arguments: { sql: "select 1" } },
      },
      {
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: "req-a", reason: "User requested cancellation" },
      },
    ]);
    expect(summarize(out.events)).toEqual(["0 call mcp-req-a slow_query @[0]", "0 error:protocol mcp-req-a @[1]"]);
    expect(out.events[1]).toMatchObject({ message: "request cancelled: User requested cancellation" });
  });

  it("keeps the two peers' id spaces apart when messages carry a direction", () => {
    const out = parseMcp([
      { direction: "send", message: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "summarize" } } },
      // While the call runs, the server sends its own request 1 (sampling) and the client answers it.
      { direction: "receive", message: { jsonrpc: "2.0", id: 1, method: "sampling/createMessage", params: {} } },
      {
        direction: "send",
        message: { jsonrpc: "2.0", id: 1, result: { role: "assistant", content: { type: "text", text: "hi" } } },
      },
      {
        direction: "receive",
        message: { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "summary" }] } },
      },
    ]);
    expect(summarize(out.events)).toEqual([
      "0 call mcp-1 summarize @[0].message",
      "0 protocol sampling/createMessage server->client mcp-1 @[1].message",
      "0 protocol sampling/createMessage client->server mcp-1 @[2].message",
      "1 result mcp-1 @[3].message",
    ]);
    expect(out.issues).toEqual([]);
  });

  it("throws a FormatError naming the item and field for malformed input", () => {
    expect(() => parseMcp([{ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: 5 } }])).toThrow(FormatError);
    expect(() => parseMcp([{ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: 5 } }])).toThrow(
      "[0].params.name: expected a string, got number",
    );
    expect(() => parseMcp([{ jsonrpc: "1.0", id: 1, result: {} }])).toThrow('[0].jsonrpc: expected "2.0", got "1.0"');
    expect(() => parseMcp([{ direction: "up", message: { jsonrpc: "2.0", id: 1, result: {} } }])).toThrow(
      '[0].direction: expected a direction such as "send"/"receive" or "client->server"/"server->client", got "up"',
    );
    expect(() =>
      parseMcp([
        { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "f" } },
        { jsonrpc: "2.0", id: 9, result: { content: [{ type: "text" }] } },
      ]),
    ).toThrow("[1].result.content[0].text: expected a string, got undefined");
  });
});
