// Content-block helpers shared by adapters: MCP block mapping (the canonical block vocabulary), data URLs, text joins.
import type { ContentBlock } from "./canonical";
import { expectRecord, readOptionalString, readString } from "./json-fields";

// A result's `text` for block-array content: its text blocks joined by newlines. Non-text blocks stay in `content`.
export function joinText(blocks: readonly ContentBlock[]): string {
  return blocks.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
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

export function mediaBlock(mimeType: string, data: string): ContentBlock {
  return mimeType.startsWith("audio/") ? { type: "audio", data, mimeType } : { type: "image", data, mimeType };
}

// MCP content blocks (2025-06-18 / 2025-11-25): text, image, audio, resource_link, resource. Annotations stay in raw.
export function mcpContentBlock(value: unknown, path: string): ContentBlock {
  const block = expectRecord(value, path, "a content block object");
  switch (block.type) {
    case "text":
      return { type: "text", text: readString(block, "text", path) };
    case "image":
    case "audio":
      return {
        type: block.type,
        data: readString(block, "data", path),
        mimeType: readString(block, "mimeType", path),
      };
    case "resource_link": {
      const link: ContentBlock = { type: "resource_link", uri: readString(block, "uri", path) };
      const name = readOptionalString(block, "name", path);
      const mimeType = readOptionalString(block, "mimeType", path);
      const description = readOptionalString(block, "description", path);
      if (name !== undefined) link.name = name;
      if (mimeType !== undefined) link.mimeType = mimeType;
      if (description !== undefined) link.description = description;
      return link;
    }
    case "resource": {
      const resourcePath = `${path}.resource`;
      const resource = expectRecord(block.resource, resourcePath);
      const embedded: { uri: string; mimeType?: string; text?: string; blob?: string } = {
        uri: readString(resource, "uri", resourcePath),
      };
      const mimeType = readOptionalString(resource, "mimeType", resourcePath);
      const text = readOptionalString(resource, "text", resourcePath);
      const blob = readOptionalString(resource, "blob", resourcePath);
      if (mimeType !== undefined) embedded.mimeType = mimeType;
      if (text !== undefined) embedded.text = text;
      if (blob !== undefined) embedded.blob = blob;
      return { type: "resource", resource: embedded };
    }
    default:
      return { type: "unknown", raw: value };
  }
}

// Formats without an error flag (Chat Completions, Responses, agent stream) follow the house convention that a
// failed tool's text starts with "Error:" (tool-result-callback-protocol); isError is inferred from it.
export function hasErrorPrefix(text: string): boolean {
  return text.startsWith("Error:");
}
