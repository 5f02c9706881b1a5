// The wrappers MCP logs come in, unwrapped to one list of JSON-RPC messages with their sender: bare JSON-RPC
// lines, {direction, message} (send/receive or client->server/server->client), proxy logs with timestamps and
// the message as an object or a JSON string, and MCP Inspector's request history ({request, response} strings).
import type { McpDirection } from "./canonical";
import { FormatError } from "./format-error";
import { childPath, expectRecord, isRecord, parseJson, pickKey, type JsonRecord } from "./json-fields";

export type Sender = "client" | "server";

export type LogEntry = {
  message: JsonRecord;
  path: string;
  // Who sent it when the log says so (a direction) or the method tells (initialize is always the client's);
  // undefined for a bare response, which the reader pairs by id.
  sender?: Sender;
  raw: unknown;
};

const MESSAGE_KEYS = ["message", "msg", "data", "payload", "json", "body", "content", "line"];
const DIRECTION_KEYS = ["direction", "dir", "flow", "from"];
// Read as a client-side log: "send" is the client's request to the server. A server-side log is recognised
// by its own requests (see perspective below) and flipped.
const CLIENT_SENT = new Set([
  "send",
  "sent",
  "outgoing",
  "out",
  "client->server",
  "client→server",
  "client_to_server",
  "c2s",
  "client",
  "request",
  "to_server",
  ">",
  "->",
]);
const SERVER_SENT = new Set([
  "receive",
  "received",
  "recv",
  "incoming",
  "in",
  "server->client",
  "server→client",
  "server_to_client",
  "s2c",
  "server",
  "response",
  "from_server",
  "<",
  "<-",
]);
const RELATIVE = new Set([
  "send",
  "sent",
  "outgoing",
  "out",
  "receive",
  "received",
  "recv",
  "incoming",
  "in",
  ">",
  "<",
  "->",
  "<-",
]);

// Requests only one side may send (MCP 2025-06-18 / 2025-11-25); ping and notifications/cancelled go both ways.
const CLIENT_METHODS =
  /^(initialize|tools\/|resources\/|prompts\/|completion\/|logging\/setLevel|notifications\/initialized|notifications\/roots\/)/;
const SERVER_METHODS =
  /^(sampling\/|elicitation\/|roots\/list|notifications\/message|notifications\/(tools|resources|prompts)\/)/;

export function senderOfMethod(method: string): Sender | undefined {
  if (CLIENT_METHODS.test(method)) return "client";
  if (SERVER_METHODS.test(method)) return "server";
  return undefined;
}

export function directionOf(sender: Sender): McpDirection {
  return sender === "client" ? "client->server" : "server->client";
}

// said: the wrapper's direction word; saidAt: where it was.
type Unwrapped = { message: JsonRecord; path: string; said?: string; saidAt?: string; raw: unknown };

/** Reads every entry of a log; throws a FormatError naming the entry when one is not a JSON-RPC message in any known wrapper. */
export function readMcpLog(input: unknown): LogEntry[] {
  const entries = Array.isArray(input) ? input : [input];
  const unwrapped: Unwrapped[] = [];
  entries.forEach((entry, index) => unwrapped.push(...unwrap(entry, childPath("", index))));
  const flip = serverPerspective(unwrapped);
  return unwrapped.map(({ message, path, said, saidAt, raw }) => {
    const out: LogEntry = { message, path, raw };
    const sender = said === undefined ? undefined : senderOf(said, flip, saidAt ?? path);
    const method = typeof message.method === "string" ? message.method : undefined;
    const byMethod = method === undefined ? undefined : senderOfMethod(method);
    if (sender !== undefined) out.sender = sender;
    else if (byMethod !== undefined) out.sender = byMethod;
    return out;
  });
}

function senderOf(said: string, flip: boolean, path: string): Sender {
  const word = said.trim().toLowerCase();
  const relative = RELATIVE.has(word);
  if (CLIENT_SENT.has(word)) return relative && flip ? "server" : "client";
  if (SERVER_SENT.has(word)) return relative && flip ? "client" : "server";
  throw new FormatError(
    path,
    `expected a direction such as "send"/"receive" or "client->server"/"server->client", got ${JSON.stringify(said)}`,
  );
}

