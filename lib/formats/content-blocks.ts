// Content-block helpers shared by adapters: MCP block mapping (the canonical block vocabulary), data URLs, text joins.
import type { ContentBlock, FormatName } from "./canonical";
import { expectRecord, isRecord, readOptionalString, readString } from "./json-fields";

/**
 * Keeps the vendor fields of `raw` that the canonical block does not model (cache_control, citations, detail,
 * annotations…) on the block, tagged with their format, so a replay into the same format can put them back.
 */
export function withExtras<T extends ContentBlock>(
  block: T,
  raw: unknown,
  modelled: readonly string[],
  format: FormatName,
): T {
  if (!isRecord(raw)) return block;
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw))
    if (!modelled.includes(key) && value !== undefined) fields[key] = value;
  if (Object.keys(fields).length > 0) block.extra = { format, fields };
  return block;
}

// A result's `text` for block-array content: its text blocks joined by newlines. Non-text blocks stay in `content`.
export function joinText(blocks: readonly ContentBlock[]): string {
  return blocks.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}

/**
 * A tool result's `text` for block-array content: what the model read. Its text blocks and the text of its text
 * documents, joined by newlines; a result with neither (an image, a PDF, a file reference) gets a one-line reference
 * per block instead, so a document-only result is never blank in previews and search.
 */
export function resultText(blocks: readonly ContentBlock[]): string {
  const read = blocks.flatMap((block) =>
    block.type === "text" ? [block.text] : block.type === "document" && block.text !== undefined ? [block.text] : [],
  );
  if (read.length > 0 || blocks.length === 0) return read.join("\n");
  return blocks.map(blockReference).join("\n");
}

function blockReference(block: ContentBlock): string {
  const parts = (...values: (string | undefined)[]) =>
    `[${values.filter((value): value is string => value !== undefined && value !== "").join(" · ")}]`;
  switch (block.type) {
    case "image":
    case "audio":
      return parts(block.type, block.mimeType);
    case "document":
      return parts("document", block.title, block.mimeType);
    case "media_ref":
      return parts(block.media, block.title, block.mimeType, block.url ?? block.fileId);
    case "resource_link":
      return parts("resource_link", block.name ?? block.title, block.uri);
    case "resource":
      return block.resource.text ?? parts("resource", block.resource.title, block.resource.uri);
    case "unknown":
      return parts(`${block.format ?? "vendor"} block`);
    default:
      return block.text;
  }
}

export function hasNonTextBlock(blocks: readonly ContentBlock[]): boolean {
  return blocks.some((block) => block.type !== "text");
}

const DATA_URL = /^data:([^;,]+)(?:;[^;,]+)*;base64,(.*)$/s;

// OpenAI encodes inline images as data URLs; canonical image blocks want the bare base64 and MIME type.
export function parseDataUrl(url: string): { mimeType: string; data: string } | undefined {
  const match = DATA_URL.exec(url);
  if (!match || match[1] === undefined || match[2] === undefined) return undefined;
  return { mimeType: match[1], data: match[2] };
}

// Inline bytes by MIME type: images and audio as such, anything else (PDF, text, CSV…) as a document.
export function mediaBlock(mimeType: string, data: string): ContentBlock {
  if (mimeType.startsWith("audio/")) return { type: "audio", data, mimeType };
  if (mimeType.startsWith("image/")) return { type: "image", data, mimeType };
  return { type: "document", data, mimeType };
}

export function mediaKindOf(mimeType: string | undefined): "image" | "audio" | "document" | "video" | "file" {
  if (mimeType === undefined) return "file";
  if (mimeType.startsWith("image/")) return "image";
  if (mimeType.startsWith("audio/")) return "audio";
  if (mimeType.startsWith("video/")) return "video";
  return "document";
}

// MCP content blocks (2025-06-18 / 2025-11-25): text, image, audio, resource_link, resource. Annotations and _meta
// become extras.
export function mcpContentBlock(value: unknown, path: string): ContentBlock {
  const block = expectRecord(value, path, "a content block object");
  switch (block.type) {
    case "text":
      return withExtras({ type: "text", text: readString(block, "text", path) }, block, ["type", "text"], "mcp");
    case "image":
    case "audio":
      return withExtras(
        { type: block.type, data: readString(block, "data", path), mimeType: readString(block, "mimeType", path) },
        block,
        ["type", "data", "mimeType"],
        "mcp",
      );
    case "resource_link": {
      const link: ContentBlock = { type: "resource_link", uri: readString(block, "uri", path) };
      const name = readOptionalString(block, "name", path);
      const title = readOptionalString(block, "title", path);
      const mimeType = readOptionalString(block, "mimeType", path);
      const description = readOptionalString(block, "description", path);
      if (name !== undefined) link.name = name;
      if (title !== undefined) link.title = title;
      if (mimeType !== undefined) link.mimeType = mimeType;
      if (description !== undefined) link.description = description;
      if (typeof block.size === "number") link.size = block.size;
      return withExtras(link, block, ["type", "uri", "name", "title", "mimeType", "description", "size"], "mcp");
    }
    case "resource": {
      const resourcePath = `${path}.resource`;
      const resource = expectRecord(block.resource, resourcePath);
      const embedded: { uri: string; mimeType?: string; text?: string; blob?: string; title?: string } = {
        uri: readString(resource, "uri", resourcePath),
      };
      const mimeType = readOptionalString(resource, "mimeType", resourcePath);
      const text = readOptionalString(resource, "text", resourcePath);
      const blob = readOptionalString(resource, "blob", resourcePath);
      const title = readOptionalString(resource, "title", resourcePath);
      if (mimeType !== undefined) embedded.mimeType = mimeType;
      if (text !== undefined) embedded.text = text;
      if (blob !== undefined) embedded.blob = blob;
      if (title !== undefined) embedded.title = title;
      return withExtras({ type: "resource", resource: embedded }, block, ["type", "resource"], "mcp");
    }
    default:
      return { type: "unknown", raw: value, format: "mcp" };
  }
}

// Formats without an error flag (Chat Completions, Responses, agent stream) follow the house convention that a
// failed tool's text starts with "Error:" (tool-result-callback-protocol); isError is inferred from it.
export function hasErrorPrefix(text: string): boolean {
  return text.startsWith("Error:");
}
