// A live MCP capture: the official MCP TypeScript client talks to the reference server
// (@modelcontextprotocol/server-everything) over stdio, every JSON-RPC message is recorded as it crosses the
// transport, and the capture is imported as captured — in each wrapper real logs use.
import { createRequire } from "node:module";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CreateMessageRequestSchema,
  ListRootsRequestSchema,
  type JSONRPCMessage,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CanonicalTrace } from "./canonical";
import { explainFormat, parseTranscriptText } from "./detect";

type Recorded = { at: string; direction: "client->server" | "server->client"; message: JSONRPCMessage };

/** A transport that records every message both ways, with the time it crossed. */
class RecordingTransport implements Transport {
  readonly log: Recorded[] = [];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  constructor(private readonly inner: StdioClientTransport) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message) => {
      this.log.push({ at: new Date().toISOString(), direction: "server->client", message });
      this.onmessage?.(message);
    };
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage): Promise<void> {
    this.log.push({ at: new Date().toISOString(), direction: "client->server", message });
    return this.inner.send(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

// The Inspector keeps {request, response} JSON strings of the client's requests ({method, params}, the result).
function inspectorHistory(log: readonly Recorded[]): string {
  const items: { request: string; response?: string }[] = [];
  for (const entry of log) {
    const message = entry.message;
    if (entry.direction !== "client->server" || !("method" in message)) continue;
    const request = JSON.stringify({
      method: message.method,
      ...("params" in message ? { params: message.params } : {}),
    });
    if (!("id" in message)) {
      items.push({ request });
      continue;
    }
    const reply = log.find(
      (other) =>
        other.direction === "server->client" &&
        "id" in other.message &&
        other.message.id === message.id &&
        !("method" in other.message),
    );
    const body =
      reply === undefined
        ? undefined
        : "result" in reply.message
          ? reply.message.result
          : "error" in reply.message
            ? { error: reply.message.error.message }
            : undefined;
    items.push(body === undefined ? { request } : { request, response: JSON.stringify(body) });
  }
  return items.map((item) => JSON.stringify(item)).join("\n");
}

const serverEntry = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js");

describe("a live capture between the MCP SDK client and server-everything", () => {
  let log: Recorded[] = [];

  beforeAll(async () => {
    const transport = new RecordingTransport(
      new StdioClientTransport({ command: process.execPath, args: [serverEntry, "stdio"], stderr: "ignore" }),
    );
    const client = new Client(
      { name: "toolscope-capture", version: "1.0.0" },
      { capabilities: { sampling: {}, roots: { listChanged: true } } },
    );
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: "assistant",
      content: { type: "text", text: "Sampled: all clear." },
      model: "stub-model",
      stopReason: "endTurn",
    }));
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: [{ uri: "file:///workspace", name: "workspace" }],
    }));
    await client.connect(transport);
    await client.listTools();
    await client.callTool({ name: "echo", arguments: { message: "hello" } });
    await client.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } });
    await client.callTool({ name: "get-tiny-image", arguments: {} });
    await client.callTool({ name: "get-resource-links", arguments: { count: 2 } });
    await client.callTool({ name: "get-resource-reference", arguments: { resourceType: "Text", resourceId: 1 } });
    await client.callTool({ name: "get-structured-content", arguments: { location: "New York" } });
    await client.callTool(
      { name: "trigger-long-running-operation", arguments: { duration: 0.2, steps: 2 } },
      undefined,
      { onprogress: () => undefined },
    );
    await client.callTool({
      name: "trigger-sampling-request",
      arguments: { prompt: "Is the site safe?", maxTokens: 20 },
    });
    await client.callTool({ name: "no-such-tool", arguments: {} }).catch(() => undefined);
    await client.close();
    log = transport.log;
  }, 60_000);

  afterAll(() => {
    log = [];
  });

  // The Inspector's history holds only the client's own requests: no sampling or progress from the server.
  const wrappers: [string, () => string][] = [
    ["bare JSON-RPC lines", () => log.map((entry) => JSON.stringify(entry.message)).join("\n")],
    [
      "{direction, message} with client->server / server->client",
      () => log.map((entry) => JSON.stringify({ direction: entry.direction, message: entry.message })).join("\n"),
    ],
    [
      "{direction, message} with send / receive",
      () =>
        log
          .map((entry) =>
            JSON.stringify({
              direction: entry.direction === "client->server" ? "send" : "receive",
              message: entry.message,
            }),
          )
          .join("\n"),
    ],
    [
      "a proxy log with timestamps and the line as a string",
      () =>
        log
          .map((entry) =>
            JSON.stringify({
              timestamp: entry.at,
              direction: entry.direction === "client->server" ? "c2s" : "s2c",
              message: JSON.stringify(entry.message),
            }),
          )
          .join("\n"),
    ],
    ["MCP Inspector's history (the client's requests with their responses, no ids)", () => inspectorHistory(log)],
  ];

  const summary = (trace: CanonicalTrace) =>
    trace.events.map((event) => {
      if (event.kind === "tool_call") return `call ${event.name}`;
      if (event.kind === "tool_result")
        return `result ${event.callId}${event.isError ? " error" : ""} [${(event.content ?? []).map((block) => block.type).join(",")}]`;
      if (event.kind === "protocol")
        return `protocol ${event.method}${event.callId === undefined ? "" : ` (${event.callId})`}`;
      return event.kind;
    });

  it("records the traffic the issue names: initialize, sampling both ways, progress", () => {
    const methods = log.map((entry) => ("method" in entry.message ? entry.message.method : "response"));
    expect(methods).toEqual(
      expect.arrayContaining([
        "initialize",
        "notifications/initialized",
        "tools/list",
        "tools/call",
        "sampling/createMessage",
        "notifications/progress",
      ]),
    );
  });

  it.each(wrappers)(
    "imports %s as captured: calls paired, content kept, protocol traffic on the timeline",
    (name, text) => {
      expect(explainFormat(JSON.parse(`[${text().split("\n").join(",")}]`)).format).toBe("mcp");
      const trace = parseTranscriptText(text());
      expect(trace.format).toBe("mcp");
      expect(trace.issues).toEqual([]);
      const lines = summary(trace);
      // Every call, in the order the client made them.
      expect(lines.filter((line) => line.startsWith("call "))).toEqual([
        "call echo",
        "call get-sum",
        "call get-tiny-image",
        "call get-resource-links",
        "call get-resource-reference",
        "call get-structured-content",
        "call trigger-long-running-operation",
        "call trigger-sampling-request",
        "call no-such-tool",
      ]);
      // Each result pairs with its call (client ids), non-text blocks kept; an unknown tool is an isError result.
      const results = trace.events.flatMap((event) => (event.kind === "tool_result" ? [event] : []));
      expect(
        results.map(
          (result) => trace.events.find((event) => event.kind === "tool_call" && event.callId === result.callId)?.kind,
        ),
      ).toEqual(results.map(() => "tool_call"));
      expect(lines.filter((line) => line.startsWith("result ")).map((line) => line.replace(/ mcp-[\w-]+/, ""))).toEqual(
        [
          "result [text]",
          "result [text]",
          "result [text,image,text]",
          "result [text,resource_link,resource_link]",
          "result [text,resource,text]",
          "result [text]",
          "result [text]",
          "result [text]",
          "result error [text]",
        ],
      );
      expect(lines).toEqual(expect.arrayContaining(["protocol initialize"]));
      if (name.startsWith("MCP Inspector")) return;
      // Sampling and progress belong to the call that was running.
      const sampling = trace.events.filter(
        (event) => event.kind === "protocol" && event.method === "sampling/createMessage",
      );
      expect(sampling).toHaveLength(2);
      const samplingCall = trace.events.find(
        (event) => event.kind === "tool_call" && event.name === "trigger-sampling-request",
      );
      expect(
        sampling.every(
          (event) =>
            event.kind === "protocol" && samplingCall?.kind === "tool_call" && event.callId === samplingCall.callId,
        ),
      ).toBe(true);
      const progress = trace.events.filter(
        (event) => event.kind === "protocol" && event.method === "notifications/progress",
      );
      expect(progress.length).toBeGreaterThan(0);
      expect(lines).toEqual(expect.arrayContaining(["protocol initialize", "protocol notifications/initialized"]));
      // The tool titles and annotations of tools/list are the declarations'.
      expect(trace.declarations.find((declaration) => declaration.name === "echo")).toMatchObject({
        title: "Echo Tool",
        annotations: { readOnlyHint: true },
      });
      const structured = trace.events.find(
        (event) => event.kind === "tool_result" && event.structuredContent !== undefined,
      );
      expect(structured).toBeDefined();
    },
  );
});