/**
 * send/receive are relative to whoever wrote the log. A client-side log sends initialize and tools/call; a
 * server-side log receives them. The requests whose sender is fixed by the spec decide.
 */
function serverPerspective(entries: readonly Unwrapped[]): boolean {
  let client = 0;
  let server = 0;
  for (const { message, said } of entries) {
    if (said === undefined || !RELATIVE.has(said.trim().toLowerCase()) || typeof message.method !== "string") continue;
    const sender = senderOfMethod(message.method);
    if (sender === undefined) continue;
    const sent = CLIENT_SENT.has(said.trim().toLowerCase());
    if ((sender === "client") === sent) client += 1;
    else server += 1;
  }
  return server > client;
}

function unwrap(entry: unknown, path: string): Unwrapped[] {
  const record = expectRecord(entry, path, "a JSON-RPC message object");
  if (record.jsonrpc !== undefined) return [{ message: record, path, raw: entry }];
  if (record.request !== undefined && record.method === undefined && pickKey(record, DIRECTION_KEYS) === undefined)
    return inspectorItem(record, path, entry);
  const messageKey = pickKey(record, MESSAGE_KEYS);
  if (messageKey === undefined) {
    throw new FormatError(
      path,
      'expected a JSON-RPC message (jsonrpc: "2.0"), a {direction, message} wrapper or an MCP Inspector {request, response} item',
    );
  }
  const messagePath = childPath(path, messageKey);
  const message = jsonObject(record[messageKey], messagePath);
  const directionKey = pickKey(record, DIRECTION_KEYS);
  const direction = directionKey === undefined ? undefined : record[directionKey];
  if (direction !== undefined && typeof direction !== "string") {
    throw new FormatError(childPath(path, directionKey ?? "direction"), "expected a string direction");
  }
  const out: Unwrapped = { message, path: messagePath, raw: entry };
  if (direction !== undefined) {
    out.said = direction;
    out.saidAt = childPath(path, directionKey ?? "direction");
  }
  return [out];
}

// Proxies often log the line they forwarded: a JSON string of the message.
function jsonObject(value: unknown, path: string): JsonRecord {
  if (typeof value === "string") {
    const parsed = parseJson(value);
    if (!parsed.ok)
      throw new FormatError(path, `expected a JSON-RPC message, got a string that is not JSON (${parsed.error})`);
    return expectRecord(parsed.value, path, "a JSON-RPC message object");
  }
  return expectRecord(value, path, "a JSON-RPC message object");
}

/**
 * MCP Inspector's History keeps `{request, response?}` pairs as JSON strings of the request ({method, params})
 * and of its result (or `{error}`), without JSON-RPC ids. Each pair gets the id `inspector-<n>` so the reader
 * pairs them like any request and response; notifications have no response.
 */
function inspectorItem(record: JsonRecord, path: string, raw: unknown): Unwrapped[] {
  const index = /\[(\d+)\]$/.exec(path)?.[1] ?? "0";
  const id = `inspector-${index}`;
  const requestPath = childPath(path, "request");
  const request = jsonObject(record.request, requestPath);
  if (typeof request.method !== "string") throw new FormatError(childPath(requestPath, "method"), "expected a string");
  const isNotification = request.method.startsWith("notifications/");
  const out: Unwrapped[] = [
    {
      message: { jsonrpc: "2.0", ...(isNotification ? {} : { id }), ...request },
      path: requestPath,
      said: "client->server",
      raw,
    },
  ];
  if (record.response === undefined || record.response === null) return out;
  const responsePath = childPath(path, "response");
  const response = jsonObject(record.response, responsePath);
  // The Inspector records a failed request as {error: "<message>"}.
  const failed = Object.keys(response).length === 1 && typeof response.error === "string";
  const message: JsonRecord = failed
    ? { jsonrpc: "2.0", id, error: { message: response.error } }
    : { jsonrpc: "2.0", id, result: isRecord(response) ? response : {} };
  out.push({ message, path: responsePath, said: "server->client", raw });
  return out;
}
