// What block renderers share: where the blocks go (for skipped reasons), whether extras of the same format come
// back, and how a block without a native form becomes a text reference that is listed in `skipped`.
import type { ContentBlock, FormatName } from "../formats/canonical";
import { blockLabel, contentReference } from "./content-reference";
import type { SkippedEvent } from "./history";

export type BlockContext = {
  /** Timeline index of the event the blocks belong to. */
  index: number;
  /** Where the blocks go, for reasons: "a Chat Completions tool message". */
  where: string;
  skipped: SkippedEvent[];
  /** The format the events were read from; extras of blocks in that same format are put back. */
  target: FormatName;
  sourceFormat: FormatName | null;
};

/** Vendor fields of the block (cache_control, detail, citations…) when the replay goes back into their format. */
export function extrasOf(block: ContentBlock, context: BlockContext): Record<string, unknown> {
  return block.extra !== undefined && block.extra.format === context.target ? block.extra.fields : {};
}

/** The block as a text reference, recorded in skipped with the reason. */
export function referenceText(block: ContentBlock, part: number, context: BlockContext, why: string): string {
  context.skipped.push({
    index: context.index,
    part,
    reason: `content[${part}] ${blockLabel(block)}: ${why} in ${context.where}; sent as a text reference`,
  });
  return contentReference(block);
}

/** Records a block that went in a converted (but native) form, losing something on the way. */
export function noteConversion(block: ContentBlock, part: number, context: BlockContext, what: string): void {
  context.skipped.push({
    index: context.index,
    part,
    reason: `content[${part}] ${blockLabel(block)}: ${what} in ${context.where}`,
  });
}
