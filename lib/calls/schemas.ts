// Owns the call/result detail contract: zod schemas for the routes' path and query parameters and the
// DTO types the detail page, the API and the client components share. Client-safe (types from lib/results).
import { z } from "zod";
import type { DeliveryProvenance } from "../audit/import-mark.ts";
import type { MaskedSecret } from "../audit/schemas.ts";
import type { DisplayChoice } from "../results/display.ts";
import type { EnvelopeError, EnvelopeMeta, EnvelopeSource } from "../results/envelope.ts";
import type { ContentBlock as VendorBlock, FormatName } from "../formats/canonical.ts";
import type { ContentBlock } from "../results/mcp.ts";
import type { SchemaValidation } from "../results/output-schema.ts";
import type { SchemaTarget } from "../results/analyze.ts";

export { rowIdSchema } from "../http/query.ts";

export const callQuerySchema = z.object({
  view: z
    .enum(["detail", "call"])
    .optional()
    .describe('"call": the call alone (arguments, declaration), without results or deliveries'),
});

export const resultTextQuerySchema = z.object({
  download: z.enum(["1"]).optional().describe("1: answer as an attachment (Content-Disposition)"),
});

/** How much of a result text the detail page receives inline; the rest is fetched on "show all". */
export const TEXT_HEAD_LIMIT = 200_000;

/** A text cut for display: `head` is the start of the text with its secrets masked (lib/audit/mask). */
export type TextHead = { head: string; complete: boolean; length: number };

/** A JSON value small enough to show as a tree, or its pretty text cut when it is too large for that. */
export type JsonPreview = { kind: "value"; value: unknown } | { kind: "text"; text: string; truncated: boolean };

export type ArgumentsView = {
  /** The raw argument text as the model produced it (decoded, secrets masked), cut at TEXT_HEAD_LIMIT. */
  raw: TextHead | null;
  /** Pretty-printed JSON when the arguments parsed. */
  formatted: JsonPreview | null;
  parseError: string | null;
};

export type CallInfo = {
  id: number;
  groupId: string;
  callKey: string;
  callId: string | null;
  toolName: string;
  vendor: string | null;
  step: number | null;
  status: string;
  subscription: string | null;
  requestedAt: string;
  completedAt: string | null;
  deadlineAt: string | null;
  timedOutAt: string | null;
  lastResultAt: string | null;
  resultCount: number;
  arguments: ArgumentsView;
  declaration: {
    description: string | null;
    /** MCP Tool.title and Tool.annotations as the server declared them: hints, untrusted unless the server is. */
    title: string | null;
    annotations: Record<string, unknown> | null;
    inputSchema: JsonPreview | null;
    value: JsonPreview;
  } | null;
  outputSchema: JsonPreview | null;
};

export type EnvelopeView = {
  kind: "valid" | "partial" | "invalid";
  problems: string[];
  location: "text" | "structuredContent" | null;
  success: boolean | null;
  confidence: number | null;
  nextAction: string | null;
  error: EnvelopeError | null;
  source: EnvelopeSource[] | string | null;
  meta: EnvelopeMeta | null;
  data: JsonPreview | null;
};

export type McpView = {
  content: ContentBlock[];
  isError: boolean;
  problems: string[];
  /** What the MCP spec says a tool SHOULD do and it did not (structuredContent without a TextContent serialization). */
  warnings: string[];
  structuredContent: JsonPreview | null;
};

export type ResultFlagsView = {
  errorPrefix: boolean;
  invisibleCount: number;
  /** Distinct code points found, e.g. "U+202E" (at most 12). */
  invisibleCodePoints: string[];
  secretCount: number;
  secretKinds: string[];
};

export type ResultDetail = {
  id: number;
  ordinal: number;
  receivedAt: string;
  late: boolean;
  textSha256: string;
  textBytes: number;
  isError: boolean;
  errorSources: string[];
  text: TextHead;
  display: DisplayChoice;
  envelope: EnvelopeView | null;
  mcp: McpView | null;
  schema: SchemaValidation;
  schemaTarget: SchemaTarget;
  flags: ResultFlagsView;
  /**
   * An imported result's content blocks beyond its text (images, documents, audio, links, resources) as the vendor
   * transcript had them; null for results whose text says everything (MCP results show their blocks in `mcp`).
   */
  content: { format: FormatName | null; blocks: VendorBlock[] } | null;
};

/** One delivery routed to the call; provenance as in lib/audit/import-mark (imported rows only report times). */
export type DeliverySummary = DeliveryProvenance & {
  id: number;
  outcome: string;
  httpStatus: number;
  reason: string | null;
  bodyBytes: number;
  bodySha256: string | null;
  contentType: string | null;
  rawBodyTruncated: boolean;
  resultId: number | null;
};

export type CallEventView = {
  id: number;
  kind: string;
  occurredAt: string;
  text: string | null;
  layer: string | null;
  source: string;
};

export type CallDetail = {
  call: CallInfo;
  results: ResultDetail[];
  /** Results beyond the ones shown (a long subscription); the newest are listed last. */
  resultsOmitted: number;
  deliveries: DeliverySummary[];
  deliveriesOmitted: number;
  events: CallEventView[];
  /** Every value masked in this DTO (its strings are masked on the server); each is revealed on request. */
  secrets: MaskedSecret[];
};

/** GET /api/results/{id}/masked-text: the whole text with its secrets masked, and what was masked. */
export type MaskedResultText = { id: number; text: string; secrets: MaskedSecret[] };

/** GET /api/calls/{id}/deliveries/{deliveryId}/body answers the raw bytes; these headers describe them. */
export const DELIVERY_TRUNCATED_HEADER = "x-toolscope-body-truncated";
export const TEXT_SHA256_HEADER = "x-toolscope-sha256";
