// MCP adapter: a JSON-RPC message log (array, or JSONL lines; bare or {direction, message}-wrapped) → CanonicalTrace.
import type { CanonicalTrace, ToolDeclaration } from "./canonical";
import { joinText, mcpContentBlock } from "./content-blocks";
import { FormatError } from "./format-error";
import {
  childPath,
  expectRecord,
  readOptionalArray,
  readOptionalBoolean,
  readOptionalString,
  readString,
  stringifyJson,
  type JsonRecord,
} from "./json-fields";
import { TraceBuilder } from "./trace-builder";

type Direction = "send" | "receive";
type Envelope = { message: JsonRecord; path: string; direction?: Direction; raw: unknown };
type Request = { method: string; callId?: string };
type RequestId = string | number;

// Canonical call id of a tools/call request: its JSON-RPC id, prefixed so it reads as MCP next to vendor ids.
export function mcpCallId(id: RequestId): string {
  return `mcp-${String(id)}`;
}

export function parseMcp(input: unknown): CanonicalTrace {
  // A log is a sequence, so an interleaving of calls and results is normal: no "result before next turn" rule.
  const builder = new TraceBuilder("mcp", { expectResultsBeforeNextTurn: false });
  const entries = Array.isArray(input) ? input : [input];
  const requests = new Map<string, Request>();
  entries.forEach((entry, index) => {
    const envelope = unwrap(entry, childPath("", index));
    const { message, path } = envelope;
    if (message.jsonrpc !== "2.0") throw new FormatError(childPath(path, "jsonrpc"), `expected "2.0", got ${JSON.stringify(message.jsonrpc)}`);
    const method = readOptionalString(message, "method", path);
    const id = readId(message, path);
    if (method !== undefined && id !== undefined) readRequest(envelope, method, id, requests, builder);
    else if (method !== undefined) readNotification(envelope, method, requests, builder);
    else if ("result" in message || "error" in message) readResponse(envelope, id, requests, builder);
    else throw new FormatError(path, "expected a JSON-RPC request, notification or response (no method, result or error)");
  });
  return builder.finish();
}

function unwrap(entry: unknown, path: string): Envelope {
  const record = expectRecord(entry, path, "a JSON-RPC message object");
  if (record.message === undefined || record.jsonrpc !== undefined) return { message: record, path, raw: entry };
  const direction = record.direction;
  if (direction !== "send" && direction !== "receive") {
    throw new FormatError(childPath(path, "direction"), `expected "send" or "receive", got ${JSON.stringify(direction)}`);
  }
  const messagePath = childPath(path, "message");
  return { message: expectRecord(record.message, messagePath, "a JSON-RPC message object"), path: messagePath, direction, raw: entry };
}

function readId(message: JsonRecord, path: string): RequestId | undefined {
  const id = message.id;
  if (id === undefined || id === null) return undefined;
  if (typeof id !== "string" && typeof id !== "number") throw new FormatError(childPath(path, "id"), "expected a string or a number");
  return id;
}

// 1 and "1" are different JSON-RPC ids, and each peer numbers its own requests: the key holds the sender's direction.
function requestKey(id: RequestId, direction: Direction | undefined): string {
  return `${direction ?? "unknown"}:${typeof id}:${String(id)}`;
}

// A response travels the opposite way to its request.
function findRequest(requests: Map<string, Request>, id: RequestId, responseDirection: Direction | undefined): Request | undefined {
  if (responseDirection === undefined) return requests.get(requestKey(id, undefined));
  return requests.get(requestKey(id, responseDirection === "send" ? "receive" : "send")) ?? requests.get(requestKey(id, undefined));
}

function readRequest(envelope: Envelope, method: string, id: RequestId, requests: Map<string, Request>, builder: TraceBuilder): void {
  const { message, path, direction, raw } = envelope;
  const request: Request = { method };
  requests.set(requestKey(id, direction), request);
  if (method === "tools/call") {
    const paramsPath = childPath(path, "params");
    const params = expectRecord(message.params, paramsPath);
    const args = params.arguments === undefined || params.arguments === null ? {} : expectRecord(params.arguments, childPath(paramsPath, "arguments"));
    request.callId = builder.toolCall({
      callId: mcpCallId(id),
      name: readString(params, "name", paramsPath),
      input: "json",
      argumentsText: stringifyJson(args),
      arguments: args,
      raw,
      path,
    });
  } else if (method !== "tools/list") {
    builder.issue(path, `${method} request not mapped (not a tool call)`, raw);
  }
}

