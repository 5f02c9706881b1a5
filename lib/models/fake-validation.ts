// Test support: the fake provider checks each request body the way the real API documents it — required fields,
// the tool declaration shape, call/result pairing — and refuses a wrong one with that API's own 400 body, so a
// request a real provider would refuse fails a test instead of reaching a user's provider.
import type { JsonRecord } from "../formats/json-fields.ts";
import {
  list,
  objectSchema,
  onlyKeys,
  optionalText,
  pattern,
  record,
  refuse,
  RequestRefused,
  text,
} from "./fake-checks.ts";
import { checkGeminiRequest } from "./fake-validation-gemini.ts";
import type { ModelApi } from "./schemas.ts";

// Anthropic: tool names ^[a-zA-Z0-9_-]{1,128}$; tool_use ids ^[a-zA-Z0-9_-]+$ (server tools: srvtoolu_…).
const ANTHROPIC_NAME = /^[a-zA-Z0-9_-]{1,128}$/;
const ANTHROPIC_ID = /^[a-zA-Z0-9_-]+$/;
const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
// Server tools are typed by a dated version (web_search_20250305, code_execution_20250825, bash_20250124, …).
const SERVER_TOOL = /^[a-z_]+_\d{8}$/;

const ANTHROPIC_TOP = [
  "model",
  "max_tokens",
  "messages",
  "system",
  "tools",
  "tool_choice",
  "stream",
  "temperature",
  "top_p",
  "top_k",
  "stop_sequences",
  "metadata",
  "thinking",
  "service_tier",
  "container",
  "mcp_servers",
  "context_management",
];
const ANTHROPIC_BLOCKS = new Set([
  "text",
  "image",
  "document",
  "search_result",
  "thinking",
  "redacted_thinking",
  "tool_use",
  "tool_result",
  "server_tool_use",
  "web_search_tool_result",
  "web_fetch_tool_result",
  "code_execution_tool_result",
  "bash_code_execution_tool_result",
  "text_editor_code_execution_tool_result",
  "tool_search_tool_result",
  "mcp_tool_use",
  "mcp_tool_result",
  "container_upload",
]);

function checkAnthropicTool(value: unknown, path: string): void {
  const tool = record(value, path);
  if (typeof tool.type === "string" && tool.type !== "custom") {
    if (!SERVER_TOOL.test(tool.type)) refuse(`${path}.type`, `unknown tool type "${tool.type}"`);
    text(tool.name, `${path}.name`);
    return;
  }
  onlyKeys(
    tool,
    [
      "type",
      "name",
      "description",
      "input_schema",
      "cache_control",
      "strict",
      "input_examples",
      "defer_loading",
      "allowed_callers",
    ],
    path,
  );
  pattern(text(tool.name, `${path}.name`), ANTHROPIC_NAME, `${path}.name`);
  optionalText(tool.description, `${path}.description`);
  if (tool.input_schema === undefined) refuse(`${path}.input_schema`, "Field required");
  objectSchema(tool.input_schema, `${path}.input_schema`);
}

function checkAnthropicBlock(value: unknown, path: string): JsonRecord {
  const block = record(value, path);
  const type = text(block.type, `${path}.type`);
  if (!ANTHROPIC_BLOCKS.has(type))
    refuse(`${path}.type`, `Input tag '${type}' does not match any of the expected tags`);
  if (type === "text") {
    onlyKeys(block, ["type", "text", "cache_control", "citations"], path);
    if (text(block.text, `${path}.text`) === "") refuse(`${path}.text`, "text content blocks must be non-empty");
  }
  if (type === "tool_use") {
    onlyKeys(block, ["type", "id", "name", "input", "cache_control", "caller"], path);
    pattern(text(block.id, `${path}.id`), ANTHROPIC_ID, `${path}.id`);
    text(block.name, `${path}.name`);
    record(block.input, `${path}.input`);
  }
  if (type === "tool_result") {
    onlyKeys(block, ["type", "tool_use_id", "content", "is_error", "cache_control"], path);
    text(block.tool_use_id, `${path}.tool_use_id`);
    if (Array.isArray(block.content))
      block.content.forEach((inner, index) => {
        const innerType = record(inner, `${path}.content.${index}`).type;
        if (!["text", "image", "document", "search_result"].includes(String(innerType)))
          refuse(`${path}.content.${index}.type`, `a tool_result cannot hold a ${String(innerType)} block`);
        checkAnthropicBlock(inner, `${path}.content.${index}`);
      });
    else if (block.content !== undefined) text(block.content, `${path}.content`);
  }
  return block;
}

