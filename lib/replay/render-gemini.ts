// Renders a history cut as a Gemini generateContent request body: {systemInstruction?, contents, tools?}.
import type { ToolCallEvent, ToolDeclaration, ToolResultEvent } from "../formats/canonical";
import { isRecord, parseJson, type JsonRecord } from "../formats/json-fields";
import type { BlockContext } from "./block-context";
import { functionResponseParts, geminiParts } from "./gemini-parts";
import { isGeminiSchema } from "./tool-schema";
import {
  blocksToSend,
  objectArguments,
  PLACEHOLDER_USER_TEXT,
  type Adjustment,
  type PreparedHistory,
  type RenderOptions,
  type SkippedEvent,
} from "./history";

type Content = { role: "user" | "model"; responses: JsonRecord[]; parts: JsonRecord[] };

export type RenderedGemini = { request: JsonRecord; skipped: SkippedEvent[]; adjustments: Adjustment[] };

// Parts carry a thought signature in either spelling (the REST API accepts the proto JSON and the field names).
function signatureOf(raw: unknown): string | undefined {
  if (!isRecord(raw)) return undefined;
  const signature = raw.thoughtSignature ?? raw.thought_signature;
  return typeof signature === "string" ? signature : undefined;
}

function withSignature(part: JsonRecord, raw: unknown): JsonRecord {
  const signature = signatureOf(raw);
  if (signature !== undefined) part.thoughtSignature = signature;
  return part;
}

/**
 * Pairing rules kept here: functionResponse parts sit in the user content right after the model content holding
 * their functionCall parts, ahead of other parts, named like the call and carrying its id — except synthetic ids
 * (`name#n`), which were never the model's and are omitted so Gemini pairs by position as it did originally.
 * thoughtSignature values found on the source parts (either spelling) are passed back, as thinking models require.
 * Gemini rejects a function call turn that does not follow a user turn: a history starting with a model turn gets a
 * placeholder user turn first (reported in adjustments).
 */
export function renderGemini(
  history: PreparedHistory,
  declarations: readonly ToolDeclaration[],
  options: RenderOptions = {},
): RenderedGemini {
  const skipped: SkippedEvent[] = [...history.skipped];
  const adjustments: Adjustment[] = [...history.adjustments];
  const system: JsonRecord[] = [];
  const contents: Content[] = [];
  const callContent = new Map<ToolCallEvent, Content>();
  const context = (index: number, where: string): BlockContext => ({
    index,
    where,
    skipped,
    target: "gemini",
    sourceFormat: options.sourceFormat ?? null,
  });

  const current = (role: "user" | "model"): Content => {
    const last = contents.at(-1);
    if (last?.role === role) return last;
    const created: Content = { role, responses: [], parts: [] };
    contents.push(created);
    return created;
  };

  for (const item of history.items) {
    const { event, index } = item;
    switch (event.kind) {
      case "message": {
        if (event.role === "system") {
          system.push({ text: event.text });
          break;
        }
        const role = event.role === "assistant" ? "model" : "user";
        const send = blocksToSend(event.content, options.sourceFormat === "gemini");
        const parts =
          send !== undefined
            ? geminiParts(send, context(index, `a Gemini ${role} turn`))
            : textParts(event.text, event.raw);
        if (parts.length === 0) {
          skipped.push({ index, reason: "message with no content Gemini accepts" });
          break;
        }
        current(role).parts.push(...parts);
        break;
      }
      case "reasoning":
        if (isRecord(event.raw) && event.raw.thought === true && typeof event.raw.text === "string")
          current("model").parts.push(withSignature({ text: event.raw.text, thought: true }, event.raw));
        else skipped.push({ index, reason: "reasoning that is not a Gemini thought part cannot be replayed" });
        break;
      case "tool_call": {
        const content = current("model");
        const call: JsonRecord = { name: event.name, args: objectArguments(event) };
        if (!event.syntheticId) call.id = event.callId;
        content.parts.push(withSignature({ functionCall: call }, event.raw));
        callContent.set(event, content);
        break;
      }
      case "tool_result": {
        const callAt = item.call === undefined ? undefined : callContent.get(item.call);
        if (item.call === undefined || callAt === undefined) break;
        turnAfter(contents, callAt).responses.push({
          functionResponse: functionResponse(event, item.call, context(index, "a Gemini functionResponse")),
        });
        break;
      }
    }
  }

  if (contents[0]?.role === "model") {
    contents.unshift({ role: "user", responses: [], parts: [{ text: PLACEHOLDER_USER_TEXT }] });
    adjustments.push({
      index: null,
      change:
        "the history starts with a model turn, which Gemini rejects (a function call turn must follow a user turn): a placeholder user turn was put first",
    });
  }

  const request: JsonRecord = {};
  if (system.length > 0) request.systemInstruction = { parts: system };
  request.contents = contents.map((content) => ({
    role: content.role,
    parts: [...content.responses, ...content.parts],
  }));
  if (declarations.length > 0) {
    const same = options.sourceFormat === "gemini";
    request.tools = [
      {
        functionDeclarations: declarations.map((declaration) =>
          same && isRecord(declaration.raw) && typeof declaration.raw.name === "string"
            ? declaration.raw
            : functionDeclaration(declaration),
        ),
      },
    ];
  }
  return { request, skipped, adjustments };
}

// The user turn right after the model turn holding the call (created when the history ends with that call).
function turnAfter(contents: Content[], callAt: Content): Content {
  const position = contents.indexOf(callAt);
  const next = contents[position + 1];
  if (next !== undefined) return next;
  const created: Content = { role: "user", responses: [], parts: [] };
  contents.push(created);
  return created;
}

// Named like the call, with its id unless synthetic; media the response object cannot hold go as parts.
function functionResponse(event: ToolResultEvent, call: ToolCallEvent, context: BlockContext): JsonRecord {
  const media =
    event.content === undefined ? { parts: [], references: [] } : functionResponseParts(event.content, context);
  const response: JsonRecord = { name: call.name, response: responseObject(event, media.references) };
  if (!call.syntheticId) response.id = event.callId;
  if (media.parts.length > 0) response.parts = media.parts;
  return response;
}

function textParts(text: string, raw: unknown): JsonRecord[] {
  // An empty text part only matters when it carries a thought signature (Gemini 3 puts them there).
  const part = withSignature({ text }, raw);
  return text === "" && part.thoughtSignature === undefined ? [] : [part];
}

/**
 * functionResponse.response must be an object: JSON-object text is used as is (numbers keep their digits), other
 * text is wrapped as {output} / {error}. Content with no part form is listed under `references`.
 */
function responseObject(result: ToolResultEvent, references: string[]): JsonRecord {
  const parsed = parseJson(result.text);
  const object = parsed.ok && isRecord(parsed.value) ? parsed.value : undefined;
  let response: JsonRecord;
  if (!result.isError) response = object ?? { output: result.text };
  // Gemini's convention for failures is an `error` key.
  else if (object !== undefined && object.error !== undefined) response = object;
  else response = { error: object ?? result.text };
  return references.length > 0 ? { ...response, references } : response;
}

// Gemini's own `parameters` use its OpenAPI-subset Schema (upper-case types); any other JSON Schema goes as parametersJsonSchema.
function functionDeclaration(declaration: ToolDeclaration): JsonRecord {
  const fn: JsonRecord = { name: declaration.name };
  if (declaration.description !== undefined) fn.description = declaration.description;
  const schema = declaration.inputSchema;
  if (isGeminiSchema(schema)) fn.parameters = schema;
  else if (schema !== undefined) fn.parametersJsonSchema = schema;
  return fn;
}
