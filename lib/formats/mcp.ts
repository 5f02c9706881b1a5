// MCP adapter: a JSON-RPC message log in any wrapper mcp-log.ts reads → CanonicalTrace. tools/call becomes calls and
// results; everything else (initialize, tools/list, progress, sampling, logging, …) becomes protocol events.
import type { CanonicalTrace, ToolDeclaration } from "./canonical";
import { joinText, mcpContentBlock } from "./content-blocks";
import { FormatError } from "./format-error";
import { isLosslessNumber } from "./lossless-json";
import {
  childPath,
  expectRecord,
  isRecord,
  readOptionalArray,
  readOptionalBoolean,
  readOptionalString,
  readString,
  stringifyJson,
  type JsonRecord,
} from "./json-fields";
import { directionOf, readMcpLog, type LogEntry, type Sender } from "./mcp-log";
import { describeMcpMessage } from "./mcp-summary";
import { TraceBuilder } from "./trace-builder";

type RequestId = string | number;
type Pending = { id: RequestId; method: string; sender?: Sender; callId?: string; params: JsonRecord };

// Canonical call id of a tools/call request: its JSON-RPC id, prefixed so it reads as MCP next to vendor ids.
export function mcpCallId(id: RequestId): string {
  return `mcp-${String(id)}`;
}

export function parseMcp(input: unknown): CanonicalTrace {
  // A log is a sequence, so an interleaving of calls and results is normal: no "result before next turn" rule.
  const builder = new TraceBuilder("mcp", { expectResultsBeforeNextTurn: false });
  new McpReader(builder).read(readMcpLog(input));
  return builder.finish();
}

class McpReader {
  // Requests still waiting for their response. JSON-RPC ids are per sender: the server's sampling request 0 and
  // the client's tools/call 0 are two requests.
  private readonly pending: Pending[] = [];
  private readonly progressTokens = new Map<string, string>();

  constructor(private readonly builder: TraceBuilder) {}

  read(entries: LogEntry[]): void {
    for (const entry of entries) {
      const { message, path } = entry;
      if (message.jsonrpc !== "2.0")
        throw new FormatError(childPath(path, "jsonrpc"), `expected "2.0", got ${JSON.stringify(message.jsonrpc)}`);
      const method = readOptionalString(message, "method", path);
      const id = readId(message, path);
      if (method !== undefined && id !== undefined) this.request(entry, method, id);
      else if (method !== undefined) this.notification(entry, method);
      else if ("result" in message || "error" in message) this.response(entry, id);
      else
        throw new FormatError(
          path,
          "expected a JSON-RPC request, notification or response (no method, result or error)",
        );
    }
  }

  private request(entry: LogEntry, method: string, id: RequestId): void {
    const { message, path, raw, sender } = entry;
    const params =
      message.params === undefined || message.params === null
        ? {}
        : expectRecord(message.params, childPath(path, "params"));
    const pending: Pending = { id, method, params };
    if (sender !== undefined) pending.sender = sender;
    if (method === "tools/call" && sender !== "server") {
      const paramsPath = childPath(path, "params");
      const args =
        params.arguments === undefined || params.arguments === null
          ? {}
          : expectRecord(params.arguments, childPath(paramsPath, "arguments"));
      pending.callId = this.builder.toolCall({
        callId: mcpCallId(id),
        name: readString(params, "name", paramsPath),
        input: "json",
        argumentsText: stringifyJson(args),
        arguments: args,
        raw,
        path,
      });
      const token = isRecord(params._meta) ? params._meta.progressToken : undefined;
      if (typeof token === "string" || typeof token === "number")
        this.progressTokens.set(String(token), pending.callId);
    } else {
      this.protocol(entry, method, this.runningCall(method));
    }
    this.pending.push(pending);
  }

