// Gemini generateContent adapter: a request {contents, tools?, systemInstruction?}, a contents array or a response {candidates} → CanonicalTrace.
import type { CanonicalTrace, ContentBlock, ToolDeclaration } from "./canonical";
import { mediaBlock, mediaKindOf, withExtras } from "./content-blocks";
import { FormatError } from "./format-error";
import { assembleGeminiChunks, isGeminiChunk } from "./gemini-stream";
import {
  childPath,
  expectArray,
  expectRecord,
  pickKey,
  readArray,
  readOptionalString,
  readString,
  stringifyJson,
  type JsonRecord,
} from "./json-fields";
import { TraceBuilder } from "./trace-builder";

// The REST API accepts both the proto JSON (camelCase) and the proto field names (snake_case).
const FUNCTION_CALL = ["functionCall", "function_call"];
const FUNCTION_RESPONSE = ["functionResponse", "function_response"];
const INLINE_DATA = ["inlineData", "inline_data"];
const FILE_DATA = ["fileData", "file_data"];
const SYSTEM_INSTRUCTION = ["systemInstruction", "system_instruction"];
const FUNCTION_DECLARATIONS = ["functionDeclarations", "function_declarations"];

export function parseGemini(input: unknown): CanonicalTrace {
  const builder = new TraceBuilder("gemini");
  if (Array.isArray(input) && input.some(isGeminiChunk)) {
    // A streamGenerateContent capture: the chunks' parts make one model content per response.
    const assembled = assembleGeminiChunks(input);
    for (const { item, path } of assembled.items) readContent(item, path, builder);
    for (const issue of assembled.issues) builder.issue(issue.path, issue.message, issue.raw);
    return builder.finish();
  }
  if (Array.isArray(input)) {
    input.forEach((content, index) => readContent(content, childPath("", index), builder));
    return builder.finish();
  }
  const body = expectRecord(input, "", "a generateContent request object or a contents array");
  const tools = body.tools;
  if (tools !== undefined && tools !== null) {
    expectArray(tools, "tools").forEach((tool, index) => readTool(tool, childPath("tools", index), builder));
  }
  const systemKey = pickKey(body, SYSTEM_INSTRUCTION);
  if (systemKey !== undefined) readSystemInstruction(body[systemKey], systemKey, builder);
  if (body.contents === undefined && body.candidates === undefined)
    throw new FormatError("contents", "expected an array, got undefined");
  const contents = body.contents === undefined ? [] : readArray(body, "contents", "");
  contents.forEach((content, index) => readContent(content, childPath("contents", index), builder));
  readCandidates(body, builder);
  return builder.finish();
}

// A response (or a logged request with its response) continues with the model's content. Candidates are
// alternatives, so only the first is the transcript's continuation.
function readCandidates(body: JsonRecord, builder: TraceBuilder): void {
  const candidates = body.candidates;
  if (candidates === undefined || candidates === null) return;
  const list = expectArray(candidates, "candidates");
  if (list.length === 0) return;
  const path = childPath("candidates", 0);
  const candidate = expectRecord(list[0], path, "a candidate object");
  readContent(candidate.content, childPath(path, "content"), builder);
  if (list.length > 1) builder.issue("candidates", `only the first of ${list.length} candidates is mapped`);
}

function readTool(value: unknown, path: string, builder: TraceBuilder): void {
  const tool = expectRecord(value, path, "a tool object");
  for (const key of Object.keys(tool)) {
    if (FUNCTION_DECLARATIONS.includes(key)) {
      const declarationsPath = childPath(path, key);
      expectArray(tool[key], declarationsPath).forEach((declaration, index) =>
        builder.declare(readDeclaration(declaration, childPath(declarationsPath, index))),
      );
    } else {
      // googleSearch, codeExecution, urlContext, … are built-in tools the provider runs.
      builder.issue(childPath(path, key), `unmapped built-in tool ${key}`, tool[key]);
    }
  }
}

function readDeclaration(value: unknown, path: string): ToolDeclaration {
  const fn = expectRecord(value, path, "a function declaration object");
  const declaration: ToolDeclaration = { name: readString(fn, "name", path), raw: value };
  const description = readOptionalString(fn, "description", path);
  if (description !== undefined) declaration.description = description;
  const inputKey = pickKey(fn, ["parameters", "parametersJsonSchema", "parameters_json_schema"]);
  if (inputKey !== undefined) declaration.inputSchema = fn[inputKey];
  const outputKey = pickKey(fn, ["response", "responseJsonSchema", "response_json_schema"]);
  if (outputKey !== undefined) declaration.outputSchema = fn[outputKey];
  return declaration;
}

function readSystemInstruction(value: unknown, path: string, builder: TraceBuilder): void {
  if (typeof value === "string") {
    builder.message("system", value, value, path);
    return;
  }
  const instruction = expectRecord(value, path, "a content object");
  const partsPath = childPath(path, "parts");
  readArray(instruction, "parts", path).forEach((part, index) => {
    const partPath = childPath(partsPath, index);
    builder.message("system", readString(expectRecord(part, partPath), "text", partPath), part, partPath);
  });
}