/** Anthropic's pairing: each tool_use is answered in the very next message, whose tool_result blocks come first. */
function checkAnthropicMessages(messages: unknown[]): void {
  const blocksOf = messages.map((value, index) => {
    const message = record(value, `messages.${index}`);
    onlyKeys(message, ["role", "content"], `messages.${index}`);
    if (message.role !== "user" && message.role !== "assistant")
      refuse(`messages.${index}.role`, `Input should be 'user' or 'assistant'`);
    if (typeof message.content === "string") {
      if (message.content === "" && index < messages.length - 1)
        refuse(
          `messages.${index}`,
          "all messages must have non-empty content except for the optional final assistant message",
        );
      return { role: message.role, blocks: [] as JsonRecord[] };
    }
    const content = list(message.content, `messages.${index}.content`);
    if (content.length === 0 && !(index === messages.length - 1 && message.role === "assistant"))
      refuse(
        `messages.${index}`,
        "all messages must have non-empty content except for the optional final assistant message",
      );
    return {
      role: message.role,
      blocks: content.map((block, at) => checkAnthropicBlock(block, `messages.${index}.content.${at}`)),
    };
  });
  blocksOf.forEach(({ role, blocks }, index) => {
    const uses =
      role === "assistant" ? blocks.filter((block) => block.type === "tool_use").map((block) => String(block.id)) : [];
    const next = blocksOf[index + 1];
    const answered = new Set(
      (next?.role === "user" ? next.blocks : [])
        .filter((block) => block.type === "tool_result")
        .map((block) => String(block.tool_use_id)),
    );
    const missing = uses.filter((id) => !answered.has(id));
    if (missing.length > 0)
      refuse(
        `messages.${index}`,
        `\`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
      );
    const previous = blocksOf[index - 1];
    const asked = new Set(
      (previous?.role === "assistant" ? previous.blocks : [])
        .filter((block) => block.type === "tool_use")
        .map((block) => String(block.id)),
    );
    let seenOther = false;
    blocks.forEach((block, at) => {
      if (block.type !== "tool_result") {
        seenOther = true;
        return;
      }
      if (role !== "user") refuse(`messages.${index}.content.${at}`, "tool_result blocks belong in user messages");
      if (seenOther)
        refuse(
          `messages.${index}.content.${at}`,
          "tool_result blocks must come first in the user message, before any other content",
        );
      if (!asked.has(String(block.tool_use_id)))
        refuse(
          `messages.${index}.content.${at}`,
          `unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        );
    });
  });
}

function checkAnthropicRequest(body: JsonRecord): void {
  onlyKeys(body, ANTHROPIC_TOP, "");
  text(body.model, "model");
  if (typeof body.max_tokens !== "number" || !Number.isInteger(body.max_tokens) || body.max_tokens < 1)
    refuse("max_tokens", "Field required (a positive integer)");
  if (body.system !== undefined && typeof body.system !== "string")
    list(body.system, "system").forEach((block, index) => {
      if (record(block, `system.${index}`).type !== "text")
        refuse(`system.${index}.type`, "system blocks must be text");
      checkAnthropicBlock(block, `system.${index}`);
    });
  checkAnthropicMessages(list(body.messages, "messages", { nonEmpty: true }));
  if (body.tools !== undefined)
    list(body.tools, "tools").forEach((tool, index) => checkAnthropicTool(tool, `tools.${index}`));
  if (body.tool_choice !== undefined) {
    const choice = record(body.tool_choice, "tool_choice");
    if (!["auto", "any", "tool", "none"].includes(String(choice.type)))
      refuse("tool_choice.type", "expected auto, any, tool or none");
    onlyKeys(choice, ["type", "name", "disable_parallel_tool_use"], "tool_choice");
    if (choice.type === "tool") text(choice.name, "tool_choice.name");
  }
}

