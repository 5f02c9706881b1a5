// Format detection (with the evidence it went by, or why it refuses) and the single entry point that turns any
// supported transcript (value or JSON/JSONL/SSE text) into a CanonicalTrace.
import { parseAgentStream } from "./agent-stream";
import { parseAnthropic } from "./anthropic";
import type { CanonicalTrace, FormatName } from "./canonical";
import { FormatError } from "./format-error";
import { parseGemini } from "./gemini";
import { isGeminiChunk } from "./gemini-stream";
import { INTERACTION_STEP_TYPES, parseGeminiInteractions } from "./gemini-interactions";
import { childPath, isRecord, type JsonRecord } from "./json-fields";
import { parseMcp } from "./mcp";
import { parseOpenAIChat } from "./openai-chat";
import { parseOpenAIResponses } from "./openai-responses";
import { readJsonOrJsonl } from "./read-text";
import {
  isAnthropicStreamEvent,
  isChatChunk,
  isInteractionsStreamEvent,
  isResponsesStreamEvent,
} from "./stream-assembly";

export { readJsonOrJsonl, type ParseProgress } from "./read-text";

export const FORMAT_NAMES: readonly FormatName[] = [
  "anthropic",
  "openai-chat",
  "openai-responses",
  "gemini",
  "gemini-interactions",
  "mcp",
  "agent-stream",
];

const PARSERS: Record<FormatName, (input: unknown) => CanonicalTrace> = {
  anthropic: parseAnthropic,
  "openai-chat": parseOpenAIChat,
  "openai-responses": parseOpenAIResponses,
  gemini: parseGemini,
  "gemini-interactions": parseGeminiInteractions,
  mcp: parseMcp,
  "agent-stream": parseAgentStream,
};

/** What detection decided, and on what evidence; `format: null` says why it could not decide. */
export type Detection = { format: FormatName; reason: string } | { format: null; reason: string };

const AGENT_STREAM_TYPES = new Set(["output_text", "tool_call", "tool_call_result", "reasoning", "error"]);
const RESPONSES_ITEM_TYPES = new Set([
  "message",
  "reasoning",
  "function_call",
  "function_call_output",
  "custom_tool_call",
  "custom_tool_call_output",
  "web_search_call",
  "file_search_call",
  "computer_call",
  "computer_call_output",
  "code_interpreter_call",
  "image_generation_call",
  "local_shell_call",
  "local_shell_call_output",
  "mcp_call",
  "mcp_list_tools",
  "mcp_approval_request",
  "mcp_approval_response",
  "item_reference",
]);
const ANTHROPIC_BLOCK_TYPES = new Set([
  "tool_use",
  "tool_result",
  "thinking",
  "redacted_thinking",
  "server_tool_use",
  "document",
  "search_result",
  "image-with-source",
]);
const RESPONSES_PART_TYPES = new Set(["input_text", "output_text", "input_image", "input_file"]);
const CHAT_PART_TYPES = new Set(["image_url", "input_audio", "file"]);
const MCP_MESSAGE_KEYS = ["message", "msg", "data", "payload", "json", "body", "content", "line"];

// How many items detection looks at: formats show themselves early, and a 10,000-message log should not be scanned.
const SCAN_LIMIT = 200;

/** The format a transcript is in, or null (Toolscope's own export, or nothing recognisable). */
export function detectFormat(input: unknown): FormatName | null {
  return explainFormat(input).format;
}

/**
 * Detection by evidence, most specific first. Arrays: every item is looked at (up to 200) and each format that
 * claims some item says which and why; one claimant wins, several are a refusal that names them — except plain
 * {role, content} text messages, which every message format reads the same (read as openai-chat). Objects: a
 * request or response body is recognised by its fields.
 */
export function explainFormat(input: unknown): Detection {
  if (Array.isArray(input)) {
    if (isRecord(input[0]) && input[0].kind === "toolscope-export")
      return { format: null, reason: "a Toolscope export (read by the export reader)" };
    return detectItems(input.slice(0, SCAN_LIMIT));
  }
  if (!isRecord(input))
    return { format: null, reason: `expected a JSON object or array, got ${input === null ? "null" : typeof input}` };
  if (input.kind === "toolscope-export")
    return { format: null, reason: "a Toolscope export (read by the export reader)" };
  return detectBody(input);
}

export function parseTranscript(input: unknown, format?: FormatName): CanonicalTrace {
  if (format !== undefined) return PARSERS[format](input);
  const detection = explainFormat(input);
  if (detection.format === null) {
    throw new FormatError(
      "",
      `cannot tell the transcript format: ${detection.reason}. Pass the format explicitly (one of ${FORMAT_NAMES.join(", ")})`,
    );
  }
  return PARSERS[detection.format](input);
}

export function parseTranscriptText(text: string, format?: FormatName): CanonicalTrace {
  return parseTranscript(readJsonOrJsonl(text), format);
}

type Claim = { format: FormatName; reason: string };