  private notification(entry: LogEntry, method: string): void {
    const { message, path, raw } = entry;
    const params = isRecord(message.params) ? message.params : {};
    if (method === "notifications/cancelled") {
      const request = this.take(params.requestId, entry.sender, { cancelled: true });
      if (request?.callId !== undefined) {
        const reason = readOptionalString(params, "reason", childPath(path, "params"));
        this.builder.error(
          "protocol",
          reason === undefined ? "request cancelled" : `request cancelled: ${reason}`,
          raw,
          path,
          request.callId,
        );
        return;
      }
    }
    const token = params.progressToken;
    const callId =
      method === "notifications/progress" && (typeof token === "string" || typeof token === "number")
        ? this.progressTokens.get(String(token))
        : undefined;
    this.protocol(entry, method, callId);
  }

  private response(entry: LogEntry, id: RequestId | undefined): void {
    const { message, path, raw } = entry;
    if ("result" in message && "error" in message)
      throw new FormatError(path, "a JSON-RPC response has either result or error, not both");
    const result = isRecord(message.result) ? message.result : undefined;
    const request = id === undefined ? undefined : this.take(id, entry.sender, { result });

    if (message.error !== undefined) {
      const errorPath = childPath(path, "error");
      const error = expectRecord(message.error, errorPath);
      const code = error.code;
      if (code !== undefined && typeof code !== "number")
        throw new FormatError(childPath(errorPath, "code"), "expected a number");
      const text = `JSON-RPC error${code === undefined ? "" : ` ${code}`}: ${readString(error, "message", errorPath)}`;
      const callId = request?.callId ?? (request === undefined && id !== undefined ? mcpCallId(id) : undefined);
      // The request is over: a following request starts a new batch.
      this.builder.endModelTurn();
      this.builder.error(
        "protocol",
        request === undefined || request.callId !== undefined ? text : `${request.method}: ${text}`,
        raw,
        path,
        callId,
      );
      if (request === undefined)
        this.builder.issue(path, `error response for unknown request ${String(id ?? null)}`, raw);
      return;
    }

    const resultPath = childPath(path, "result");
    const body = expectRecord(message.result, resultPath);
    if (request?.callId !== undefined || (request === undefined && looksLikeToolResult(body))) {
      this.toolResult(body, resultPath, request?.callId ?? mcpCallId(id ?? "null"), raw, path);
      return;
    }
    if (request === undefined) {
      this.builder.issue(path, `response to unknown request ${String(id ?? null)}`, raw);
      return;
    }
    if (request.method === "tools/list") {
      const toolsPath = childPath(resultPath, "tools");
      readOptionalArray(body, "tools", resultPath)?.forEach((tool, index) =>
        this.builder.declare(readDeclaration(tool, childPath(toolsPath, index))),
      );
    }
    this.protocol(entry, request.method, this.runningCall(request.method), request);
  }

  /**
   * The request a response answers: the waiting request with this id sent by the other side. A bare log does
   * not say who sent the response, so when both sides have a request with this id waiting, the result's shape
   * decides (a CallToolResult answers tools/call, a CreateMessageResult answers sampling, …).
   */
  private take(
    rawId: unknown,
    from: Sender | undefined,
    answer: { result?: JsonRecord; cancelled?: boolean },
  ): Pending | undefined {
    if (isLosslessNumber(rawId)) rawId = String(rawId);
    if (typeof rawId !== "string" && typeof rawId !== "number") return undefined;
    const id = rawId;
    // A response travels the opposite way to its request; a cancellation the same way.
    const requester = from === undefined ? undefined : answer.cancelled === true ? from : other(from);
    const candidates = this.pending.filter(
      (request) =>
        sameId(request.id, id) &&
        (requester === undefined || request.sender === undefined || request.sender === requester),
    );
    const result = answer.result;
    const chosen =
      candidates.length > 1 && result !== undefined
        ? (candidates.find((request) => answersMethod(request.method, result)) ?? candidates[0])
        : candidates[0];
    if (chosen === undefined) return undefined;
    this.pending.splice(this.pending.indexOf(chosen), 1);
    return chosen;
  }

