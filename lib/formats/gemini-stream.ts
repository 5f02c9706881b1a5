// Gemini streamGenerateContent captures (GenerateContentResponse chunks, as a JSON array, JSONL or SSE) assembled
// into the model contents the non-streaming API would have returned: text of consecutive chunks joined per part
// kind (thought or answer), function calls (sent whole) kept as parts, thought signatures kept on their part.
import type { AssembledItem, Assembled } from "./stream-assembly";
import { childPath, isRecord, type JsonRecord } from "./json-fields";
import { FormatError } from "./format-error";

/** A streamed chunk: candidates with content or a finish reason, or the usage-only last chunk of a stream. */
export function isGeminiChunk(value: unknown): boolean {
  if (!isRecord(value)) return false;
  if (Array.isArray(value.candidates))
    return value.candidates.some(
      (candidate) => isRecord(candidate) && (isRecord(candidate.content) || typeof candidate.finishReason === "string"),
    );
  return (
    isRecord(value.usageMetadata) && (typeof value.responseId === "string" || typeof value.modelVersion === "string")
  );
}

function span(first: number, last: number): string {
  return first === last ? `[${first}]` : `[${first}:${last}]`;
}

type Current = { responseId: unknown; parts: JsonRecord[]; first: number; last: number; finished: boolean };

function appendPart(parts: JsonRecord[], part: JsonRecord): void {
  const last = parts.at(-1);
  const joinable =
    last !== undefined &&
    typeof last.text === "string" &&
    typeof part.text === "string" &&
    (last.thought === true) === (part.thought === true) &&
    Object.keys(part).every((key) => ["text", "thought", "thoughtSignature", "thought_signature"].includes(key));
  if (!joinable) {
    parts.push({ ...part });
    return;
  }
  last.text = `${String(last.text)}${String(part.text)}`;
  // The signature arrives on the last chunk of a thought (or on an empty text part): keep it on the joined part.
  for (const key of ["thoughtSignature", "thought_signature"]) if (part[key] !== undefined) last[key] = part[key];
}

/** Chunks → one model content per response (a new responseId starts the next one); choice 0 only. */
export function assembleGeminiChunks(chunks: readonly unknown[]): Assembled {
  const items: AssembledItem[] = [];
  const issues: Assembled["issues"] = [];
  let current: Current | undefined;
  const close = () => {
    if (current === undefined) return;
    const parts = current.parts.filter((part) => part.text !== "" || part.thoughtSignature !== undefined);
    if (parts.length > 0) items.push({ item: { role: "model", parts }, path: span(current.first, current.last) });
    if (!current.finished)
      issues.push({
        path: span(current.first, current.last),
        message: "the stream was cut: no chunk carried a finishReason, so the answer may be incomplete",
      });
    current = undefined;
  };
  chunks.forEach((value, index) => {
    if (!isRecord(value)) throw new FormatError(childPath("", index), "expected a GenerateContentResponse chunk");
    if (isRecord(value.error)) {
      issues.push({ path: childPath("", index), message: `the stream ended with an error`, raw: value });
      return;
    }
    if (current === undefined || (value.responseId !== undefined && value.responseId !== current.responseId)) {
      close();
      current = { responseId: value.responseId, parts: [], first: index, last: index, finished: false };
    }
    current.last = index;
    const candidates = Array.isArray(value.candidates) ? value.candidates : [];
    candidates.forEach((candidate, at) => {
      if (!isRecord(candidate)) return;
      if ((candidate.index ?? 0) !== 0 || at > 0) {
        issues.push({ path: childPath(childPath("", index), "candidates"), message: "only candidate 0 is mapped" });
        return;
      }
      if (typeof candidate.finishReason === "string" && current !== undefined) current.finished = true;
      const parts =
        isRecord(candidate.content) && Array.isArray(candidate.content.parts) ? candidate.content.parts : [];
      for (const part of parts) if (isRecord(part) && current !== undefined) appendPart(current.parts, part);
    });
  });
  close();
  return { items, issues };
}