function detectBody(body: JsonRecord): Detection {
  const interactions = interactionsEvidence(body);
  const responses = responsesEvidence(body);
  if (interactions !== undefined && responses !== undefined && responses.strong) {
    return {
      format: null,
      reason: `the body has Gemini Interactions fields (${interactions}) and OpenAI Responses fields (${responses.reason})`,
    };
  }
  if (interactions !== undefined)
    return { format: "gemini-interactions", reason: `Gemini Interactions: ${interactions}` };
  if (Array.isArray(body.contents) || Array.isArray(body.candidates))
    return {
      format: "gemini",
      reason: `Gemini generateContent: a ${Array.isArray(body.contents) ? "contents" : "candidates"} array`,
    };
  if (Array.isArray(body.choices) || body.object === "chat.completion")
    return { format: "openai-chat", reason: "Chat Completions: a choices array" };
  // Both APIs call their message ids msg_…; only Anthropic's response has stop_reason next to type "message".
  if (body.type === "message" && "stop_reason" in body)
    return { format: "anthropic", reason: 'Anthropic Messages: a response (type "message" with stop_reason)' };
  if (Array.isArray(body.messages)) return detectMessagesBody(body, body.messages.slice(0, SCAN_LIMIT));
  if (responses !== undefined) return { format: "openai-responses", reason: `OpenAI Responses: ${responses.reason}` };
  return detectItems([body]);
}

function interactionsEvidence(body: JsonRecord): string | undefined {
  if (Array.isArray(body.steps)) return "a steps array";
  if (typeof body.previous_interaction_id === "string") return "previous_interaction_id";
  if (typeof body.system_instruction === "string") return "system_instruction";
  if (body.object === "interaction") return 'object "interaction"';
  if (typeof body.agent === "string" && body.input !== undefined) return "an agent with input";
  if (typeof body.model === "string" && /^(models\/)?gemini/.test(body.model) && body.input !== undefined)
    return `model ${body.model} with input`;
  const input = Array.isArray(body.input) ? body.input : isRecord(body.input) ? [body.input] : [];
  const step = input.find((item) => isRecord(item) && isInteractionsItem(item));
  if (step !== undefined && isRecord(step)) return `input items of type ${String(step.type)}`;
  return undefined;
}

function responsesEvidence(body: JsonRecord): { reason: string; strong: boolean } | undefined {
  if (body.object === "response") return { reason: 'object "response"', strong: true };
  if (typeof body.instructions === "string" || Array.isArray(body.instructions))
    return { reason: "instructions", strong: true };
  if (typeof body.previous_response_id === "string") return { reason: "previous_response_id", strong: true };
  if (Array.isArray(body.output)) return { reason: "an output items array", strong: true };
  if (Array.isArray(body.input))
    return {
      reason: "an input items array",
      strong: body.input.some(
        (item) => isRecord(item) && typeof item.type === "string" && RESPONSES_ITEM_TYPES.has(item.type),
      ),
    };
  if (typeof body.input === "string") return { reason: "an input string", strong: false };
  return undefined;
}

// Interactions steps and contents; a function_call is Interactions' when its arguments are an object and it has an id but no call_id.
function isInteractionsItem(item: JsonRecord): boolean {
  if (typeof item.type !== "string") return false;
  if (item.type === "function_call")
    return isRecord(item.arguments) && typeof item.id === "string" && item.call_id === undefined;
  if (item.type === "function_result") return typeof item.call_id === "string";
  return INTERACTION_STEP_TYPES.has(item.type) && item.type !== "function_call";
}

function detectMessagesBody(body: JsonRecord, messages: unknown[]): Detection {
  // `messages` is Anthropic's or Chat Completions' request field; decide between the two only.
  if (body.system !== undefined)
    return { format: "anthropic", reason: "Anthropic Messages: a request with a top-level system" };
  if (typeof body.model === "string" && body.model.startsWith("claude"))
    return { format: "anthropic", reason: `Anthropic Messages: model ${body.model}` };
  if (Array.isArray(body.tools)) {
    if (body.tools.some((tool) => isRecord(tool) && tool.input_schema !== undefined))
      return { format: "anthropic", reason: "Anthropic Messages: tools with input_schema" };
    if (body.tools.some((tool) => isRecord(tool) && tool.function !== undefined))
      return { format: "openai-chat", reason: "Chat Completions: tools with function" };
  }
  const claims = messageClaims(messages.filter(isRecord), "messages");
  const detection = decide(claims, "messages");
  if (detection.format === "openai-responses")
    return { format: "openai-chat", reason: `Chat Completions: a messages body (${detection.reason})` };
  return detection.format === null && claims.length === 0
    ? { format: "openai-chat", reason: "Chat Completions: a messages body" }
    : detection;
}

