// Gemini: POST {baseUrl}/models/{model}:streamGenerateContent?alt=sse; every event is a GenerateContentResponse
// holding the next parts, folded back into one response.
import { isRecord, type JsonRecord } from "../formats/json-fields.ts";
import { joinUrl, parseEventData, ProviderError, type ApiAdapter, type StreamAccumulator } from "./api-adapter.ts";
import type { LiveOutput } from "./schemas.ts";
import { geminiUsage } from "./usage.ts";

function isTextPart(part: JsonRecord): boolean {
  return (
    typeof part.text === "string" &&
    Object.keys(part).every((key) => key === "text" || key === "thought" || key === "thoughtSignature")
  );
}

/**
 * Consecutive text pieces of the same kind (thought or not) are one part split by the stream; a piece that
 * carries a thoughtSignature closes its part, since the signature belongs to exactly that part.
 */
function mergePart(parts: JsonRecord[], part: JsonRecord): void {
  const last = parts.at(-1);
  if (
    last !== undefined &&
    isTextPart(last) &&
    isTextPart(part) &&
    last.thoughtSignature === undefined &&
    (last.thought === true) === (part.thought === true)
  ) {
    last.text = `${String(last.text)}${String(part.text)}`;
    if (part.thoughtSignature !== undefined) last.thoughtSignature = part.thoughtSignature;
    return;
  }
  parts.push({ ...part });
}

function accumulator(): StreamAccumulator {
  let seen = false;
  const parts: JsonRecord[] = [];
  let finishReason: string | null = null;
  let usageMetadata: unknown = null;
  let meta: JsonRecord = {};
  let promptFeedback: unknown = undefined;
  let candidateExtras: JsonRecord = {};

  const live = (): LiveOutput => {
    let text = "";
    let reasoning = "";
    const calls: LiveOutput["calls"] = [];
    for (const part of parts) {
      if (typeof part.text === "string") {
        if (part.thought === true) reasoning += part.text;
        else text += part.text;
      }
      if (isRecord(part.functionCall)) {
        const call = part.functionCall;
        calls.push({
          id: typeof call.id === "string" ? call.id : null,
          name: typeof call.name === "string" ? call.name : "",
          arguments: JSON.stringify(call.args ?? {}),
        });
      }
    }
    return { text, reasoning, calls };
  };

  return {
    accept(event) {
      const chunk = parseEventData(event);
      if (chunk.error !== undefined) throw new ProviderError(event.data);
      seen = true;
      if (chunk.usageMetadata !== undefined) usageMetadata = chunk.usageMetadata;
      if (chunk.promptFeedback !== undefined) promptFeedback = chunk.promptFeedback;
      if (typeof chunk.modelVersion === "string") meta = { ...meta, modelVersion: chunk.modelVersion };
      if (typeof chunk.responseId === "string") meta = { ...meta, responseId: chunk.responseId };
      const candidate = Array.isArray(chunk.candidates) && isRecord(chunk.candidates[0]) ? chunk.candidates[0] : null;
      if (candidate === null) return;
      if (typeof candidate.finishReason === "string") finishReason = candidate.finishReason;
      const { content: _content, finishReason: _finish, index: _index, ...extras } = candidate;
      candidateExtras = { ...candidateExtras, ...extras };
      const content = isRecord(candidate.content) ? candidate.content : null;
      if (content !== null && Array.isArray(content.parts))
        for (const part of content.parts) if (isRecord(part)) mergePart(parts, part);
    },
    live,
    finish() {
      if (!seen) throw new ProviderError("The stream ended before any answer arrived");
      const blocked =
        isRecord(promptFeedback) && typeof promptFeedback.blockReason === "string" ? promptFeedback.blockReason : null;
      const candidates =
        parts.length === 0 && finishReason === null
          ? []
          : [{ ...candidateExtras, content: { role: "model", parts }, finishReason, index: 0 }];
      const response: JsonRecord = { candidates, ...meta };
      if (usageMetadata !== null) response.usageMetadata = usageMetadata;
      if (promptFeedback !== undefined) response.promptFeedback = promptFeedback;
      return {
        response,
        usage: geminiUsage(usageMetadata),
        stopReason: blocked === null ? finishReason : `blocked: ${blocked}`,
        live: live(),
      };
    },
  };
}

/** `gemini-2.5-flash` → models/gemini-2.5-flash; a full `models/…` or `tunedModels/…` name is kept. */
function modelPath(model: string): string {
  const name = model.includes("/") ? model : `models/${model}`;
  return name.split("/").map(encodeURIComponent).join("/");
}

export const geminiAdapter: ApiAdapter = {
  api: "gemini",
  request(target, history) {
    const body: JsonRecord = { ...history };
    if (target.maxTokens !== undefined)
      body.generationConfig = {
        ...(isRecord(body.generationConfig) ? body.generationConfig : {}),
        maxOutputTokens: target.maxTokens,
      };
    return {
      url: joinUrl(target.baseUrl, `${modelPath(target.model)}:streamGenerateContent?alt=sse`),
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body,
    };
  },
  // In a header, not the query string: URLs end up in proxy and server logs.
  authHeaders: (key) => ({ "x-goog-api-key": key }),
  accumulator,
};
