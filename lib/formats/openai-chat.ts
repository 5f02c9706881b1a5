// OpenAI Chat Completions adapter: a request body ({tools?, messages}), a bare messages array or a completion ({choices}) → CanonicalTrace.
import type { CanonicalTrace, ContentBlock, ToolDeclaration } from "./canonical";
import { hasErrorPrefix, joinText } from "./content-blocks";
import { FormatError } from "./format-error";
import {
  childPath,
  expectArray,
  expectRecord,
  parseJson,
  readOptionalArray,
  readOptionalString,
  readString,
  type JsonRecord,
} from "./json-fields";
import { chatPart } from "./openai-parts";
import { assembleChatChunks, isChatChunk, partPathMap } from "./stream-assembly";
import { TraceBuilder } from "./trace-builder";

const ROLES = ["system", "developer", "user", "assistant", "tool", "function"];

export function parseOpenAIChat(input: unknown): CanonicalTrace {
  const builder = new TraceBuilder("openai-chat");
  if (Array.isArray(input) && input.some(isChatChunk)) {
    // Streamed chunks: deltas of content and of each tool call (by index) make one assistant message per completion.
    const assembled = assembleChatChunks(input);
    for (const { item, path } of assembled.items) readMessage(item, path, builder);
    for (const issue of assembled.issues) builder.issue(issue.path, issue.message, issue.raw);
    return builder.finish(partPathMap(assembled.items, "tool_calls"));
  }
  if (Array.isArray(input)) {
    input.forEach((message, index) => readMessage(message, childPath("", index), builder));
    return builder.finish();
  }
  const body = expectRecord(input, "", "a Chat Completions request object or a messages array");
  readOptionalArray(body, "tools", "")?.forEach((tool, index) => readTool(tool, childPath("tools", index), builder));
  // Deprecated `functions` declarations still appear in older logs.
  readOptionalArray(body, "functions", "")?.forEach((fn, index) =>
    builder.declare(readFunctionDeclaration(fn, childPath("functions", index))),
  );
  if (body.messages === undefined && body.choices === undefined)
    throw new FormatError("messages", "expected an array, got undefined");
  readOptionalArray(body, "messages", "")?.forEach((message, index) =>
    readMessage(message, childPath("messages", index), builder),
  );
  readChoices(body, builder);
  return builder.finish();
}

// A completion (or a logged request with its completion) continues with the model's message. Choices are
// alternatives, not a sequence, so only the first is the transcript's continuation.
function readChoices(body: JsonRecord, builder: TraceBuilder): void {
  const choices = readOptionalArray(body, "choices", "");
  if (choices === undefined || choices.length === 0) return;
  const path = childPath("choices", 0);
  const choice = expectRecord(choices[0], path, "a choice object");
  readMessage(choice.message, childPath(path, "message"), builder);
  if (choices.length > 1) builder.issue("choices", `only the first of ${choices.length} choices is mapped`);
}

function readTool(value: unknown, path: string, builder: TraceBuilder): void {
  const tool = expectRecord(value, path, "a tool object");
  const type = tool.type ?? "function";
  if (type === "function") {
    builder.declare({ ...readFunctionDeclaration(tool.function, childPath(path, "function")), raw: value });
  } else if (type === "custom") {
    const customPath = childPath(path, "custom");
    const custom = expectRecord(tool.custom, customPath);
    const declaration: ToolDeclaration = { name: readString(custom, "name", customPath), raw: value };
    const description = readOptionalString(custom, "description", customPath);
    if (description !== undefined) declaration.description = description;
    builder.declare(declaration);
  } else {
    builder.issue(path, `unmapped tool type ${String(type)}`, value);
  }
}

function readFunctionDeclaration(value: unknown, path: string): ToolDeclaration {
  const fn = expectRecord(value, path, "a function object");
  const declaration: ToolDeclaration = { name: readString(fn, "name", path), raw: value };
  const description = readOptionalString(fn, "description", path);
  if (description !== undefined) declaration.description = description;
  if (fn.parameters !== undefined) declaration.inputSchema = fn.parameters;
  return declaration;
}

