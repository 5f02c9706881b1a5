// OpenAI content parts (Chat Completions and Responses) → canonical blocks: text, images (data URL, URL or file
// id), audio, files (data URL, URL or file id). Vendor options such as `detail` stay as extras of the block.
import type { ContentBlock, FormatName } from "./canonical";
import { parseDataUrl, withExtras } from "./content-blocks";
import { childPath, expectRecord, readOptionalString, readString, type JsonRecord } from "./json-fields";

function image(
  url: string | undefined,
  fileId: string | undefined,
  part: JsonRecord,
  modelled: string[],
  format: FormatName,
): ContentBlock {
  const inline = url === undefined ? undefined : parseDataUrl(url);
  if (inline !== undefined)
    return withExtras({ type: "image", data: inline.data, mimeType: inline.mimeType }, part, modelled, format);
  if (url !== undefined) return withExtras({ type: "media_ref", media: "image", url }, part, modelled, format);
  if (fileId !== undefined) return withExtras({ type: "media_ref", media: "image", fileId }, part, modelled, format);
  return { type: "unknown", raw: part, format };
}

// file_data is a data URL in practice; bare base64 is accepted by the API too and has no MIME type.
function file(
  data: string | undefined,
  url: string | undefined,
  fileId: string | undefined,
  name: string | undefined,
  part: JsonRecord,
  modelled: string[],
  format: FormatName,
): ContentBlock {
  let block: ContentBlock;
  if (data !== undefined) {
    const inline = parseDataUrl(data);
    block =
      inline === undefined
        ? { type: "document", data, mimeType: "application/octet-stream" }
        : { type: "document", data: inline.data, mimeType: inline.mimeType };
  } else if (url !== undefined) {
    block = { type: "media_ref", media: "document", url };
  } else if (fileId !== undefined) {
    block = { type: "media_ref", media: "file", fileId };
  } else {
    return { type: "unknown", raw: part, format };
  }
  if (name !== undefined) block.title = name;
  return withExtras(block, part, modelled, format);
}

export function chatPart(value: unknown, path: string): ContentBlock {
  const part = expectRecord(value, path, "a content part object");
  switch (part.type) {
    case "text":
      return withExtras({ type: "text", text: readString(part, "text", path) }, part, ["type", "text"], "openai-chat");
    case "refusal":
      return { type: "text", text: readString(part, "refusal", path) };
    case "image_url": {
      const imagePath = childPath(path, "image_url");
      const imageUrl = expectRecord(part.image_url, imagePath);
      // detail lives inside image_url: keep it as an extra of the block.
      const block = image(readString(imageUrl, "url", imagePath), undefined, imageUrl, ["url"], "openai-chat");
      return block;
    }
    case "input_audio": {
      const audioPath = childPath(path, "input_audio");
      const audio = expectRecord(part.input_audio, audioPath);
      return {
        type: "audio",
        data: readString(audio, "data", audioPath),
        mimeType: `audio/${readString(audio, "format", audioPath)}`,
      };
    }
    case "file": {
      const filePath = childPath(path, "file");
      const body = expectRecord(part.file, filePath);
      return file(
        readOptionalString(body, "file_data", filePath),
        undefined,
        readOptionalString(body, "file_id", filePath),
        readOptionalString(body, "filename", filePath),
        body,
        ["file_data", "file_id", "filename"],
        "openai-chat",
      );
    }
    default:
      return { type: "unknown", raw: value, format: "openai-chat" };
  }
}

export function responsesPart(value: unknown, path: string): ContentBlock {
  const part = expectRecord(value, path, "a content part object");
  switch (part.type) {
    case "input_text":
    case "output_text":
    case "text":
      return withExtras(
        { type: "text", text: readString(part, "text", path) },
        part,
        ["type", "text"],
        "openai-responses",
      );
    case "refusal":
      return { type: "text", text: readString(part, "refusal", path) };
    case "input_image":
      return image(
        readOptionalString(part, "image_url", path),
        readOptionalString(part, "file_id", path),
        part,
        ["type", "image_url", "file_id"],
        "openai-responses",
      );
    case "input_file":
      return file(
        readOptionalString(part, "file_data", path),
        readOptionalString(part, "file_url", path),
        readOptionalString(part, "file_id", path),
        readOptionalString(part, "filename", path),
        part,
        ["type", "file_data", "file_url", "file_id", "filename"],
        "openai-responses",
      );
    case "input_audio": {
      const audioPath = childPath(path, "input_audio");
      const audio = expectRecord(part.input_audio, audioPath);
      return {
        type: "audio",
        data: readString(audio, "data", audioPath),
        mimeType: `audio/${readString(audio, "format", audioPath)}`,
      };
    }
    default:
      return { type: "unknown", raw: value, format: "openai-responses" };
  }
}
