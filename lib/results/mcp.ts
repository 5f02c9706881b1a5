// Owns recognising an MCP CallToolResult (seeds/mcp-tool-result-types.md) in a result text and reading its content blocks.

import { describeValue, hasOwn, isJsonObject, parseJsonText, readOwn } from "./json-value";
import type { JsonObject } from "./json-value";

export type TextBlock = { type: "text"; text: string; annotations?: unknown };
export type ImageBlock = { type: "image"; data: string; mimeType: string; annotations?: unknown };
export type AudioBlock = { type: "audio"; data: string; mimeType: string; annotations?: unknown };
export type ResourceLinkBlock = {
  type: "resource_link";
  uri: string;
  name?: string;
  title?: string;
  mimeType?: string;
  description?: string;
  annotations?: unknown;
};
export type EmbeddedResource = { uri: string; title?: string; mimeType?: string; text?: string; blob?: string };
export type ResourceBlock = { type: "resource"; resource: EmbeddedResource; annotations?: unknown };
/** A block of a type this dashboard does not know, or a known type too malformed to render; `raw` is as received. */
export type UnknownBlock = { type: "unknown"; raw: unknown };

export type ContentBlock = TextBlock | ImageBlock | AudioBlock | ResourceLinkBlock | ResourceBlock | UnknownBlock;

// problems: what makes it not a well-formed CallToolResult; warnings: what the spec says a tool SHOULD do and it did not.
export type McpAnalysis =
  | { kind: "none" }
  | {
      kind: "mcp";
      content: ContentBlock[];
      structuredContent?: unknown;
      isError: boolean;
      problems: string[];
      warnings: string[];
    };

/** The warning for structured content that no TextContent block serialises (clients reading only `content` miss it). */
export const STRUCTURED_WITHOUT_TEXT =
  "structuredContent has no TextContent serialization: a tool returning structured content SHOULD also return the serialized JSON in a TextContent block, so clients that read only content see it";

const NONE: McpAnalysis = { kind: "none" };

/** Parses `text` (JSON object only) and reads it as a CallToolResult. Never throws. */
export function detectMcpResult(text: string): McpAnalysis {
  const parsed = parseJsonText(text, true);
  return parsed.ok ? analyzeMcpValue(parsed.value) : NONE;
}

/**
 * Recognition: an object with a `content` array that is empty or holds at least one `{type: string}` object,
 * and/or a `structuredContent` key. `isError` alone is not enough (too generic a name to claim the text).
 * A JSON-RPC response `{"jsonrpc":"2.0","id":…,"result":{…}}` is unwrapped: tools relaying the raw MCP
 * reply send exactly that (it is the seed's own example).
 */
export function analyzeMcpValue(value: unknown): McpAnalysis {
  if (!isJsonObject(value)) return NONE;
  const result = unwrapJsonRpc(value);
  const content = readOwn(result, "content");
  const contentLooksMcp = Array.isArray(content) && (content.length === 0 || content.some(isTypedObject));
  const hasStructured = hasOwn(result, "structuredContent");
  if (!contentLooksMcp && !hasStructured) return NONE;

  const problems: string[] = [];
  const blocks: ContentBlock[] = [];
  if (Array.isArray(content)) {
    content.forEach((block: unknown, index) => blocks.push(readBlock(block, `content[${index}]`, problems)));
  } else if (hasOwn(result, "content")) {
    problems.push(`content: must be an array of content blocks (got ${describeValue(content)})`);
  } else {
    // CallToolResult.content is required even when structuredContent carries the data.
    problems.push("content: missing (required, may be empty)");
  }

  let isError = false;
  if (hasOwn(result, "isError")) {
    const flag = readOwn(result, "isError");
    if (typeof flag === "boolean") isError = flag;
    else problems.push(`isError: must be a boolean (got ${describeValue(flag)})`);
  }

  const warnings: string[] = [];
  const analysis: McpAnalysis = { kind: "mcp", content: blocks, isError, problems, warnings };
  if (hasStructured) {
    const structured = readOwn(result, "structuredContent");
    analysis.structuredContent = structured;
    if (!isJsonObject(structured)) {
      problems.push(`structuredContent: must be a JSON object (got ${describeValue(structured)})`);
    }
    if (!blocks.some((block) => block.type === "text" && serializes(block.text, structured)))
      warnings.push(STRUCTURED_WITHOUT_TEXT);
  }
  return analysis;
}