function checkChatTool(value: unknown, path: string): void {
  const tool = record(value, path);
  onlyKeys(tool, ["type", "function", "custom"], path);
  if (tool.type === "custom") {
    pattern(
      text(record(tool.custom, `${path}.custom`).name, `${path}.custom.name`),
      OPENAI_NAME,
      `${path}.custom.name`,
    );
    return;
  }
  if (tool.type !== "function") refuse(`${path}.type`, "expected 'function' or 'custom'");
  const fn = record(tool.function, `${path}.function`);
  onlyKeys(fn, ["name", "description", "parameters", "strict"], `${path}.function`);
  pattern(text(fn.name, `${path}.function.name`), OPENAI_NAME, `${path}.function.name`);
  if (fn.parameters !== undefined) objectSchema(fn.parameters, `${path}.function.parameters`);
}

const CHAT_MESSAGE_KEYS: Record<string, readonly string[]> = {
  system: ["role", "content", "name"],
  developer: ["role", "content", "name"],
  user: ["role", "content", "name"],
  assistant: ["role", "content", "name", "tool_calls", "refusal", "audio", "function_call"],
  tool: ["role", "content", "tool_call_id"],
  function: ["role", "content", "name"],
};

/** Chat's pairing: an assistant message with tool_calls is followed by one tool message per call id, and only those. */
function checkChatRequest(body: JsonRecord): void {
  text(body.model, "model");
  const messages = list(body.messages, "messages", { nonEmpty: true }).map((value, index) =>
    record(value, `messages[${index}]`),
  );
  let waiting: string[] | null = null;
  messages.forEach((message, index) => {
    const path = `messages[${index}]`;
    const keys = CHAT_MESSAGE_KEYS[String(message.role)];
    if (keys === undefined)
      refuse(`${path}.role`, `'${String(message.role)}' is not one of system, developer, user, assistant, tool`);
    onlyKeys(message, keys, path);
    if (message.role === "tool") {
      const id = text(message.tool_call_id, `${path}.tool_call_id`);
      if (waiting === null || !waiting.includes(id))
        refuse(path, "messages with role 'tool' must be a response to a preceding message with 'tool_calls'");
      waiting = waiting.filter((other) => other !== id);
      return;
    }
    if (waiting !== null && waiting.length > 0)
      refuse(
        `messages[${index - 1}]`,
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${waiting.join(", ")}`,
      );
    waiting = null;
    if (message.role === "assistant" && message.tool_calls !== undefined) {
      const calls = list(message.tool_calls, `${path}.tool_calls`).map((call, at) => {
        const toolCall = record(call, `${path}.tool_calls[${at}]`);
        if (toolCall.type === "function")
          text(
            record(toolCall.function, `${path}.tool_calls[${at}].function`).arguments,
            `${path}.tool_calls[${at}].function.arguments`,
          );
        else if (toolCall.type !== "custom")
          refuse(`${path}.tool_calls[${at}].type`, "expected 'function' or 'custom'");
        return text(toolCall.id, `${path}.tool_calls[${at}].id`);
      });
      waiting = calls;
    } else if (message.content === null || message.content === undefined) refuse(`${path}.content`, "Field required");
  });
  if (waiting !== null && (waiting as string[]).length > 0)
    refuse(
      `messages[${messages.length - 1}]`,
      `tool_call_ids did not have response messages: ${(waiting as string[]).join(", ")}`,
    );
  if (body.tools !== undefined)
    list(body.tools, "tools").forEach((tool, index) => checkChatTool(tool, `tools[${index}]`));
}

const RESPONSES_HOSTED_TOOLS = new Set([
  "web_search",
  "web_search_preview",
  "file_search",
  "computer_use_preview",
  "code_interpreter",
  "image_generation",
  "mcp",
  "local_shell",
  "shell",
  "apply_patch",
]);

function checkResponsesTool(value: unknown, path: string): void {
  const tool = record(value, path);
  if (tool.type === "custom") {
    pattern(text(tool.name, `${path}.name`), OPENAI_NAME, `${path}.name`);
    return;
  }
  if (tool.type !== "function") {
    if (!RESPONSES_HOSTED_TOOLS.has(String(tool.type))) refuse(`${path}.type`, `Invalid value: '${String(tool.type)}'`);
    return;
  }
  onlyKeys(tool, ["type", "name", "description", "parameters", "strict"], path);
  pattern(text(tool.name, `${path}.name`), OPENAI_NAME, `${path}.name`);
  if (tool.parameters !== undefined && tool.parameters !== null) objectSchema(tool.parameters, `${path}.parameters`);
}

/** Responses' pairing: every output names an earlier call's call_id, and every call has its output. */
function checkResponsesRequest(body: JsonRecord): void {
  text(body.model, "model");
  if (typeof body.input !== "string") {
    const calls: string[] = [];
    const outputs = new Set<string>();
    list(body.input, "input").forEach((value, index) => {
      const item = record(value, `input[${index}]`);
      const type = item.type ?? (item.role !== undefined ? "message" : undefined);
      if (type === "message") {
        if (!["user", "assistant", "system", "developer"].includes(String(item.role)))
          refuse(`input[${index}].role`, "Invalid value");
        onlyKeys(item, ["type", "role", "content", "id", "status", "phase"], `input[${index}]`);
        if (typeof item.content !== "string") list(item.content, `input[${index}].content`);
      } else if (type === "function_call" || type === "custom_tool_call") {
        calls.push(text(item.call_id, `input[${index}].call_id`));
        text(item.name, `input[${index}].name`);
        text(
          type === "function_call" ? item.arguments : item.input,
          `input[${index}].${type === "function_call" ? "arguments" : "input"}`,
        );
      } else if (type === "function_call_output" || type === "custom_tool_call_output") {
        const id = text(item.call_id, `input[${index}].call_id`);
        if (!calls.includes(id))
          refuse(`input[${index}]`, `No tool call found for function call output with call_id ${id}.`);
        outputs.add(id);
        if (item.output === undefined) refuse(`input[${index}].output`, "Missing required parameter");
      } else if (typeof type !== "string") refuse(`input[${index}].type`, "Missing required parameter");
    });
    const unanswered = calls.find((id) => !outputs.has(id));
    if (unanswered !== undefined && body.previous_response_id === undefined)
      refuse("input", `No tool output found for function call ${unanswered}.`);
  }
  if (body.tools !== undefined)
    list(body.tools, "tools").forEach((tool, index) => checkResponsesTool(tool, `tools[${index}]`));
}

/** Null when the body is one `api` accepts; otherwise that API's own 400 answer. */
export function refusalOf(api: ModelApi, body: unknown): { status: number; body: unknown } | null {
  try {
    const request = record(body, "");
    if (api === "anthropic") checkAnthropicRequest(request);
    else if (api === "openai-chat") checkChatRequest(request);
    else if (api === "openai-responses") checkResponsesRequest(request);
    else checkGeminiRequest(request);
    return null;
  } catch (error) {
    if (!(error instanceof RequestRefused)) throw error;
    if (api === "anthropic")
      return { status: 400, body: { type: "error", error: { type: "invalid_request_error", message: error.message } } };
    if (api === "gemini")
      return { status: 400, body: { error: { code: 400, message: error.message, status: "INVALID_ARGUMENT" } } };
    return {
      status: 400,
      body: { error: { message: error.message, type: "invalid_request_error", param: error.path, code: null } },
    };
  }
}