function readContent(value: unknown, path: string, builder: TraceBuilder): void {
  const content = expectRecord(value, path, "a content object");
  // role is optional for single-turn requests, where it means "user"; "function" is the pre-v1beta result role.
  const role = content.role ?? "user";
  if (role !== "user" && role !== "model" && role !== "function") {
    throw new FormatError(childPath(path, "role"), `expected "user" or "model", got ${JSON.stringify(role)}`);
  }
  const partsPath = childPath(path, "parts");
  readArray(content, "parts", path).forEach((part, index) =>
    readPart(part, childPath(partsPath, index), role === "model" ? "assistant" : "user", builder),
  );
  if (role === "model") builder.endModelTurn();
}

function readPart(value: unknown, path: string, role: "user" | "assistant", builder: TraceBuilder): void {
  const part = expectRecord(value, path, "a part object");
  const callKey = pickKey(part, FUNCTION_CALL);
  if (callKey !== undefined) {
    const callPath = childPath(path, callKey);
    const call = expectRecord(part[callKey], callPath);
    const args =
      call.args === undefined || call.args === null ? {} : expectRecord(call.args, childPath(callPath, "args"));
    builder.toolCall({
      // Gemini 3 assigns ids; older models do not, and the builder then assigns `${name}#${n}`.
      callId: readOptionalString(call, "id", callPath),
      name: readString(call, "name", callPath),
      input: "json",
      argumentsText: stringifyJson(args),
      arguments: args,
      raw: value,
      path,
    });
    return;
  }
  const responseKey = pickKey(part, FUNCTION_RESPONSE);
  if (responseKey !== undefined) {
    readFunctionResponse(part[responseKey], childPath(path, responseKey), value, path, builder);
    return;
  }
  if (typeof part.text === "string") {
    if (part.thought === true) builder.reasoning(part.text, value, path);
    else builder.message(role, part.text, value, path);
    return;
  }
  const media = readMedia(part, path);
  if (media !== undefined) {
    builder.message(role, "", value, path, [media]);
    return;
  }
  // executableCode / codeExecutionResult belong to the provider-run code-execution tool.
  builder.issue(path, `unmapped part with keys ${Object.keys(part).join(", ")}`, value);
}

function readFunctionResponse(
  value: unknown,
  responsePath: string,
  raw: unknown,
  path: string,
  builder: TraceBuilder,
): void {
  const fnResponse = expectRecord(value, responsePath);
  const response =
    fnResponse.response === undefined ? {} : expectRecord(fnResponse.response, childPath(responsePath, "response"));
  // Gemini has no error flag; its documented convention is a response object with an `error` key.
  const isError = response.error !== undefined && response.error !== null;
  const content = readResponseParts(fnResponse, responsePath);
  builder.toolResult({
    // Without an id the result pairs with the oldest unanswered call of the same name.
    callId: readOptionalString(fnResponse, "id", responsePath),
    name: readString(fnResponse, "name", responsePath),
    text: stringifyJson(response),
    isError,
    errorSignal: "error-key",
    content,
    raw,
    path,
  });
}

// Multimodal function responses (Gemini 3) carry inline media (or file references) in functionResponse.parts.
function readResponseParts(fnResponse: JsonRecord, path: string): ContentBlock[] | undefined {
  const parts = fnResponse.parts;
  if (parts === undefined || parts === null) return undefined;
  const partsPath = childPath(path, "parts");
  return expectArray(parts, partsPath).map((part, index): ContentBlock => {
    const partPath = childPath(partsPath, index);
    return readMedia(expectRecord(part, partPath), partPath) ?? { type: "unknown", raw: part, format: "gemini" };
  });
}

// inlineData (base64 bytes) or fileData (a File API or gs:// URI), in either spelling.
function readMedia(part: JsonRecord, path: string): ContentBlock | undefined {
  const inlineKey = pickKey(part, INLINE_DATA);
  if (inlineKey !== undefined) {
    const dataPath = childPath(path, inlineKey);
    const data = expectRecord(part[inlineKey], dataPath);
    const mimeKey = data.mime_type !== undefined ? "mime_type" : "mimeType";
    return withExtras(
      mediaBlock(readString(data, mimeKey, dataPath), readString(data, "data", dataPath)),
      data,
      ["mimeType", "mime_type", "data"],
      "gemini",
    );
  }
  const fileKey = pickKey(part, FILE_DATA);
  if (fileKey !== undefined) {
    const filePath = childPath(path, fileKey);
    const file = expectRecord(part[fileKey], filePath);
    const uriKey = file.file_uri !== undefined ? "file_uri" : "fileUri";
    const mimeKey = file.mime_type !== undefined ? "mime_type" : "mimeType";
    const mimeType = readOptionalString(file, mimeKey, filePath);
    const block: ContentBlock = {
      type: "media_ref",
      media: mediaKindOf(mimeType),
      url: readString(file, uriKey, filePath),
    };
    if (mimeType !== undefined) block.mimeType = mimeType;
    return withExtras(block, file, ["fileUri", "file_uri", "mimeType", "mime_type"], "gemini");
  }
  return undefined;
}
