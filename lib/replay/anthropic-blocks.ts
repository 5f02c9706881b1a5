// Canonical content blocks → Anthropic content blocks: text, images (base64 JPEG/PNG/GIF/WebP, URL, file id),
// documents (base64 PDF, plain text, URL, file id), Anthropic's own blocks (search_result…) as they were.
// Audio, resource links and anything else go as text references, listed in skipped.
import type { ContentBlock } from "../formats/canonical";
import { isRecord, type JsonRecord } from "../formats/json-fields";
import { extrasOf, noteConversion, referenceText, type BlockContext } from "./block-context";

const IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

/** `media`: whether images and documents may appear (user messages and tool results; not assistant turns). */
export function anthropicBlocks(blocks: readonly ContentBlock[], context: BlockContext, media: boolean): JsonRecord[] {
  return blocks.flatMap((block, part): JsonRecord[] => {
    const extra = extrasOf(block, context);
    const reference = (why: string): JsonRecord[] => [{ type: "text", text: referenceText(block, part, context, why) }];
    if (block.type === "text") return [{ ...extra, type: "text", text: block.text }];
    if (block.type === "unknown")
      return block.format === "anthropic" && isRecord(block.raw) ? [block.raw] : reference("no Anthropic form");
    if (!media && block.type !== "resource_link" && block.type !== "resource")
      return reference("no media in an assistant turn");
    switch (block.type) {
      case "image":
        return IMAGE_TYPES.has(block.mimeType)
          ? [{ ...extra, type: "image", source: { type: "base64", media_type: block.mimeType, data: block.data } }]
          : reference(`${block.mimeType} is not an image type Anthropic accepts`);
      case "document":
        return document(block, extra, reference);
      case "media_ref": {
        if (block.media !== "image" && block.media !== "document") return reference(`no ${block.media} blocks`);
        const source =
          block.url !== undefined ? { type: "url", url: block.url } : { type: "file", file_id: block.fileId };
        const out: JsonRecord = { ...extra, type: block.media, source };
        if (block.media === "document" && block.title !== undefined) out.title = block.title;
        return [out];
      }
      case "resource": {
        const { uri, mimeType, text, blob } = block.resource;
        if (!media) return reference("no documents in an assistant turn");
        if (text !== undefined) {
          if (mimeType !== undefined && mimeType !== "text/plain")
            noteConversion(
              block,
              part,
              context,
              `sent as a plain-text document titled ${uri} (MIME type ${mimeType} not kept)`,
            );
          return [{ type: "document", source: { type: "text", media_type: "text/plain", data: text }, title: uri }];
        }
        if (blob !== undefined && mimeType === "application/pdf")
          return [
            { type: "document", source: { type: "base64", media_type: "application/pdf", data: blob }, title: uri },
          ];
        return reference(`no document form for ${mimeType ?? "untyped"} bytes`);
      }
      case "resource_link":
        return reference("no resource link block");
      case "audio":
        return reference("no audio blocks");
    }
  });
}

function document(
  block: Extract<ContentBlock, { type: "document" }>,
  extra: Record<string, unknown>,
  reference: (why: string) => JsonRecord[],
): JsonRecord[] {
  let source: JsonRecord | undefined;
  if (block.text !== undefined) source = { type: "text", media_type: "text/plain", data: block.text };
  else if (block.data !== undefined && block.mimeType === "application/pdf")
    source = { type: "base64", media_type: "application/pdf", data: block.data };
  if (source === undefined) return reference(`no document form for ${block.mimeType}`);
  const out: JsonRecord = { ...extra, type: "document", source };
  if (block.title !== undefined) out.title = block.title;
  return [out];
}
