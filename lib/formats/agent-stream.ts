// Agent-response stream adapter: {type, role, is_type_switched, content} chunks (array or JSONL) → CanonicalTrace.
import type { CanonicalTrace, ContentBlock } from "./canonical";
import { hasErrorPrefix, joinText, mcpContentBlock } from "./content-blocks";
import { FormatError } from "./format-error";
import {
  childPath,
  expectRecord,
  isRecord,
  parseJson,
  pickKey,
  readOptionalBoolean,
  stringifyJson,
  type JsonRecord,
} from "./json-fields";
import { TraceBuilder } from "./trace-builder";

const CHUNK_TYPES = ["output_text", "tool_call", "tool_call_result", "reasoning", "error"] as const;
type ChunkType = (typeof CHUNK_TYPES)[number];

// Where common runtimes put the pieces of a tool call / result inside `content`.
const CALL_ID_KEYS = ["id", "call_id", "tool_call_id", "tool_use_id"];
const RESULT_ID_KEYS = ["tool_call_id", "call_id", "tool_use_id", "id"];
const ARGUMENT_KEYS = ["arguments", "args", "input", "parameters"];
const OUTPUT_KEYS = ["content", "output", "result"];

type TextType = "output_text" | "reasoning" | "error";
type Chunk = { index: number; switched: boolean; raw: unknown; path: string };
type TextChunk = Chunk & { type: TextType; text: string };
type CallChunk = Chunk & { type: "tool_call"; id?: string; name?: string; namePath: string; args: unknown };
type ResultChunk = Chunk & {
  type: "tool_call_result";
  id?: string;
  name?: string;
  output: unknown;
  outputPath: string;
  errorFlag?: boolean;
};
type AnyChunk = TextChunk | CallChunk | ResultChunk;
// Consecutive chunks that make up one event; all share a type.
type Run = AnyChunk[];

export function parseAgentStream(input: unknown): CanonicalTrace {
  const builder = new TraceBuilder("agent-stream");
  const entries = Array.isArray(input) ? input : [input];
  const runs: Run[] = [];
  entries.forEach((entry, index) => appendChunk(runs, readChunk(entry, index)));
  for (const run of runs) emitRun(run, builder);
  return builder.finish();
}

function readChunk(entry: unknown, index: number): AnyChunk {
  const path = childPath("", index);
  const record = expectRecord(entry, path, "an agent response chunk object");
  const type = record.type;
  if (!isChunkType(type)) {
    throw new FormatError(
      childPath(path, "type"),
      `expected one of ${CHUNK_TYPES.join(", ")}, got ${JSON.stringify(type)}`,
    );
  }
  const base: Chunk = {
    index,
    switched: readOptionalBoolean(record, "is_type_switched", path) === true,
    raw: entry,
    path,
  };
  const contentPath = childPath(path, "content");
  if (type === "tool_call") return readCallChunk(base, record.content, contentPath);
  if (type === "tool_call_result") return readResultChunk(base, record.content, contentPath);
  if (typeof record.content !== "string") throw new FormatError(contentPath, "expected a string");
  return { ...base, type, text: record.content };
}

function isChunkType(value: unknown): value is ChunkType {
  return CHUNK_TYPES.some((type) => type === value);
}

function readOptionalStringAt(record: JsonRecord, keys: readonly string[], path: string): string | undefined {
  const key = pickKey(record, keys);
  if (key === undefined) return undefined;
  const value = record[key];
  if (typeof value !== "string") throw new FormatError(childPath(path, key), "expected a string");
  return value;
}

// Shapes seen in the wild: {id, function: {name, arguments}} (Ailoy, OpenAI), {id, name, arguments}, {call_id, name, args}.
function readCallChunk(base: Chunk, value: unknown, path: string): CallChunk {
  const content = expectRecord(value, path, "a tool call object");
  const fnPath = isRecord(content.function) ? childPath(path, "function") : path;
  const fn = isRecord(content.function) ? content.function : content;
  const argsKey = pickKey(fn, ARGUMENT_KEYS) ?? pickKey(content, ARGUMENT_KEYS);
  const args = argsKey === undefined ? undefined : (fn[argsKey] ?? content[argsKey]);
  const chunk: CallChunk = { ...base, type: "tool_call", namePath: childPath(fnPath, "name"), args };
  const id = readOptionalStringAt(content, CALL_ID_KEYS, path);
  const name = readOptionalStringAt(fn, ["name"], fnPath);
  if (id !== undefined) chunk.id = id;
  if (name !== undefined) chunk.name = name;
  return chunk;
}

// Shapes: Ailoy's ToolMessage {role: "tool", content: [{type: "text", text}], tool_call_id}, {id, output}, {call_id, result}.
function readResultChunk(base: Chunk, value: unknown, path: string): ResultChunk {
  const content = expectRecord(value, path, "a tool result object");
  const outputKey = pickKey(content, OUTPUT_KEYS);
  const chunk: ResultChunk = {
    ...base,
    type: "tool_call_result",
    output: outputKey === undefined ? "" : content[outputKey],
    outputPath: outputKey === undefined ? path : childPath(path, outputKey),
  };
  const id = readOptionalStringAt(content, RESULT_ID_KEYS, path);
  const name = readOptionalStringAt(content, ["name", "tool_name"], path);
  const errorKey = pickKey(content, ["is_error", "isError"]);
  if (id !== undefined) chunk.id = id;
  if (name !== undefined) chunk.name = name;
  if (errorKey !== undefined) chunk.errorFlag = readOptionalBoolean(content, errorKey, path) === true;
  return chunk;
}