// A text block serialises the structured content when it parses to the same JSON value (spacing and key order aside).
function serializes(text: string, structured: unknown): boolean {
  const parsed = parseJsonText(text, false);
  return parsed.ok && sameJson(parsed.value, structured);
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => hasOwn(b, key) && sameJson(readOwn(a, key), readOwn(b, key)))
    );
  }
  return false;
}

function unwrapJsonRpc(value: JsonObject): JsonObject {
  if (readOwn(value, "jsonrpc") !== "2.0") return value;
  const result = readOwn(value, "result");
  return isJsonObject(result) ? result : value;
}

function isTypedObject(value: unknown): boolean {
  return isJsonObject(value) && typeof readOwn(value, "type") === "string";
}

// Strict base64 alphabet with optional padding; a linear regex (one character class, no nested quantifiers).
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function readBlock(block: unknown, path: string, problems: string[]): ContentBlock {
  if (!isJsonObject(block)) {
    problems.push(`${path}: must be an object with a type (got ${describeValue(block)})`);
    return { type: "unknown", raw: block };
  }
  const type = readOwn(block, "type");
  const annotations = readOwn(block, "annotations");
  const malformed = (why: string): UnknownBlock => {
    problems.push(`${path}: ${why}`);
    return { type: "unknown", raw: block };
  };
  switch (type) {
    case "text": {
      const text = readOwn(block, "text");
      if (typeof text !== "string") return malformed("text block without a string `text`");
      return withAnnotations({ type: "text", text }, annotations);
    }
    case "image":
    case "audio": {
      const data = readOwn(block, "data");
      const mimeType = readOwn(block, "mimeType");
      if (typeof data !== "string") return malformed(`${type} block without string \`data\``);
      if (typeof mimeType !== "string") return malformed(`${type} block without string \`mimeType\``);
      // Kept anyway: the page can still show the mime type and size; rendering will fail visibly.
      if (!isBase64(data)) problems.push(`${path}.data: is not valid base64`);
      return withAnnotations({ type, data, mimeType }, annotations);
    }
    case "resource_link": {
      const uri = readOwn(block, "uri");
      if (typeof uri !== "string") return malformed("resource_link block without a string `uri`");
      const link: ResourceLinkBlock = { type: "resource_link", uri };
      const name = optionalString(block, "name", path, problems);
      if (name !== undefined) link.name = name;
      const title = optionalString(block, "title", path, problems);
      if (title !== undefined) link.title = title;
      const mimeType = optionalString(block, "mimeType", path, problems);
      if (mimeType !== undefined) link.mimeType = mimeType;
      const description = optionalString(block, "description", path, problems);
      if (description !== undefined) link.description = description;
      return withAnnotations(link, annotations);
    }
    case "resource": {
      const resource = readOwn(block, "resource");
      if (!isJsonObject(resource)) return malformed("resource block without a `resource` object");
      const uri = readOwn(resource, "uri");
      if (typeof uri !== "string") return malformed("embedded resource without a string `uri`");
      const embedded: EmbeddedResource = { uri };
      const resourcePath = `${path}.resource`;
      const title = optionalString(resource, "title", resourcePath, problems);
      if (title !== undefined) embedded.title = title;
      const mimeType = optionalString(resource, "mimeType", resourcePath, problems);
      if (mimeType !== undefined) embedded.mimeType = mimeType;
      const text = optionalString(resource, "text", resourcePath, problems);
      if (text !== undefined) embedded.text = text;
      const blob = optionalString(resource, "blob", resourcePath, problems);
      if (blob !== undefined) {
        embedded.blob = blob;
        if (!isBase64(blob)) problems.push(`${resourcePath}.blob: is not valid base64`);
      }
      // MCP resource contents are either TextResourceContents or BlobResourceContents.
      if (text === undefined && blob === undefined) problems.push(`${resourcePath}: has neither text nor blob`);
      return withAnnotations({ type: "resource", resource: embedded }, annotations);
    }
    default:
      problems.push(`${path}: unknown content type ${describeValue(type)}`);
      return { type: "unknown", raw: block };
  }
}

function withAnnotations<T extends Exclude<ContentBlock, UnknownBlock>>(block: T, annotations: unknown): T {
  if (annotations !== undefined) block.annotations = annotations;
  return block;
}

function optionalString(object: JsonObject, key: string, path: string, problems: string[]): string | undefined {
  if (!hasOwn(object, key)) return undefined;
  const value = readOwn(object, key);
  if (typeof value === "string") return value;
  problems.push(`${path}.${key}: must be a string (got ${describeValue(value)})`);
  return undefined;
}

function isBase64(data: string): boolean {
  return data.length % 4 === 0 && BASE64.test(data);
}
