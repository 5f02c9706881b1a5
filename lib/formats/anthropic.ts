// Anthropic Messages API adapter: a request body ({system?, tools?, messages}), a bare messages array or a response → CanonicalTrace.
import type { CanonicalTrace, ContentBlock, ToolDeclaration } from "./canonical";
import { resultText, withExtras } from "./content-blocks";
import {
  childPath,
  expectArray,
  expectRecord,
  isRecord,
  readOptionalArray,
  readOptionalBoolean,
  readOptionalString,
  readString,
  stringifyJson,
  type JsonRecord,
} from "./json-fields";
import { FormatError } from "./format-error";
import { assembleAnthropicStream, isAnthropicStreamEvent, partPathMap } from "./stream-assembly";
import { TraceBuilder } from "./trace-builder";

export function parseAnthropic(input: unknown): CanonicalTrace {
  const builder = new TraceBuilder("anthropic");
  if (Array.isArray(input) && input.some(isAnthropicStreamEvent)) {
    // A streamed response (stream events, from an array or an SSE capture): one assistant message per message_start.
    const assembled = assembleAnthropicStream(input);
    for (const { item, path } of assembled.items) readMessage(item, path, builder);
    for (const issue of assembled.issues) builder.issue(issue.path, issue.message, issue.raw);
    return builder.finish(partPathMap(assembled.items, "content"));
  }
  if (Array.isArray(input)) {
    input.forEach((message, index) => readMessage(message, childPath("", index), builder));
    return builder.finish();
  }
  const body = expectRecord(input, "", "a Messages API request object or a messages array");
  // A response ({type: "message", role: "assistant", content, stop_reason}) is one assistant message.
  if (body.type === "message" && body.messages === undefined) {
    readMessage(body, "", builder);
    return builder.finish();
  }
  readOptionalArray(body, "tools", "")?.forEach((tool, index) =>
    builder.declare(readDeclaration(tool, childPath("tools", index))),
  );
  readSystem(body, builder);
  const messages = expectArray(body.messages, "messages");
  messages.forEach((message, index) => readMessage(message, childPath("messages", index), builder));
  return builder.finish();
}

function readDeclaration(value: unknown, path: string): ToolDeclaration {
  const tool = expectRecord(value, path, "a tool object");
  // Server tools ({type: "web_search_20250305", name: "web_search"}) have a name but no input_schema.
  const declaration: ToolDeclaration = { name: readString(tool, "name", path), raw: value };
  const description = readOptionalString(tool, "description", path);
  if (description !== undefined) declaration.description = description;
  if (tool.input_schema !== undefined) declaration.inputSchema = tool.input_schema;
  return declaration;
}

function readSystem(body: JsonRecord, builder: TraceBuilder): void {
  const system = body.system;
  if (system === undefined || system === null) return;
  if (typeof system === "string") {
    builder.message("system", system, system, "system");
    return;
  }
  expectArray(system, "system").forEach((value, index) => {
    const path = childPath("system", index);
    const block = expectRecord(value, path, "a text block object");
    if (block.type !== "text") throw new FormatError(childPath(path, "type"), 'expected "text" in a system prompt');
    builder.message("system", readString(block, "text", path), value, path);
  });
}

function readMessage(value: unknown, path: string, builder: TraceBuilder): void {
  const message = expectRecord(value, path, "a message object");
  const role = message.role;
  if (role !== "user" && role !== "assistant") {
    throw new FormatError(childPath(path, "role"), `expected "user" or "assistant", got ${JSON.stringify(role)}`);
  }
  if (role === "assistant") readResponseMeta(message, path, builder);
  const content = message.content;
  if (typeof content === "string") {
    builder.message(role, content, value, path);
  } else if (Array.isArray(content)) {
    readBlocks(content, role, path, builder);
  } else {
    throw new FormatError(childPath(path, "content"), "expected a string or an array of content blocks");
  }
  if (role === "assistant") builder.endModelTurn();
}

/** A response (or a streamed one, assembled) names itself: id, model, stop reason, usage. */
function readResponseMeta(message: JsonRecord, path: string, builder: TraceBuilder): void {
  const text = (key: string) => {
    const value = message[key];
    return typeof value === "string" ? value : undefined;
  };
  const responseId = text("id");
  const model = text("model");
  const stopReason = text("stop_reason");
  const usage = isRecord(message.usage) ? message.usage : undefined;
  if (responseId === undefined && model === undefined && stopReason === undefined && usage === undefined) return;
  builder.response({ api: "anthropic", responseId, model, stopReason, usage, path });
}