/**
 * Merge rule: a chunk continues the current run when it has the same type and is_type_switched is not true.
 * Tool calls and results are complete dicts, so for them "continue" additionally requires a streamed delta:
 * no id or the same id, and string arguments/output to append. Anything else starts a new event.
 */
function appendChunk(runs: Run[], chunk: AnyChunk): void {
  const current = runs.at(-1);
  if (current !== undefined && !chunk.switched && continuesRun(current, chunk)) current.push(chunk);
  else runs.push([chunk]);
}

function continuesRun(run: Run, chunk: AnyChunk): boolean {
  const first = run[0];
  if (first === undefined || first.type !== chunk.type) return false;
  if (chunk.type === "tool_call" && first.type === "tool_call") {
    return isDelta(first, chunk, joinedArgs(run.filter(isCallChunk)), chunk.args);
  }
  if (chunk.type === "tool_call_result" && first.type === "tool_call_result") {
    return isDelta(first, chunk, joinedOutput(run.filter(isResultChunk)), chunk.output);
  }
  return true;
}

function isTextChunk(chunk: AnyChunk): chunk is TextChunk {
  return chunk.type === "output_text" || chunk.type === "reasoning" || chunk.type === "error";
}

function isCallChunk(chunk: AnyChunk): chunk is CallChunk {
  return chunk.type === "tool_call";
}

function isResultChunk(chunk: AnyChunk): chunk is ResultChunk {
  return chunk.type === "tool_call_result";
}

function isDelta(
  first: { id?: string; name?: string },
  next: { id?: string; name?: string },
  sofar: unknown,
  piece: unknown,
): boolean {
  const sameCall = next.id === undefined || next.id === first.id;
  const sameName = next.name === undefined || first.name === undefined || next.name === first.name;
  return sameCall && sameName && (sofar === undefined || typeof sofar === "string") && typeof piece === "string";
}

function joinedArgs(chunks: CallChunk[]): unknown {
  return chunks.length === 1
    ? chunks[0]?.args
    : chunks.map((chunk) => (typeof chunk.args === "string" ? chunk.args : "")).join("");
}

function joinedOutput(chunks: ResultChunk[]): unknown {
  return chunks.length === 1
    ? chunks[0]?.output
    : chunks.map((chunk) => (typeof chunk.output === "string" ? chunk.output : "")).join("");
}

// A merged event's path is a slice `[first:end]` over the chunk indexes and its raw is the array of chunks.
function runLocation(chunks: readonly Chunk[]): { path: string; raw: unknown } {
  const first = chunks[0];
  const last = chunks.at(-1);
  if (first === undefined || last === undefined) throw new Error("unreachable: empty run");
  if (chunks.length === 1) return { path: first.path, raw: first.raw };
  return { path: `[${first.index}:${last.index + 1}]`, raw: chunks.map((chunk) => chunk.raw) };
}

function emitRun(run: Run, builder: TraceBuilder): void {
  const first = run[0];
  if (first === undefined) return;
  const { path, raw } = runLocation(run);
  if (first.type === "tool_call") {
    const chunks = run.filter(isCallChunk);
    const name = chunks.find((chunk) => chunk.name !== undefined)?.name;
    if (name === undefined) throw new FormatError(first.namePath, "expected a string");
    builder.toolCall({ callId: first.id, name, ...callArguments(joinedArgs(chunks)), raw, path });
    return;
  }
  if (first.type === "tool_call_result") {
    const chunks = run.filter(isResultChunk);
    const { text, content } = resultText(joinedOutput(chunks), first.outputPath);
    const flagged = chunks.find((chunk) => chunk.errorFlag !== undefined)?.errorFlag;
    builder.toolResult({
      // No id (Ailoy local models emit none): the result pairs with the oldest unanswered call, by name if given.
      callId: first.id,
      name: first.name,
      text,
      isError: flagged ?? hasErrorPrefix(text),
      errorSignal: flagged === undefined ? "error-prefix" : "vendor-flag",
      content,
      raw,
      path,
    });
    return;
  }
  const text = run
    .filter(isTextChunk)
    .map((chunk) => chunk.text)
    .join("");
  if (first.type === "output_text") builder.message("assistant", text, raw, path);
  else if (first.type === "reasoning") builder.reasoning(text, raw, path);
  else builder.error("runtime", text, raw, path);
}

// Arguments arrive as a JSON string (OpenAI-style) or as an already-parsed object (Ailoy).
function callArguments(args: unknown): {
  input: "json";
  argumentsText: string;
  arguments?: unknown;
  argumentsError?: string;
} {
  if (args === undefined) return { input: "json", argumentsText: "{}", arguments: {} };
  if (typeof args !== "string") return { input: "json", argumentsText: stringifyJson(args), arguments: args };
  const parsed = parseJson(args);
  return parsed.ok
    ? { input: "json", argumentsText: args, arguments: parsed.value }
    : { input: "json", argumentsText: args, argumentsError: parsed.error };
}

function resultText(output: unknown, path: string): { text: string; content?: ContentBlock[] } {
  if (typeof output === "string") return { text: output };
  if (Array.isArray(output)) {
    const blocks = output.map((block, index) => mcpContentBlock(block, childPath(path, index)));
    return { text: joinText(blocks), content: blocks };
  }
  return { text: stringifyJson(output) };
}
