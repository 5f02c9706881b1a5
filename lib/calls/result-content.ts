// The content blocks of imported results: an import keeps a result's blocks (images, documents, audio, links,
// resources) in its timeline event's dataJson; a result whose blocks are all text needs none of them shown.
import type { ContentBlock, FormatName } from "../formats/canonical.ts";

const FORMATS: readonly FormatName[] = [
  "anthropic",
  "openai-chat",
  "openai-responses",
  "gemini",
  "gemini-interactions",
  "mcp",
  "agent-stream",
];

function blocksOf(dataJson: string | null): ContentBlock[] | null {
  if (dataJson === null) return null;
  try {
    const data: unknown = JSON.parse(dataJson);
    if (typeof data !== "object" || data === null || !("content" in data) || !Array.isArray(data.content)) return null;
    const blocks = data.content.filter(
      (block: unknown): block is ContentBlock =>
        typeof block === "object" && block !== null && "type" in block && typeof block.type === "string",
    );
    return blocks.some((block) => block.type !== "text") ? blocks : null;
  } catch {
    return null;
  }
}

/** resultId → its vendor content blocks, for results that have non-text blocks. */
export function resultContentOf(
  rows: readonly { resultId: number | null; dataJson: string | null }[],
  vendor: string | null,
): Map<number, { format: FormatName | null; blocks: ContentBlock[] }> {
  const format = FORMATS.find((name) => name === vendor) ?? null;
  const out = new Map<number, { format: FormatName | null; blocks: ContentBlock[] }>();
  for (const row of rows) {
    if (row.resultId === null) continue;
    const blocks = blocksOf(row.dataJson);
    if (blocks !== null) out.set(row.resultId, { format, blocks });
  }
  return out;
}
