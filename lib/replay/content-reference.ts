// The faithful text form of a content block a replay target cannot carry natively: its type, where it is (a URI,
// or inline), its MIME type, size and the sha256 of its bytes, so the model (and a person) can tell exactly what
// was there. An embedded text resource or a text document keeps its text after the reference line.
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import type { ContentBlock } from "../formats/canonical";

function base64Bytes(data: string): Uint8Array | null {
  try {
    const binary = atob(data.replace(/\s+/g, ""));
    const bytes = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
    return bytes;
  } catch {
    return null;
  }
}

/** "68 bytes · sha256:…" of base64 data (or "not valid base64"). */
function inlineFacts(data: string): string {
  const bytes = base64Bytes(data);
  if (bytes === null) return `${data.length} base64 characters (not valid base64)`;
  return `${bytes.length} bytes · sha256:${bytesToHex(sha256(bytes))}`;
}

function textFacts(text: string): string {
  const bytes = new TextEncoder().encode(text);
  return `${bytes.length} bytes · sha256:${bytesToHex(sha256(bytes))}`;
}

function line(parts: (string | undefined)[]): string {
  return `[${parts.filter((part) => part !== undefined && part !== "").join(" · ")}]`;
}

/** A one-line reference (plus the text itself for text documents and text resources). */
export function contentReference(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return line([block.type, block.mimeType, "inline", inlineFacts(block.data)]);
    case "document":
      if (block.text !== undefined)
        return `${line(["document", block.mimeType, block.title, "inline text", textFacts(block.text)])}\n${block.text}`;
      return line([
        "document",
        block.mimeType,
        block.title,
        "inline",
        block.data === undefined ? undefined : inlineFacts(block.data),
      ]);
    case "media_ref":
      return line([
        block.media,
        block.mimeType,
        block.title,
        block.url ?? (block.fileId === undefined ? undefined : `file id ${block.fileId}`),
      ]);
    case "resource_link":
      return line([
        "resource_link",
        block.uri,
        block.name ?? block.title,
        block.mimeType,
        block.size === undefined ? undefined : `${block.size} bytes`,
        block.description,
      ]);
    case "resource": {
      const { uri, mimeType, text, blob, title } = block.resource;
      if (text !== undefined) return `${line(["resource", uri, title, mimeType, textFacts(text)])}\n${text}`;
      return line(["resource", uri, title, mimeType, blob === undefined ? undefined : inlineFacts(blob)]);
    }
    case "unknown":
      return `${line([`${block.format ?? "vendor"} block`, typeOf(block.raw)])}\n${JSON.stringify(block.raw)}`;
  }
}

function typeOf(raw: unknown): string | undefined {
  return typeof raw === "object" && raw !== null && "type" in raw && typeof raw.type === "string"
    ? raw.type
    : undefined;
}

/** A short name for skipped reasons: "image", "resource_link", "anthropic search_result block". */
export function blockLabel(block: ContentBlock): string {
  if (block.type === "media_ref") return `${block.media} reference`;
  if (block.type === "unknown") return `${block.format ?? "vendor"} ${typeOf(block.raw) ?? "unknown"} block`;
  return block.type;
}

/** UTF-8 text as base64 (a text document sent as Gemini inline data). */
export function textToBase64(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