function detectItems(items: unknown[]): Detection {
  const claims: Claim[] = [];
  items.forEach((item, index) => {
    if (!isRecord(item)) return;
    const at = childPath("", index);
    if (isJsonRpc(item)) claims.push({ format: "mcp", reason: `MCP: a JSON-RPC message at ${at}` });
    else if (isAnthropicStreamEvent(item))
      claims.push({ format: "anthropic", reason: `Anthropic Messages stream: a ${String(item.type)} event at ${at}` });
    else if (isChatChunk(item))
      claims.push({ format: "openai-chat", reason: `Chat Completions stream: a chunk at ${at}` });
    else if (isResponsesStreamEvent(item))
      claims.push({ format: "openai-responses", reason: `Responses stream: a ${String(item.type)} event at ${at}` });
    else if (isInteractionsStreamEvent(item))
      claims.push({
        format: "gemini-interactions",
        reason: `Gemini Interactions stream: a ${String(item.event_type)} event at ${at}`,
      });
    else if (isGeminiChunk(item))
      claims.push({ format: "gemini", reason: `Gemini streamGenerateContent: a response chunk at ${at}` });
    else if (isAgentChunk(item))
      claims.push({ format: "agent-stream", reason: `agent response stream: a ${String(item.type)} chunk at ${at}` });
    else if (isInteractionsItem(item) || Array.isArray(item.steps))
      claims.push({
        format: "gemini-interactions",
        reason: `Gemini Interactions: a ${String(item.type ?? "interaction")} at ${at}`,
      });
    else if (Array.isArray(item.parts) || item.role === "model")
      claims.push({ format: "gemini", reason: `Gemini: a content with parts at ${at}` });
    else if (typeof item.type === "string" && RESPONSES_ITEM_TYPES.has(item.type))
      claims.push({ format: "openai-responses", reason: `OpenAI Responses: a ${item.type} item at ${at}` });
  });
  if (claims.length > 0) return decide(claims, "items");
  return decide(messageClaims(items.filter(isRecord), ""), "items");
}

// Role/content messages: the content-part vocabulary tells the three message formats apart.
function messageClaims(messages: JsonRecord[], base: string): Claim[] {
  const claims: Claim[] = [];
  messages.forEach((message, index) => {
    const at = childPath(base, index);
    if (typeof message.role !== "string") return;
    if (
      message.role === "tool" ||
      message.role === "developer" ||
      message.role === "function" ||
      "tool_calls" in message ||
      "tool_call_id" in message
    ) {
      claims.push({
        format: "openai-chat",
        reason: `Chat Completions: ${message.role === "tool" || message.role === "developer" || message.role === "function" ? `role "${message.role}"` : "tool_calls"} at ${at}`,
      });
    }
    if (!Array.isArray(message.content)) return;
    for (const part of message.content) {
      if (!isRecord(part) || typeof part.type !== "string") continue;
      // Anthropic images carry a `source`; Chat and Responses images do not.
      const type = part.type === "image" && isRecord(part.source) ? "image-with-source" : part.type;
      if (ANTHROPIC_BLOCK_TYPES.has(type))
        claims.push({ format: "anthropic", reason: `Anthropic Messages: a ${part.type} block at ${at}` });
      else if (CHAT_PART_TYPES.has(type))
        claims.push({ format: "openai-chat", reason: `Chat Completions: a ${part.type} part at ${at}` });
      else if (RESPONSES_PART_TYPES.has(type))
        claims.push({ format: "openai-responses", reason: `OpenAI Responses: an ${part.type} part at ${at}` });
    }
  });
  if (claims.length === 0 && messages.some((message) => typeof message.role === "string")) {
    claims.push({
      format: "openai-chat",
      reason: "plain {role, content} text messages, which every message format reads the same; read as openai-chat",
    });
  }
  return claims;
}

function decide(claims: Claim[], what: string): Detection {
  const formats = [...new Set(claims.map((claim) => claim.format))];
  const first = claims[0];
  if (first === undefined)
    return {
      format: null,
      reason: `no ${what} of a known format (no JSON-RPC messages, stream events, role/content messages, contents or typed items)`,
    };
  if (formats.length === 1) return { format: first.format, reason: first.reason };
  const evidence = formats.map((format) => claims.find((claim) => claim.format === format)?.reason).join("; ");
  return { format: null, reason: `the ${what} match several formats — ${evidence}` };
}

function isJsonRpc(item: JsonRecord): boolean {
  if (item.jsonrpc === "2.0") return true;
  // MCP Inspector history: {request: "<JSON of {method, params}>", response?}.
  if (
    item.request !== undefined &&
    (typeof item.request === "string"
      ? /"method"\s*:/.test(item.request)
      : isRecord(item.request) && typeof item.request.method === "string")
  )
    return true;
  const key = MCP_MESSAGE_KEYS.find((candidate) => item[candidate] !== undefined);
  if (key === undefined) return false;
  const message = item[key];
  return (
    (isRecord(message) && message.jsonrpc === "2.0") ||
    (typeof message === "string" && /^\s*\{.*"jsonrpc"\s*:\s*"2\.0"/s.test(message))
  );
}

function isAgentChunk(item: JsonRecord): boolean {
  if (typeof item.type !== "string" || !AGENT_STREAM_TYPES.has(item.type)) return false;
  if (typeof item.is_type_switched === "boolean") return true;
  // Responses reasoning items share the type name but never have a role; stream chunks do.
  return (item.role === "assistant" || item.role === "tool") && "content" in item;
}