  // A sampling or elicitation request made while exactly one tool call runs belongs to it (MCP servers ask the
  // client's model for help in the middle of a call); with several running, the log cannot tell which.
  private runningCall(method: string): string | undefined {
    if (!method.startsWith("sampling/") && !method.startsWith("elicitation/")) return undefined;
    const running = this.pending.filter((request) => request.callId !== undefined);
    return running.length === 1 ? running[0]?.callId : undefined;
  }

  private protocol(entry: LogEntry, method: string, callId: string | undefined, answered?: Pending): void {
    const direction = entry.sender ?? (answered?.sender === undefined ? undefined : other(answered.sender));
    const text = describeMcpMessage(entry.message, method);
    this.builder.protocol(method, text, entry.raw, entry.path, {
      ...(direction === undefined ? {} : { direction: directionOf(direction) }),
      ...(callId === undefined ? {} : { callId }),
    });
  }

  private toolResult(result: JsonRecord, resultPath: string, callId: string, raw: unknown, path: string): void {
    const contentPath = childPath(resultPath, "content");
    const content = (readOptionalArray(result, "content", resultPath) ?? []).map((block, index) =>
      mcpContentBlock(block, childPath(contentPath, index)),
    );
    this.builder.toolResult({
      callId,
      text: joinText(content),
      // isError: true is a tool execution failure the model sees; protocol failures are `error` events instead.
      isError: readOptionalBoolean(result, "isError", resultPath) === true,
      errorSignal: "vendor-flag",
      content,
      structuredContent: result.structuredContent,
      raw,
      path,
    });
  }
}

function other(sender: Sender): Sender {
  return sender === "client" ? "server" : "client";
}

function sameId(a: RequestId, b: RequestId): boolean {
  // 1 and "1" are different JSON-RPC ids.
  return typeof a === typeof b && a === b;
}

function readId(message: JsonRecord, path: string): RequestId | undefined {
  const id = message.id;
  if (id === undefined || id === null) return undefined;
  // An id too large for a double keeps its digits (lossless parse); it is compared as its text.
  if (isLosslessNumber(id)) return String(id);
  if (typeof id !== "string" && typeof id !== "number")
    throw new FormatError(childPath(path, "id"), "expected a string or a number");
  return id;
}

// A response whose request is missing from the log is still kept as a tool result when it has the CallToolResult shape.
function looksLikeToolResult(result: JsonRecord): boolean {
  return Array.isArray(result.content) || result.structuredContent !== undefined || typeof result.isError === "boolean";
}

function answersMethod(method: string, result: JsonRecord): boolean {
  switch (method) {
    case "tools/call":
      return looksLikeToolResult(result) && result.model === undefined;
    case "sampling/createMessage":
      return typeof result.model === "string" || (typeof result.role === "string" && isRecord(result.content));
    case "elicitation/create":
      return typeof result.action === "string";
    case "roots/list":
      return Array.isArray(result.roots);
    case "initialize":
      return typeof result.protocolVersion === "string";
    case "tools/list":
      return Array.isArray(result.tools);
    default:
      return false;
  }
}

function readDeclaration(value: unknown, path: string): ToolDeclaration {
  const tool = expectRecord(value, path, "a tool object");
  const declaration: ToolDeclaration = { name: readString(tool, "name", path), raw: value };
  const title = readOptionalString(tool, "title", path);
  const description = readOptionalString(tool, "description", path);
  if (title !== undefined) declaration.title = title;
  if (description !== undefined) declaration.description = description;
  if (tool.inputSchema !== undefined) declaration.inputSchema = tool.inputSchema;
  if (tool.outputSchema !== undefined) declaration.outputSchema = tool.outputSchema;
  if (isRecord(tool.annotations)) declaration.annotations = tool.annotations;
  return declaration;
}