function readBlocks(blocks: unknown[], role: "user" | "assistant", messagePath: string, builder: TraceBuilder): void {
  let seenOtherContent = false;
  blocks.forEach((value, index) => {
    const path = childPath(childPath(messagePath, "content"), index);
    const block = expectRecord(value, path, "a content block object");
    const type = readString(block, "type", path);
    switch (type) {
      case "text":
        seenOtherContent = true;
        builder.message(role, readString(block, "text", path), value, path);
        return;
      case "image":
      case "document":
      case "search_result":
        seenOtherContent = true;
        builder.message(role, "", value, path, [contentBlock(block, path)]);
        return;
      case "thinking":
        builder.reasoning(readString(block, "thinking", path), value, path);
        return;
      case "redacted_thinking":
        builder.reasoning("", value, path, true);
        return;
      case "tool_use": {
        if (role !== "assistant") builder.issue(path, "tool_use block in a user message", value);
        const input = expectRecord(block.input, childPath(path, "input"));
        builder.toolCall({
          callId: readString(block, "id", path),
          name: readString(block, "name", path),
          input: "json",
          argumentsText: stringifyJson(input),
          arguments: input,
          raw: value,
          path,
        });
        return;
      }
      case "tool_result": {
        if (role !== "user") builder.issue(path, "tool_result block in an assistant message", value);
        // Anthropic rejects a user message whose tool_result blocks do not come first; keep it, but say so.
        if (seenOtherContent)
          builder.issue(path, "tool_result after other content: Anthropic requires tool_result blocks first", value);
        const callId = readString(block, "tool_use_id", path);
        const isError = readOptionalBoolean(block, "is_error", path) === true;
        const result = readResultContent(block.content, childPath(path, "content"));
        builder.toolResult({ callId, isError, errorSignal: "vendor-flag", raw: value, path, ...result });
        return;
      }
      default:
        // Server tool blocks (server_tool_use, web_search_tool_result, …) run at the provider, not in the client loop.
        seenOtherContent = true;
        builder.issue(path, `unmapped content block type ${type}`, value);
    }
  });
}

function readResultContent(value: unknown, path: string): { text: string; content?: ContentBlock[] } {
  if (value === undefined || value === null) return { text: "" };
  if (typeof value === "string") return { text: value };
  const blocks = expectArray(value, path).map((item, index) =>
    contentBlock(expectRecord(item, childPath(path, index), "a content block object"), childPath(path, index)),
  );
  return { text: resultText(blocks), content: blocks };
}

/**
 * Anthropic content blocks → canonical blocks. Images and documents keep where their bytes are: inline base64
 * (image / document), plain text (a text document), or a URL or Files API id (media_ref). Blocks with no
 * canonical meaning (search_result, tool_reference, a custom-content document) stay whole as Anthropic blocks.
 */
export function contentBlock(block: JsonRecord, path: string): ContentBlock {
  const type = readString(block, "type", path);
  if (type === "text")
    return withExtras({ type: "text", text: readString(block, "text", path) }, block, ["type", "text"], "anthropic");
  if (type !== "image" && type !== "document") return { type: "unknown", raw: block, format: "anthropic" };
  const sourcePath = childPath(path, "source");
  const source = expectRecord(block.source, sourcePath);
  const media = type === "image" ? "image" : "document";
  const title = readOptionalString(block, "title", path);
  const modelled = ["type", "source", "title"];
  switch (source.type) {
    case "base64": {
      const data = readString(source, "data", sourcePath);
      const mimeType = readString(source, "media_type", sourcePath);
      const canonical: ContentBlock =
        media === "image" ? { type: "image", data, mimeType } : { type: "document", data, mimeType };
      if (canonical.type === "document" && title !== undefined) canonical.title = title;
      return withExtras(canonical, block, modelled, "anthropic");
    }
    case "text": {
      if (media !== "document") break;
      const canonical: ContentBlock = {
        type: "document",
        text: readString(source, "data", sourcePath),
        mimeType: readOptionalString(source, "media_type", sourcePath) ?? "text/plain",
      };
      if (title !== undefined) canonical.title = title;
      return withExtras(canonical, block, modelled, "anthropic");
    }
    case "url":
    case "file": {
      const canonical: ContentBlock =
        source.type === "url"
          ? { type: "media_ref", media, url: readString(source, "url", sourcePath) }
          : { type: "media_ref", media, fileId: readString(source, "file_id", sourcePath) };
      if (title !== undefined) canonical.title = title;
      return withExtras(canonical, block, modelled, "anthropic");
    }
  }
  return { type: "unknown", raw: block, format: "anthropic" };
}
