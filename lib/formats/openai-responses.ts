// OpenAI Responses API adapter: input items, output items, a request body or a response object → CanonicalTrace.
import type { CanonicalTrace, ContentBlock, ToolDeclaration } from "./canonical";
import { hasErrorPrefix, joinText, resultText } from "./content-blocks";
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
import { responsesPart } from "./openai-parts";
import { assembleResponsesEvents, isResponsesStreamEvent } from "./stream-assembly";
import { TraceBuilder } from "./trace-builder";

export function parseOpenAIResponses(input: unknown): CanonicalTrace {
  const builder = new TraceBuilder("openai-responses");
  if (Array.isArray(input) && input.some(isResponsesStreamEvent)) {
    // Stream events: each output item as output_item.done gave it, or assembled from its deltas.
    const assembled = assembleResponsesEvents(input);
    for (const { item, path } of assembled.items) readItem(item, path, builder);
    for (const issue of assembled.issues) builder.issue(issue.path, issue.message, issue.raw);
    return builder.finish();
  }
  if (Array.isArray(input)) {
    input.forEach((item, index) => readItem(item, childPath("", index), builder));
    return builder.finish();
  }
  const body = expectRecord(input, "", "a Responses request/response object or an items array");
  if (body.input === undefined && body.output === undefined) {
    throw new FormatError("", "expected an `input` or `output` items array");
  }
  readOptionalArray(body, "tools", "")?.forEach((tool, index) => readTool(tool, childPath("tools", index), builder));

  // A logged exchange is read in conversation order: instructions, then what was sent, then what came back.
  const instructions = body.instructions;
  if (typeof instructions === "string") builder.message("system", instructions, instructions, "instructions");
  else if (Array.isArray(instructions))
    instructions.forEach((item, index) => readItem(item, childPath("instructions", index), builder));

  if (typeof body.input === "string") builder.message("user", body.input, body.input, "input");
  else
    readOptionalArray(body, "input", "")?.forEach((item, index) => readItem(item, childPath("input", index), builder));
  readOptionalArray(body, "output", "")?.forEach((item, index) => readItem(item, childPath("output", index), builder));
  return builder.finish();
}

function readTool(value: unknown, path: string, builder: TraceBuilder): void {
  const tool = expectRecord(value, path, "a tool object");
  const type = readString(tool, "type", path);
  if (type !== "function" && type !== "custom") {
    // Hosted tools (web_search, file_search, mcp, …) execute at the provider; they are not client declarations.
    builder.issue(path, `unmapped hosted tool type ${type}`, value);
    return;
  }
  const declaration: ToolDeclaration = { name: readString(tool, "name", path), raw: value };
  const description = readOptionalString(tool, "description", path);
  if (description !== undefined) declaration.description = description;
  // Custom tools take grammar-constrained text: their `format` is not a JSON Schema, so it stays in raw only.
  if (type === "function" && tool.parameters !== undefined) declaration.inputSchema = tool.parameters;
  builder.declare(declaration);
}

function readItem(value: unknown, path: string, builder: TraceBuilder): void {
  const item = expectRecord(value, path, "an item object");
  // EasyInputMessage items ({role, content}) have no type.
  const type = item.type === undefined && item.role !== undefined ? "message" : readString(item, "type", path);
  switch (type) {
    case "message":
      readMessage(item, value, path, builder);
      return;
    case "reasoning":
      readReasoning(item, value, path, builder);
      return;
    case "function_call": {
      const argumentsText = readString(item, "arguments", path);
      const parsed = parseJson(argumentsText);
      builder.toolCall({
        // call_id pairs the output; the item id (fc_…) only names this output item.
        callId: readString(item, "call_id", path),
        itemId: readOptionalString(item, "id", path),
        name: readString(item, "name", path),
        input: "json",
        argumentsText,
        ...(parsed.ok ? { arguments: parsed.value } : { argumentsError: parsed.error }),
        raw: value,
        path,
      });
      return;
    }
    case "custom_tool_call":
      builder.toolCall({
        callId: readString(item, "call_id", path),
        itemId: readOptionalString(item, "id", path),
        name: readString(item, "name", path),
        input: "text",
        argumentsText: readString(item, "input", path),
        raw: value,
        path,
      });
      return;
    case "function_call_output":
    case "custom_tool_call_output": {
      const { text, content } = readOutput(item.output, childPath(path, "output"));
      builder.toolResult({
        callId: readString(item, "call_id", path),
        text,
        isError: hasErrorPrefix(text),
        errorSignal: "error-prefix",
        content,
        raw: value,
        path,
      });
      return;
    }
    default:
      // Hosted-tool items (web_search_call, mcp_call, computer_call, …) and item_reference have no client pairing.
      builder.issue(path, `unmapped item type ${type}`, value);
  }
}

function readMessage(item: JsonRecord, raw: unknown, path: string, builder: TraceBuilder): void {
  const role = readString(item, "role", path);
  if (role !== "user" && role !== "assistant" && role !== "system" && role !== "developer") {
    throw new FormatError(
      childPath(path, "role"),
      `expected one of user, assistant, system, developer, got ${JSON.stringify(role)}`,
    );
  }
  const { text, content } = readMessageContent(item.content, childPath(path, "content"));
  builder.message(role === "developer" ? "system" : role, text, raw, path, content);
}

function readReasoning(item: JsonRecord, raw: unknown, path: string, builder: TraceBuilder): void {
  const summary = readTextParts(readOptionalArray(item, "summary", path) ?? [], childPath(path, "summary"));
  const content = readTextParts(readOptionalArray(item, "content", path) ?? [], childPath(path, "content"));
  // Reasoning models usually expose only the summary; the full text is present only when the API returns it.
  const text = summary.length > 0 ? summary.join("\n\n") : content.join("\n\n");
  builder.reasoning(text, raw, path, text === "" && typeof item.encrypted_content === "string");
}

function readTextParts(parts: unknown[], path: string): string[] {
  return parts.map((part, index) =>
    readString(expectRecord(part, childPath(path, index)), "text", childPath(path, index)),
  );
}

function readMessageContent(value: unknown, path: string): { text: string; content?: ContentBlock[] } {
  if (typeof value === "string") return { text: value };
  const blocks = expectArray(value, path).map((part, index) => responsesPart(part, childPath(path, index)));
  // A parts array stays blocks even when all are text, so a replay writes parts again, not a string.
  return { text: joinText(blocks), content: blocks };
}

// Outputs are a string, or (newer API) an array of input_text / input_image / input_file parts.
function readOutput(value: unknown, path: string): { text: string; content?: ContentBlock[] } {
  if (typeof value === "string") return { text: value };
  const blocks = expectArray(value, path).map((part, index) => responsesPart(part, childPath(path, index)));
  return { text: resultText(blocks), content: blocks };
}
