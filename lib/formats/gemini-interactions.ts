// Gemini Interactions API adapter (beta): an Interaction ({id, status, steps, …}), a create request ({model, input,
// tools, system_instruction, previous_interaction_id}), a chain of interactions, or a steps array → CanonicalTrace.
import type { CanonicalTrace, ContentBlock, ToolDeclaration } from "./canonical";
import { hasErrorPrefix, joinText, mediaBlock, resultText, mediaKindOf, withExtras } from "./content-blocks";
import { FormatError } from "./format-error";
import {
  childPath,
  expectArray,
  expectRecord,
  isRecord,
  readOptionalBoolean,
  readOptionalString,
  readString,
  stringifyJson,
  type JsonRecord,
} from "./json-fields";
import { assembleInteractionsEvents, isInteractionsStreamEvent } from "./stream-assembly";
import { TraceBuilder } from "./trace-builder";

/** Step types of the Interactions API; the *_call / *_result pairs other than function run at the provider. */
export const INTERACTION_STEP_TYPES = new Set([
  "user_input",
  "model_output",
  "thought",
  "function_call",
  "function_result",
  "code_execution_call",
  "code_execution_result",
  "google_search_call",
  "google_search_result",
  "google_maps_call",
  "google_maps_result",
  "url_context_call",
  "url_context_result",
  "file_search_call",
  "file_search_result",
  "mcp_server_tool_call",
  "mcp_server_tool_result",
  "retrieval_call",
  "retrieval_result",
  "processing_call",
  "processing_result",
]);
const CONTENT_TYPES = new Set(["text", "image", "audio", "document", "video"]);

export function parseGeminiInteractions(input: unknown): CanonicalTrace {
  const builder = new TraceBuilder("gemini-interactions");
  if (Array.isArray(input) && input.some(isInteractionsStreamEvent)) {
    const assembled = assembleInteractionsEvents(input);
    readSteps(
      assembled.items.map(({ item }) => item),
      "",
      builder,
      assembled.items.map(({ path }) => path),
    );
    for (const issue of assembled.issues) builder.issue(issue.path, issue.message, issue.raw);
    return builder.finish();
  }
  if (Array.isArray(input)) {
    // A chain of interactions, or one interaction's steps.
    if (
      input.every(
        (item) =>
          isRecord(item) && (Array.isArray(item.steps) || typeof item.status === "string" || item.input !== undefined),
      )
    ) {
      input.forEach((interaction, index) => readInteraction(interaction, childPath("", index), builder));
    } else {
      readSteps(input, "", builder);
    }
    return builder.finish();
  }
  readInteraction(input, "", builder);
  return builder.finish();
}

function readInteraction(value: unknown, path: string, builder: TraceBuilder): void {
  const interaction = expectRecord(value, path, "an Interaction object, a create request or a steps array");
  if (interaction.steps === undefined && interaction.input === undefined && interaction.outputs === undefined) {
    throw new FormatError(path, "expected an interaction with `steps`, `input` or `outputs`");
  }
  const toolsPath = childPath(path, "tools");
  if (interaction.tools !== undefined && interaction.tools !== null) {
    expectArray(interaction.tools, toolsPath).forEach((tool, index) =>
      readTool(tool, childPath(toolsPath, index), builder),
    );
  }
  const system = readOptionalString(interaction, "system_instruction", path);
  if (system !== undefined) builder.message("system", system, system, childPath(path, "system_instruction"));
  readInput(interaction.input, childPath(path, "input"), builder);
  if (interaction.steps !== undefined && interaction.steps !== null)
    readSteps(expectArray(interaction.steps, childPath(path, "steps")), childPath(path, "steps"), builder);
  // Early versions of the API returned `outputs` (content items, function_call items among them).
  if (Array.isArray(interaction.outputs)) readSteps(interaction.outputs, childPath(path, "outputs"), builder);
  builder.endModelTurn();
}

function readTool(value: unknown, path: string, builder: TraceBuilder): void {
  const tool = expectRecord(value, path, "a tool object");
  if (tool.type !== "function") {
    builder.issue(path, `unmapped built-in tool ${String(tool.type)}`, value);
    return;
  }
  const declaration: ToolDeclaration = { name: readString(tool, "name", path), raw: value };
  const description = readOptionalString(tool, "description", path);
  if (description !== undefined) declaration.description = description;
  if (tool.parameters !== undefined) declaration.inputSchema = tool.parameters;
  builder.declare(declaration);
}

