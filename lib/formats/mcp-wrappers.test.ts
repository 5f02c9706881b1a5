// MCP logs as they come from real tools: each wrapper, per-direction JSON-RPC ids, and the protocol traffic
// (initialize, progress, sampling) on the timeline rather than among the issues.
import { describe, expect, it } from "vitest";
import { detectFormat, parseTranscript, parseTranscriptText } from "./detect";
import { summarize } from "./fixtures/load-fixture";
import { parseMcp } from "./mcp";

const initialize = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: { sampling: {} },
    clientInfo: { name: "probe", version: "1.0.0" },
  },
};
const initialized = {
  jsonrpc: "2.0",
  id: 0,
  result: {
    protocolVersion: "2025-06-18",
    capabilities: { tools: {} },
    serverInfo: { name: "everything", version: "2.0.0" },
  },
};
const call = {
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "trigger-sampling-request", arguments: { prompt: "Hi" }, _meta: { progressToken: 7 } },
};
// While the call runs the server asks the client's model (its own request, id 0) and reports progress.
const sampling = {
  jsonrpc: "2.0",
  id: 0,
  method: "sampling/createMessage",
  params: { messages: [{ role: "user", content: { type: "text", text: "Resource sampling: Hi" } }], maxTokens: 100 },
};
const samplingResult = {
  jsonrpc: "2.0",
  id: 0,
  result: { role: "assistant", content: { type: "text", text: "Hello!" }, model: "stub-model" },
};
const progress = {
  jsonrpc: "2.0",
  method: "notifications/progress",
  params: { progressToken: 7, progress: 1, total: 2, message: "halfway" },
};
const callResult = {
  jsonrpc: "2.0",
  id: 1,
  result: { content: [{ type: "text", text: "LLM sampling result: Hello!" }] },
};

describe("MCP log wrappers", () => {
  it("accepts client->server / server->client directions (a capture that answered 422)", () => {
    const log = [
      { direction: "client->server", message: initialize },
      { direction: "server->client", message: initialized },
      { direction: "client->server", message: call },
      { direction: "server->client", message: sampling },
      { direction: "client->server", message: samplingResult },
      { direction: "server->client", message: progress },
      { direction: "server->client", message: callResult },
    ];
    expect(detectFormat(log)).toBe("mcp");
    const trace = parseTranscript(log);
    expect(summarize(trace.events)).toEqual([
      "0 protocol initialize client->server @[0].message",
      "0 protocol initialize server->client @[1].message",
      "0 call mcp-1 trigger-sampling-request @[2].message",
      "0 protocol sampling/createMessage server->client mcp-1 @[3].message",
      "0 protocol sampling/createMessage client->server mcp-1 @[4].message",
      "0 protocol notifications/progress server->client mcp-1 @[5].message",
      "1 result mcp-1 @[6].message",
    ]);
    expect(trace.issues).toEqual([]);
    expect(trace.events[3]).toMatchObject({
      kind: "protocol",
      text: "sampling request · 1 message · Resource sampling: Hi",
    });
    expect(trace.events[4]).toMatchObject({ kind: "protocol", text: "sampling result · model stub-model · Hello!" });
    expect(trace.events[5]).toMatchObject({ kind: "protocol", text: "progress 1/2 · halfway" });
  });

  it("never pairs the server's request 0 with the client's request 0 in a bare log", () => {
    const bare = [initialize, initialized, { ...call, id: 0 }, sampling, samplingResult, { ...callResult, id: 0 }];
    const trace = parseMcp(bare);
    expect(summarize(trace.events)).toEqual([
      "0 protocol initialize client->server @[0]",
      "0 protocol initialize server->client @[1]",
      "0 call mcp-0 trigger-sampling-request @[2]",
      "0 protocol sampling/createMessage server->client mcp-0 @[3]",
      "0 protocol sampling/createMessage client->server mcp-0 @[4]",
      "1 result mcp-0 @[5]",
    ]);
    expect(trace.events[5]).toMatchObject({ kind: "tool_result", text: "LLM sampling result: Hello!" });
    expect(trace.issues).toEqual([]);
  });

  it("reads a server-side log, where the server sends what a client-side log receives", () => {
    const serverSide = [
      { direction: "receive", message: initialize },
      { direction: "send", message: initialized },
      { direction: "receive", message: call },
      { direction: "send", message: sampling },
      { direction: "receive", message: samplingResult },
      { direction: "send", message: callResult },
    ];
    const events = parseMcp(serverSide).events;
    expect(
      events.map((event) => (event.kind === "protocol" ? `${event.method} ${event.direction}` : event.kind)),
    ).toEqual([
      "initialize client->server",
      "initialize server->client",
      "tool_call",
      "sampling/createMessage server->client",
      "sampling/createMessage client->server",
      "tool_result",
    ]);
  });

  it("reads proxy logs with timestamps and the forwarded line as a JSON string", () => {
    const lines = [call, callResult].map((message, index) =>
      JSON.stringify({
        timestamp: `2026-11-22T10:00:0${index}.000Z`,
        direction: index === 0 ? "client_to_server" : "server_to_client",
        message: JSON.stringify(message),
      }),
    );
    const trace = parseTranscriptText(lines.join("\n"));
    expect(trace.format).toBe("mcp");
    expect(summarize(trace.events)).toEqual([
      "0 call mcp-1 trigger-sampling-request @[0].message",
      "1 result mcp-1 @[1].message",
    ]);
    expect(trace.events[0]?.raw).toMatchObject({ timestamp: "2026-11-22T10:00:00.000Z" });
  });

  it("reads MCP Inspector's request history ({request, response} JSON strings, no ids)", () => {
    const history = [
      { request: JSON.stringify({ method: "initialize" }), response: JSON.stringify(initialized.result) },
      {
        request: JSON.stringify({ method: "tools/call", params: { name: "echo", arguments: { message: "hi" } } }),
        response: JSON.stringify({ content: [{ type: "text", text: "Echo: hi" }] }),
      },
      {
        request: JSON.stringify({ method: "tools/call", params: { name: "nope", arguments: {} } }),
        response: JSON.stringify({ error: "MCP error -32602: Tool nope not found" }),
      },
      { request: JSON.stringify({ method: "notifications/roots/list_changed" }) },
    ];
    expect(detectFormat(history)).toBe("mcp");
    const trace = parseTranscript(history);
    expect(summarize(trace.events)).toEqual([
      "0 protocol initialize client->server @[0].request",
      "0 protocol initialize server->client @[0].response",
      "0 call mcp-inspector-1 echo @[1].request",
      "1 result mcp-inspector-1 @[1].response",
      "1 call mcp-inspector-2 nope @[2].request",
      "2 error:protocol mcp-inspector-2 @[2].response",
      "2 protocol notifications/roots/list_changed client->server @[3].request",
    ]);
    expect(trace.events[5]).toMatchObject({ message: "JSON-RPC error: MCP error -32602: Tool nope not found" });
  });

  it("says which entry is not MCP at all", () => {
    expect(() => parseMcp([{ hello: "world" }])).toThrow("[0]: expected a JSON-RPC message");
    expect(() => parseMcp([{ direction: "send", message: "not json" }])).toThrow(
      "[0].message: expected a JSON-RPC message, got a string that is not JSON",
    );
  });
});
