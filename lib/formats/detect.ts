// Format detection and the single entry point that turns any supported transcript (value or JSON/JSONL text) into a CanonicalTrace.
import { parseAgentStream } from "./agent-stream";
import { parseAnthropic } from "./anthropic";
import type { CanonicalTrace, FormatName } from "./canonical";
import { FormatError } from "./format-error";
import { parseGemini } from "./gemini";
import { isRecord, type JsonRecord } from "./json-fields";
import { parseMcp } from "./mcp";
import { parseOpenAIChat } from "./openai-chat";
import { parseOpenAIResponses } from "./openai-responses";

export const FORMAT_NAMES: readonly FormatName[] = ["anthropic", "openai-chat", "openai-responses", "gemini", "mcp", "agent-stream"];

const PARSERS: Record<FormatName, (input: unknown) => CanonicalTrace> = {
  anthropic: parseAnthropic,
  "openai-chat": parseOpenAIChat,
  "openai-responses": parseOpenAIResponses,
  gemini: parseGemini,
  mcp: parseMcp,
  "agent-stream": parseAgentStream,
};

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
const ANTHROPIC_BLOCK_TYPES = new Set(["tool_use", "tool_result", "thinking", "redacted_thinking", "server_tool_use", "document", "image-with-source"]);
const RESPONSES_PART_TYPES = new Set(["input_text", "output_text", "input_image", "input_file"]);
const CHAT_PART_TYPES = new Set(["image_url", "input_audio"]);

// How many items detection looks at: formats show themselves early, and a 10,000-message log should not be scanned.
const SCAN_LIMIT = 200;

/**
 * Heuristics, most specific first:
 * - Toolscope's own export (`{kind: "toolscope-export"}` first) → null: other code owns it.
 * - JSON-RPC messages (`jsonrpc`, or `{direction, message}` wrappers) → mcp.
 * - chunks with `is_type_switched`, or `{type: tool_call|tool_call_result|…, role, content: …}` → agent-stream.
 * - `contents` / `candidates`, or items with `parts` / role "model" → gemini; `choices` → openai-chat;
 *   `{type: "message", stop_reason}` (a Messages API response) → anthropic.
 * - a response object (`object: "response"`), `input`/`output` bodies, typed items (function_call, …) → openai-responses.
 * - role/content messages: tool_use/tool_result/thinking blocks or a top-level `system` → anthropic;
 *   role tool/developer, tool_calls, tool_call_id → openai-chat; input_text parts → openai-responses.
 * - plain text-only {role, content} messages are valid in several formats and map identically; they are read as openai-chat.
 * Anything else → null.
 */
export function detectFormat(input: unknown): FormatName | null {
  if (Array.isArray(input)) {
    const first = input[0];
    if (isRecord(first) && isToolscopeExport(first)) return null;
    return detectItems(input.slice(0, SCAN_LIMIT));
  }
  if (!isRecord(input)) return null;
  if (isToolscopeExport(input)) return null;
  if (Array.isArray(input.contents) || Array.isArray(input.candidates)) return "gemini";
  if (Array.isArray(input.choices) || input.object === "chat.completion") return "openai-chat";
  // Both APIs call their message ids msg_…; only Anthropic's response has stop_reason next to type "message".
  if (input.type === "message" && "stop_reason" in input) return "anthropic";
  if (Array.isArray(input.messages)) return detectMessagesBody(input, input.messages.slice(0, SCAN_LIMIT));
  if (input.object === "response" || Array.isArray(input.output) || Array.isArray(input.input) || typeof input.input === "string") {
    return "openai-responses";
  }
  return detectItems([input]);
}

export function parseTranscript(input: unknown, format?: FormatName): CanonicalTrace {
  const chosen = format ?? detectFormat(input);
  if (chosen === null) {
    throw new FormatError("", `unrecognized transcript format: expected one of ${FORMAT_NAMES.join(", ")} (or pass the format explicitly)`);
  }
  return PARSERS[chosen](input);
}

/**
 * Accepts one JSON document or JSONL (one JSON value per line, blank lines skipped; the lines become an array).
 * JSON is tried first; the text is read as JSONL only when that fails and its first line is a JSON value by itself,
 * so a broken pretty-printed document reports its own JSON error rather than "line 1".
 */
export function parseTranscriptText(text: string, format?: FormatName): CanonicalTrace {
  return parseTranscript(readJsonOrJsonl(text), format);
}