function readMessage(value: unknown, path: string, builder: TraceBuilder): void {
  const message = expectRecord(value, path, "a message object");
  const role = readString(message, "role", path);
  const contentPath = childPath(path, "content");
  switch (role) {
    case "system":
    case "developer": {
      // Developer messages are the o-series rename of system messages; raw keeps which one it was.
      const { text, content } = readContent(message.content, contentPath);
      builder.message("system", text, value, path, content);
      return;
    }
    case "user": {
      const { text, content } = readContent(message.content, contentPath);
      builder.message("user", text, value, path, content);
      return;
    }
    case "assistant":
      readAssistant(message, value, path, builder);
      builder.endModelTurn();
      return;
    case "tool": {
      const { text, content } = readContent(message.content, contentPath);
      builder.toolResult({
        callId: readString(message, "tool_call_id", path),
        text,
        isError: hasErrorPrefix(text),
        errorSignal: "error-prefix",
        content,
        raw: value,
        path,
      });
      return;
    }
    case "function": {
      // Legacy function-calling: results carry the function name only, so they pair with calls by name, in order.
      const { text } = readContent(message.content, contentPath);
      builder.toolResult({
        callId: undefined,
        name: readString(message, "name", path),
        text,
        isError: hasErrorPrefix(text),
        errorSignal: "error-prefix",
        raw: value,
        path,
      });
      return;
    }
    default:
      throw new FormatError(
        childPath(path, "role"),
        `expected one of ${ROLES.join(", ")}, got ${JSON.stringify(role)}`,
      );
  }
}

function readAssistant(message: JsonRecord, raw: unknown, path: string, builder: TraceBuilder): void {
  // DeepSeek-style OpenAI-compatible servers put the chain of thought beside the content.
  const reasoning = readOptionalString(message, "reasoning_content", path);
  if (reasoning !== undefined) builder.reasoning(reasoning, raw, childPath(path, "reasoning_content"));

  const { text, content } = readContent(message.content, childPath(path, "content"));
  if (text !== "" || content !== undefined) builder.message("assistant", text, raw, path, content);
  const refusal = readOptionalString(message, "refusal", path);
  if (refusal !== undefined) builder.message("assistant", refusal, raw, childPath(path, "refusal"));

  readOptionalArray(message, "tool_calls", path)?.forEach((call, index) =>
    readToolCall(call, childPath(childPath(path, "tool_calls"), index), builder),
  );

  if (message.function_call !== undefined && message.function_call !== null) {
    const callPath = childPath(path, "function_call");
    const fn = expectRecord(message.function_call, callPath);
    builder.toolCall({
      callId: undefined,
      name: readString(fn, "name", callPath),
      ...jsonArguments(fn, callPath),
      raw,
      path: callPath,
    });
  }
}

function readToolCall(value: unknown, path: string, builder: TraceBuilder): void {
  const call = expectRecord(value, path, "a tool call object");
  const callId = readString(call, "id", path);
  const type = call.type ?? "function";
  if (type === "function") {
    const fnPath = childPath(path, "function");
    const fn = expectRecord(call.function, fnPath);
    builder.toolCall({ callId, name: readString(fn, "name", fnPath), ...jsonArguments(fn, fnPath), raw: value, path });
  } else if (type === "custom") {
    const customPath = childPath(path, "custom");
    const custom = expectRecord(call.custom, customPath);
    builder.toolCall({
      callId,
      name: readString(custom, "name", customPath),
      input: "text",
      argumentsText: readString(custom, "input", customPath),
      raw: value,
      path,
    });
  } else {
    builder.issue(path, `unmapped tool call type ${String(type)}`, value);
  }
}

// Chat Completions arguments are a JSON string the model wrote; it can be invalid and is kept verbatim either way.
function jsonArguments(
  fn: JsonRecord,
  path: string,
): { input: "json"; argumentsText: string; arguments?: unknown; argumentsError?: string } {
  const argumentsText = readString(fn, "arguments", path);
  const parsed = parseJson(argumentsText);
  return parsed.ok
    ? { input: "json", argumentsText, arguments: parsed.value }
    : { input: "json", argumentsText, argumentsError: parsed.error };
}

// Content is a string, null (assistant with tool calls) or an array of parts; text parts join with newlines.
function readContent(value: unknown, path: string): { text: string; content?: ContentBlock[] } {
  if (value === undefined || value === null) return { text: "" };
  if (typeof value === "string") return { text: value };
  const blocks = expectArray(value, path).map((part, index) => chatPart(part, childPath(path, index)));
  // A parts array stays blocks even when all are text, so a replay writes parts again, not a string.
  return { text: joinText(blocks), content: blocks };
}
