// One-line descriptions of MCP protocol messages for the timeline ("progress 2/5 · Processing", "initialize →
// everything-server 2.0.0 · protocol 2025-06-18"). Pure; the message itself stays in the event's raw.
import { isRecord, type JsonRecord } from "./json-fields";

const LIMIT = 200;

function clip(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > LIMIT ? `${flat.slice(0, LIMIT - 1)}…` : flat;
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : undefined;
}

function nameAndVersion(info: unknown): string {
  if (!isRecord(info)) return "unknown";
  return [str(info.name), str(info.version)].filter((part) => part !== undefined).join(" ") || "unknown";
}

function keysOf(value: unknown): string {
  return isRecord(value) ? Object.keys(value).join(", ") : "";
}

// Sampling messages carry one content block (or, since 2025-11-25, a list); text is what a person wants to read.
function contentText(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((block) => (isRecord(block) ? (str(block.text) ?? `[${str(block.type) ?? "content"}]`) : ""))
    .join(" ");
}

function describeRequest(method: string, params: JsonRecord): string {
  switch (method) {
    case "initialize": {
      const capabilities = keysOf(params.capabilities);
      return `initialize · client ${nameAndVersion(params.clientInfo)} · protocol ${str(params.protocolVersion) ?? "?"}${capabilities ? ` · capabilities: ${capabilities}` : ""}`;
    }
    case "sampling/createMessage": {
      const messages = Array.isArray(params.messages) ? params.messages : [];
      const last = messages.at(-1);
      return `sampling request · ${messages.length} message${messages.length === 1 ? "" : "s"}${isRecord(last) ? ` · ${contentText(last.content)}` : ""}`;
    }
    case "elicitation/create":
      return `elicitation request · ${str(params.message) ?? ""}`;
    case "resources/read":
    case "resources/subscribe":
      return `${method} ${str(params.uri) ?? ""}`;
    case "prompts/get":
      return `prompts/get ${str(params.name) ?? ""}`;
    case "notifications/progress": {
      const total = str(params.total);
      const message = str(params.message);
      return `progress ${str(params.progress) ?? "?"}${total === undefined ? "" : `/${total}`}${message === undefined ? "" : ` · ${message}`}`;
    }
    case "notifications/message": {
      const data = typeof params.data === "string" ? params.data : JSON.stringify(params.data);
      return `log ${str(params.level) ?? ""}${params.logger === undefined ? "" : ` ${str(params.logger) ?? ""}`}: ${data ?? ""}`;
    }
    case "notifications/cancelled":
      return `cancelled request ${str(params.requestId) ?? "?"}${params.reason === undefined ? "" : `: ${str(params.reason) ?? ""}`}`;
    case "notifications/resources/updated":
      return `resource updated ${str(params.uri) ?? ""}`;
    default:
      return method;
  }
}

function describeResult(method: string, result: JsonRecord): string {
  switch (method) {
    case "initialize": {
      const capabilities = keysOf(result.capabilities);
      return `initialize → ${nameAndVersion(result.serverInfo)} · protocol ${str(result.protocolVersion) ?? "?"}${capabilities ? ` · capabilities: ${capabilities}` : ""}`;
    }
    case "tools/list": {
      const tools = Array.isArray(result.tools) ? result.tools : [];
      const names = tools.map((tool) => (isRecord(tool) ? (str(tool.name) ?? "?") : "?"));
      return `tools/list → ${tools.length} tool${tools.length === 1 ? "" : "s"}${names.length > 0 ? `: ${names.join(", ")}` : ""}`;
    }
    case "sampling/createMessage":
      return `sampling result${result.model === undefined ? "" : ` · model ${str(result.model) ?? "?"}`} · ${contentText(result.content)}`;
    case "elicitation/create":
      return `elicitation → ${str(result.action) ?? "?"}${isRecord(result.content) ? ` ${JSON.stringify(result.content)}` : ""}`;
    case "roots/list":
      return `roots/list → ${Array.isArray(result.roots) ? result.roots.length : 0} roots`;
    default:
      return `${method} → ${Object.keys(result).join(", ") || "ok"}`;
  }
}

/** `method` is the request's method for a response, the message's own otherwise. */
export function describeMcpMessage(message: JsonRecord, method: string): string {
  if ("result" in message) return clip(describeResult(method, isRecord(message.result) ? message.result : {}));
  return clip(describeRequest(method, isRecord(message.params) ? message.params : {}));
}