/** Reports parse progress for JSONL input (lines read so far, total lines); a single JSON document is one step. */
export type ParseProgress = (linesDone: number, linesTotal: number) => void;

// How often JSONL progress is reported: often enough for a progress bar, rarely enough to cost nothing.
const PROGRESS_EVERY_LINES = 2000;

export function readJsonOrJsonl(text: string, onProgress?: ParseProgress): unknown {
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  if (source.trim() === "") throw new FormatError("", "empty transcript");
  let documentError: string;
  try {
    const value: unknown = JSON.parse(source);
    onProgress?.(1, 1);
    return value;
  } catch (error) {
    documentError = errorMessage(error);
  }
  const lines = source.split(/\r?\n/);
  const firstLine = lines.findIndex((line) => line.trim() !== "");
  if (firstLine === -1 || !parsesAlone(lines[firstLine] ?? "")) {
    throw new FormatError("", `invalid JSON: ${documentError}`);
  }
  const values: unknown[] = [];
  lines.forEach((line, index) => {
    if (onProgress !== undefined && index % PROGRESS_EVERY_LINES === 0) onProgress(index, lines.length);
    if (line.trim() === "") return;
    try {
      values.push(JSON.parse(line));
    } catch (error) {
      const lineNumber = index + 1;
      throw new FormatError(`line ${lineNumber}`, `invalid JSON on line ${lineNumber}: ${errorMessage(error)}`);
    }
  });
  onProgress?.(lines.length, lines.length);
  return values;
}

function parsesAlone(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isToolscopeExport(record: JsonRecord): boolean {
  return record.kind === "toolscope-export";
}

function detectMessagesBody(body: JsonRecord, messages: unknown[]): FormatName {
  // `messages` is Anthropic's or Chat Completions' request field; decide between the two only.
  if (body.system !== undefined) return "anthropic";
  if (typeof body.model === "string" && body.model.startsWith("claude")) return "anthropic";
  if (Array.isArray(body.tools)) {
    if (body.tools.some((tool) => isRecord(tool) && tool.input_schema !== undefined)) return "anthropic";
    if (body.tools.some((tool) => isRecord(tool) && tool.function !== undefined)) return "openai-chat";
  }
  return detectMessages(messages) === "anthropic" ? "anthropic" : "openai-chat";
}

function detectItems(items: unknown[]): FormatName | null {
  const records = items.filter(isRecord);
  if (records.length === 0) return null;
  if (records.some(isJsonRpc)) return "mcp";
  if (records.some(isAgentChunk)) return "agent-stream";
  if (records.some((item) => Array.isArray(item.parts) || item.role === "model")) return "gemini";
  if (records.some((item) => typeof item.type === "string" && RESPONSES_ITEM_TYPES.has(item.type))) return "openai-responses";
  return detectMessages(records);
}

// Role/content messages: the content-part vocabulary tells the three message formats apart.
function detectMessages(messages: unknown[]): FormatName | null {
  const records = messages.filter(isRecord);
  if (!records.some((message) => typeof message.role === "string")) return null;
  const partTypes = new Set<string>();
  for (const message of records) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content) {
      if (isRecord(part) && typeof part.type === "string") partTypes.add(part.type);
      // Anthropic images carry a `source`; Chat and Responses images do not.
      if (isRecord(part) && part.type === "image" && isRecord(part.source)) partTypes.add("image-with-source");
    }
  }
  const hasPart = (vocabulary: Set<string>) => [...partTypes].some((type) => vocabulary.has(type));
  if (hasPart(ANTHROPIC_BLOCK_TYPES)) return "anthropic";
  const chatShaped = records.some(
    (message) => message.role === "tool" || message.role === "developer" || message.role === "function" || "tool_calls" in message || "tool_call_id" in message,
  );
  if (chatShaped || hasPart(CHAT_PART_TYPES)) return "openai-chat";
  if (hasPart(RESPONSES_PART_TYPES)) return "openai-responses";
  return "openai-chat";
}

function isJsonRpc(item: JsonRecord): boolean {
  return item.jsonrpc === "2.0" || (isRecord(item.message) && item.message.jsonrpc === "2.0" && typeof item.direction === "string");
}

function isAgentChunk(item: JsonRecord): boolean {
  if (typeof item.type !== "string" || !AGENT_STREAM_TYPES.has(item.type)) return false;
  if (typeof item.is_type_switched === "boolean") return true;
  // Responses reasoning items share the type name but never have a role; stream chunks do.
  return (item.role === "assistant" || item.role === "tool") && "content" in item;
}