function readNotification(envelope: Envelope, method: string, requests: Map<string, Request>, builder: TraceBuilder): void {
  const { message, path, direction, raw } = envelope;
  if (method === "notifications/cancelled") {
    const paramsPath = childPath(path, "params");
    const params = expectRecord(message.params, paramsPath);
    const requestId = params.requestId;
    // A cancellation travels the same way as the request it cancels.
    const known = typeof requestId === "string" || typeof requestId === "number";
    const callId = known ? requests.get(requestKey(requestId, direction))?.callId : undefined;
    if (callId !== undefined) {
      const reason = readOptionalString(params, "reason", paramsPath);
      builder.error("protocol", reason === undefined ? "request cancelled" : `request cancelled: ${reason}`, raw, path, callId);
      return;
    }
  }
  builder.issue(path, `${method} notification not mapped`, raw);
}

function readResponse(envelope: Envelope, id: RequestId | undefined, requests: Map<string, Request>, builder: TraceBuilder): void {
  const { message, path, direction, raw } = envelope;
  if ("result" in message && "error" in message) throw new FormatError(path, "a JSON-RPC response has either result or error, not both");
  const request = id === undefined ? undefined : findRequest(requests, id, direction);

  if (message.error !== undefined) {
    const errorPath = childPath(path, "error");
    const error = expectRecord(message.error, errorPath);
    const code = error.code;
    if (typeof code !== "number") throw new FormatError(childPath(errorPath, "code"), "expected a number");
    const text = `JSON-RPC error ${code}: ${readString(error, "message", errorPath)}`;
    const callId = request?.callId ?? (request === undefined && id !== undefined ? mcpCallId(id) : undefined);
    // The request is over: a following request starts a new batch.
    builder.endModelTurn();
    builder.error("protocol", text, raw, path, callId);
    if (request === undefined) builder.issue(path, `error response for unknown request ${String(id ?? null)}`, raw);
    return;
  }

  const resultPath = childPath(path, "result");
  const result = expectRecord(message.result, resultPath);
  if (request?.method === "tools/list") {
    const toolsPath = childPath(resultPath, "tools");
    readOptionalArray(result, "tools", resultPath)?.forEach((tool, index) => builder.declare(readDeclaration(tool, childPath(toolsPath, index))));
    return;
  }
  if (request?.callId !== undefined || (request === undefined && looksLikeToolResult(result))) {
    readToolResult(result, resultPath, request?.callId ?? mcpCallId(id ?? "null"), raw, path, builder);
    return;
  }
  builder.issue(path, request === undefined ? `response to unknown request ${String(id ?? null)}` : `${request.method} response not mapped`, raw);
}

// A response whose request is missing from the log is still kept as a tool result when it has the CallToolResult shape.
function looksLikeToolResult(result: JsonRecord): boolean {
  return Array.isArray(result.content) || result.structuredContent !== undefined || typeof result.isError === "boolean";
}

function readToolResult(result: JsonRecord, resultPath: string, callId: string, raw: unknown, path: string, builder: TraceBuilder): void {
  const contentPath = childPath(resultPath, "content");
  const content = (readOptionalArray(result, "content", resultPath) ?? []).map((block, index) => mcpContentBlock(block, childPath(contentPath, index)));
  builder.toolResult({
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

function readDeclaration(value: unknown, path: string): ToolDeclaration {
  const tool = expectRecord(value, path, "a tool object");
  const declaration: ToolDeclaration = { name: readString(tool, "name", path), raw: value };
  const description = readOptionalString(tool, "description", path);
  if (description !== undefined) declaration.description = description;
  if (tool.inputSchema !== undefined) declaration.inputSchema = tool.inputSchema;
  if (tool.outputSchema !== undefined) declaration.outputSchema = tool.outputSchema;
  return declaration;
}