// input: a string, one content, a contents array (all user input), or steps (a whole conversation).
function readInput(value: unknown, path: string, builder: TraceBuilder): void {
  if (value === undefined || value === null) return;
  if (typeof value === "string") {
    builder.message("user", value, value, path);
    return;
  }
  const items = Array.isArray(value) ? value : [value];
  if (items.every((item) => isRecord(item) && typeof item.type === "string" && CONTENT_TYPES.has(item.type))) {
    const blocks = items.map((item, index) => contentBlock(item, Array.isArray(value) ? childPath(path, index) : path));
    builder.message("user", joinText(blocks), value, path, blocks);
    return;
  }
  readSteps(items, path, builder);
}

// `paths` names each step's events when the steps were assembled from a stream.
function readSteps(steps: unknown[], path: string, builder: TraceBuilder, paths?: readonly string[]): void {
  steps.forEach((value, index) => {
    const stepPath = paths?.[index] ?? childPath(path, index);
    const step = expectRecord(value, stepPath, "a step object");
    const type = readString(step, "type", stepPath);
    switch (type) {
      case "user_input":
      case "model_output": {
        const blocks = contents(step.content, childPath(stepPath, "content"));
        builder.message(type === "user_input" ? "user" : "assistant", joinText(blocks), value, stepPath, blocks);
        return;
      }
      case "text":
      case "image":
      case "audio":
      case "document":
      case "video": {
        // `outputs` of early versions: bare content items are model output.
        const block = contentBlock(step, stepPath);
        builder.message("assistant", joinText([block]), value, stepPath, [block]);
        return;
      }
      case "thought": {
        const summary = Array.isArray(step.summary)
          ? step.summary.filter(isRecord).flatMap((part) => (typeof part.text === "string" ? [part.text] : []))
          : [];
        builder.reasoning(
          summary.join("\n\n"),
          value,
          stepPath,
          summary.length === 0 && typeof step.signature === "string",
        );
        return;
      }
      case "function_call": {
        const args =
          step.arguments === undefined || step.arguments === null
            ? {}
            : expectRecord(step.arguments, childPath(stepPath, "arguments"));
        builder.toolCall({
          callId: readString(step, "id", stepPath),
          name: readString(step, "name", stepPath),
          input: "json",
          argumentsText: stringifyJson(args),
          arguments: args,
          raw: value,
          path: stepPath,
        });
        return;
      }
      case "function_result":
        readFunctionResult(step, value, stepPath, builder);
        return;
      default:
        builder.issue(stepPath, `unmapped step type ${type} (runs at the provider)`, value);
    }
  });
}

function readFunctionResult(step: JsonRecord, raw: unknown, path: string, builder: TraceBuilder): void {
  const flag = readOptionalBoolean(step, "is_error", path);
  const result = step.result;
  let text: string;
  let content: ContentBlock[] | undefined;
  if (typeof result === "string") text = result;
  else if (Array.isArray(result)) {
    content = contents(result, childPath(path, "result"));
    text = resultText(content);
  } else text = stringifyJson(result ?? null);
  const input = { callId: readString(step, "call_id", path), text, raw, path };
  const name = readOptionalString(step, "name", path);
  const named = name === undefined ? input : { ...input, name };
  const flagged =
    flag === undefined
      ? { isError: hasErrorPrefix(text), errorSignal: "error-prefix" as const }
      : { isError: flag, errorSignal: "vendor-flag" as const };
  builder.toolResult(content === undefined ? { ...named, ...flagged } : { ...named, ...flagged, content });
}

function contents(value: unknown, path: string): ContentBlock[] {
  if (value === undefined || value === null) return [];
  return expectArray(value, path).map((item, index) => contentBlock(item, childPath(path, index)));
}

function contentBlock(value: unknown, path: string): ContentBlock {
  const item = expectRecord(value, path, "a content object");
  const type = readString(item, "type", path);
  if (type === "text")
    return withExtras(
      { type: "text", text: readString(item, "text", path) },
      item,
      ["type", "text"],
      "gemini-interactions",
    );
  if (!CONTENT_TYPES.has(type)) return { type: "unknown", raw: value, format: "gemini-interactions" };
  const mimeType = readOptionalString(item, "mime_type", path);
  const data = readOptionalString(item, "data", path);
  const uri = readOptionalString(item, "uri", path);
  const modelled = ["type", "data", "uri", "mime_type"];
  const fallbackMime = `${type === "document" ? "application" : type}/octet-stream`;
  if (data !== undefined)
    return withExtras(mediaBlock(mimeType ?? fallbackMime, data), item, modelled, "gemini-interactions");
  if (uri !== undefined) {
    const block: ContentBlock = {
      type: "media_ref",
      media:
        type === "image" || type === "audio" || type === "video" || type === "document" ? type : mediaKindOf(mimeType),
      url: uri,
    };
    if (mimeType !== undefined) block.mimeType = mimeType;
    return withExtras(block, item, modelled, "gemini-interactions");
  }
  return { type: "unknown", raw: value, format: "gemini-interactions" };
}
