// Renders a history cut as a Gemini generateContent request body: {systemInstruction?, contents, tools?}.
import type { ContentBlock, ToolDeclaration, ToolResultEvent } from "../formats/canonical";
import { isRecord, parseJson, type JsonRecord } from "../formats/json-fields";
import { objectArguments, type PreparedHistory, type SkippedEvent } from "./history";

type Content = { role: "user" | "model"; responses: JsonRecord[]; parts: JsonRecord[] };

export type RenderedGemini = { request: JsonRecord; skipped: SkippedEvent[] };

/**
 * Pairing rules kept here: functionResponse parts sit in the user content right after the model content holding
 * their functionCall parts, ahead of other parts, named like the call and carrying its id — except synthetic ids
 * (`name#n`), which were never the model's and are omitted so Gemini pairs by position as it did originally.
 * thoughtSignature values found on the source parts are passed back, as thinking models require.
 */
export function renderGemini(history: PreparedHistory, declarations: readonly ToolDeclaration[]): RenderedGemini {
  const skipped: SkippedEvent[] = [...history.skipped];
  const system: JsonRecord[] = [];
  const contents: Content[] = [];
  const callContent = new Map<string, number>();

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
        const parts = messageParts(event.text, event.content, event.raw);
        if (parts.length === 0) {
          skipped.push({ index, reason: "message with no content Gemini accepts" });
          break;
        }
        current(event.role === "assistant" ? "model" : "user").parts.push(...parts);
        break;
      }
      case "reasoning":
        if (isRecord(event.raw) && event.raw.thought === true) current("model").parts.push(event.raw);
        else skipped.push({ index, reason: "reasoning that is not a Gemini thought part cannot be replayed" });
        break;
      case "tool_call": {
        const content = current("model");
        const call: JsonRecord = { name: event.name, args: objectArguments(event) };
        if (!event.syntheticId) call.id = event.callId;
        content.parts.push(withSignature({ functionCall: call }, event.raw));
        // current() always returns the last content.
        callContent.set(event.callId, contents.length - 1);
        break;
      }
      case "tool_result": {
        const callIndex = callContent.get(event.callId);
        const call = item.call;
        if (callIndex === undefined || call === undefined) break;
        let target = contents[callIndex + 1];
        if (target === undefined) {
          target = { role: "user", responses: [], parts: [] };
          contents.push(target);
        }
        const response: JsonRecord = { name: call.name, response: responseObject(event) };
        if (!call.syntheticId) response.id = event.callId;
        target.responses.push({ functionResponse: response });
        break;
      }
    }
  }

  const request: JsonRecord = {};
  if (system.length > 0) request.systemInstruction = { parts: system };
  request.contents = contents.map((content) => ({ role: content.role, parts: [...content.responses, ...content.parts] }));
  if (declarations.length > 0) {
    request.tools = [{ functionDeclarations: declarations.map(functionDeclaration) }];
  }
  return { request, skipped };
}

function messageParts(text: string, content: ContentBlock[] | undefined, raw: unknown): JsonRecord[] {
  if (content === undefined) {
    // An empty text part only matters when it carries a thought signature (Gemini 3 puts them there).
    const part = withSignature({ text }, raw);
    return text === "" && part.thoughtSignature === undefined ? [] : [part];
  }
  return content.flatMap((block): JsonRecord[] => {
    if (block.type === "text") return [{ text: block.text }];
    if (block.type === "image" || block.type === "audio") return [{ inlineData: { mimeType: block.mimeType, data: block.data } }];
    return [];
  });
}

function withSignature(part: JsonRecord, raw: unknown): JsonRecord {
  if (isRecord(raw) && typeof raw.thoughtSignature === "string") part.thoughtSignature = raw.thoughtSignature;
  return part;
}

// functionResponse.response must be an object: JSON-object text is used as is, other text is wrapped.
function responseObject(result: ToolResultEvent): JsonRecord {
  const parsed = parseJson(result.text);
  const object = parsed.ok && isRecord(parsed.value) ? parsed.value : undefined;
  if (!result.isError) return object ?? { output: result.text };
  // Gemini's convention for failures is an `error` key.
  if (object !== undefined && object.error !== undefined) return object;
  return { error: object ?? result.text };
}

// Gemini's own `parameters` use its OpenAPI-subset Schema (upper-case types); any other JSON Schema goes as parametersJsonSchema.
function functionDeclaration(declaration: ToolDeclaration): JsonRecord {
  const fn: JsonRecord = { name: declaration.name };
  if (declaration.description !== undefined) fn.description = declaration.description;
  const schema = declaration.inputSchema;
  if (isRecord(schema) && typeof schema.type === "string" && schema.type === schema.type.toUpperCase()) fn.parameters = schema;
  else if (schema !== undefined) fn.parametersJsonSchema = schema;
  return fn;
}
