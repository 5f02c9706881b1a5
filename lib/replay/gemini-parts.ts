// Canonical content blocks → Gemini parts: inline bytes as inlineData (images, audio, PDFs, text documents),
// URI references with a MIME type as fileData, Gemini's own parts as they were. Function responses take only
// inlineData and fileData parts; what has no such form goes as a text reference, listed in skipped.
import type { ContentBlock } from "../formats/canonical";
import { isRecord, type JsonRecord } from "../formats/json-fields";
import { extrasOf, referenceText, type BlockContext } from "./block-context";
import { textToBase64 } from "./content-reference";

type Part = { kind: "part"; part: JsonRecord } | { kind: "reference"; text: string };

function mediaPart(block: ContentBlock, part: number, context: BlockContext): Part {
  const extra = extrasOf(block, context);
  const reference = (why: string): Part => ({ kind: "reference", text: referenceText(block, part, context, why) });
  switch (block.type) {
    case "image":
    case "audio":
      return { kind: "part", part: { inlineData: { ...extra, mimeType: block.mimeType, data: block.data } } };
    case "document":
      return {
        kind: "part",
        part: {
          inlineData: { ...extra, mimeType: block.mimeType, data: block.data ?? textToBase64(block.text ?? "") },
        },
      };
    case "media_ref":
      if (block.url !== undefined && block.mimeType !== undefined)
        return { kind: "part", part: { fileData: { ...extra, fileUri: block.url, mimeType: block.mimeType } } };
      return reference(
        block.url === undefined ? "a provider file id has no Gemini form" : "a file URI without a MIME type",
      );
    case "resource":
      if (block.resource.blob !== undefined && block.resource.mimeType !== undefined) {
        return { kind: "part", part: { inlineData: { mimeType: block.resource.mimeType, data: block.resource.blob } } };
      }
      return reference("no embedded resource part");
    case "unknown":
      return block.format === "gemini" && isRecord(block.raw)
        ? { kind: "part", part: block.raw }
        : reference("no Gemini form");
    case "resource_link":
      return reference("no resource link part");
    case "text":
      return { kind: "reference", text: block.text };
  }
}

/** Message parts: text parts and media parts, references as text parts. */
export function geminiParts(blocks: readonly ContentBlock[], context: BlockContext): JsonRecord[] {
  return blocks.map((block, part): JsonRecord => {
    if (block.type === "text") return { ...extrasOf(block, context), text: block.text };
    const out = mediaPart(block, part, context);
    return out.kind === "part" ? out.part : { text: out.text };
  });
}

/** functionResponse.parts (inlineData / fileData) and the references that go into the response object instead. */
export function functionResponseParts(
  blocks: readonly ContentBlock[],
  context: BlockContext,
): { parts: JsonRecord[]; references: string[] } {
  const parts: JsonRecord[] = [];
  const references: string[] = [];
  blocks.forEach((block, part) => {
    if (block.type === "text") return; // text is the response object itself
    const out = mediaPart(block, part, context);
    if (out.kind === "part" && (out.part.inlineData !== undefined || out.part.fileData !== undefined))
      parts.push(out.part);
    else if (out.kind === "part")
      references.push(referenceText(block, part, context, "only inlineData and fileData parts are allowed"));
    else references.push(out.text);
  });
  return { parts, references };
}
