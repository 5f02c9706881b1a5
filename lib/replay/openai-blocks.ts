// Canonical content blocks → OpenAI content parts. Chat Completions: user messages take text, image_url (data URL or
// URL), input_audio (wav/mp3) and file (data URL or file id); system, assistant and tool messages take text only.
// Responses: input_text, input_image and input_file in input messages and in function_call_output. Everything
// else goes as a text reference, listed in skipped.
import type { ContentBlock } from "../formats/canonical";
import { isRecord, type JsonRecord } from "../formats/json-fields";
import { extrasOf, referenceText, type BlockContext } from "./block-context";

const AUDIO_FORMATS: Record<string, string> = {
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/wave": "wav",
  "audio/mpeg": "mp3",
  "audio/mp3": "mp3",
};

function dataUrl(mimeType: string, data: string): string {
  return `data:${mimeType};base64,${data}`;
}

function fileName(block: ContentBlock): string {
  if (block.type === "document" && block.title !== undefined) return block.title;
  if (block.type === "resource") return block.resource.uri.split("/").at(-1) || "resource";
  return "document";
}

/** `rich`: a Chat user message (media allowed); otherwise text parts only (system, assistant, tool messages). */
export function chatParts(blocks: readonly ContentBlock[], context: BlockContext, rich: boolean): JsonRecord[] {
  return blocks.map((block, part): JsonRecord => {
    const extra = extrasOf(block, context);
    const reference = (why: string): JsonRecord => ({ type: "text", text: referenceText(block, part, context, why) });
    if (block.type === "text") return { ...extra, type: "text", text: block.text };
    if (block.type === "unknown")
      return block.format === "openai-chat" && isRecord(block.raw) ? block.raw : reference("no Chat Completions form");
    if (!rich) return reference("only text parts are allowed");
    switch (block.type) {
      case "image":
        return { type: "image_url", image_url: { ...extra, url: dataUrl(block.mimeType, block.data) } };
      case "audio": {
        const format = AUDIO_FORMATS[block.mimeType];
        return format === undefined
          ? reference(`${block.mimeType} audio (only wav and mp3)`)
          : { type: "input_audio", input_audio: { data: block.data, format } };
      }
      case "document":
        if (block.data === undefined) return reference("no text document part");
        return {
          type: "file",
          file: { ...extra, file_data: dataUrl(block.mimeType, block.data), filename: fileName(block) },
        };
      case "media_ref":
        if (block.media === "image" && block.url !== undefined)
          return { type: "image_url", image_url: { ...extra, url: block.url } };
        if ((block.media === "document" || block.media === "file") && block.fileId !== undefined)
          return { type: "file", file: { ...extra, file_id: block.fileId } };
        return reference(`no ${block.media} ${block.url !== undefined ? "URL" : "file id"} part`);
      case "resource":
        if (block.resource.blob !== undefined && block.resource.mimeType === "application/pdf") {
          return {
            type: "file",
            file: { file_data: dataUrl("application/pdf", block.resource.blob), filename: fileName(block) },
          };
        }
        return reference("no embedded resource part");
      case "resource_link":
        return reference("no resource link part");
    }
  });
}

/** Responses input content (messages and function_call_output): input_text, input_image, input_file. */
export function responsesParts(
  blocks: readonly ContentBlock[],
  context: BlockContext,
  inMessage: boolean,
): JsonRecord[] {
  return blocks.map((block, part): JsonRecord => {
    const extra = extrasOf(block, context);
    const reference = (why: string): JsonRecord => ({
      type: "input_text",
      text: referenceText(block, part, context, why),
    });
    // input_image requires `detail` in messages (optional in outputs): the source's, else "auto".
    const image = (source: JsonRecord): JsonRecord => ({
      ...(inMessage ? { detail: "auto" } : {}),
      ...extra,
      type: "input_image",
      ...source,
    });
    switch (block.type) {
      case "text":
        return { ...extra, type: "input_text", text: block.text };
      case "image":
        return image({ image_url: dataUrl(block.mimeType, block.data) });
      case "document":
        if (block.data === undefined) return reference("no text document part");
        return {
          ...extra,
          type: "input_file",
          file_data: dataUrl(block.mimeType, block.data),
          filename: fileName(block),
        };
      case "media_ref":
        if (block.media === "image")
          return image(block.url !== undefined ? { image_url: block.url } : { file_id: block.fileId });
        if (block.media === "document" || block.media === "file")
          return {
            ...extra,
            type: "input_file",
            ...(block.url !== undefined ? { file_url: block.url } : { file_id: block.fileId }),
          };
        return reference(`no ${block.media} part`);
      case "resource":
        if (block.resource.blob !== undefined && block.resource.mimeType === "application/pdf") {
          return {
            type: "input_file",
            file_data: dataUrl("application/pdf", block.resource.blob),
            filename: fileName(block),
          };
        }
        return reference("no embedded resource part");
      case "unknown":
        return block.format === "openai-responses" && isRecord(block.raw) ? block.raw : reference("no Responses form");
      case "audio":
        return reference("no audio input part");
      case "resource_link":
        return reference("no resource link part");
    }
  });
}

/** Assistant messages in Responses input: output_text parts (annotations kept from a Responses source). */
export function responsesAssistantParts(blocks: readonly ContentBlock[], context: BlockContext): JsonRecord[] {
  return blocks.map((block, part): JsonRecord => {
    if (block.type === "text")
      return { annotations: [], ...extrasOf(block, context), type: "output_text", text: block.text };
    return {
      type: "output_text",
      annotations: [],
      text: referenceText(block, part, context, "only text parts are allowed"),
    };
  });
}
