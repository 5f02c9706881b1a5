// Request and response shapes of the import, export and replay routes, as zod: one source for validation,
// types, the client components and the OpenAPI document. Client-safe (no node imports).
import { z } from "zod";
import type { FormatName } from "../formats/canonical.ts";
import type { Adjustment } from "../replay/render-history.ts";
import type { PartialTurn } from "../replay/render-window.ts";
import { groupIdentifier } from "../ingest/schemas.ts";
import type { MaskedSecret } from "../audit/schemas.ts";

export const VENDOR_FORMATS = [
  "anthropic",
  "openai-chat",
  "openai-responses",
  "gemini",
  "gemini-interactions",
  "mcp",
  "agent-stream",
] as const;
// Fails to compile when lib/formats gains or loses a format and this list does not follow.
type SameMembers<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _vendorFormatsMatch: SameMembers<(typeof VENDOR_FORMATS)[number], FormatName> = true;

export const IMPORT_FORMATS = [...VENDOR_FORMATS, "toolscope"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export const FORMAT_LABELS: Record<ImportFormat, string> = {
  anthropic: "Anthropic Messages",
  "openai-chat": "OpenAI Chat Completions",
  "openai-responses": "OpenAI Responses",
  gemini: "Gemini generateContent",
  "gemini-interactions": "Gemini Interactions API",
  mcp: "MCP JSON-RPC log",
  "agent-stream": "Agent response stream",
  toolscope: "Toolscope JSONL export",
};

export const REPLAY_VENDORS = ["anthropic", "openai-chat", "openai-responses", "gemini"] as const;
export type ReplayVendorName = (typeof REPLAY_VENDORS)[number];
export const REPLAY_VENDOR_LABELS: Record<ReplayVendorName, string> = {
  anthropic: "Anthropic Messages",
  "openai-chat": "OpenAI Chat Completions",
  "openai-responses": "OpenAI Responses",
  gemini: "Gemini",
};

export const importQuerySchema = z
  .object({
    format: z
      .enum(IMPORT_FORMATS, { error: `format must be one of ${IMPORT_FORMATS.join(", ")}` })
      .optional()
      .describe("Overrides format detection"),
    group_id: groupIdentifier()
      .optional()
      .describe("Group id of the new thread (default: derived from the input's sha256, or the export's own)"),
    name: z.string().max(200).optional().describe("Title of the new thread, e.g. the file name"),
  })
  .meta({ id: "ImportQuery" });
export type ImportQuery = z.infer<typeof importQuerySchema>;

export const importIssueSchema = z.object({ path: z.string(), message: z.string() }).meta({ id: "ImportIssue" });

export const importResultSchema = z
  .object({
    group_id: z.string(),
    format: z.enum(IMPORT_FORMATS),
    created: z.boolean().describe("false: the same input was imported before; nothing was written"),
    counts: z.object({
      events: z.number().int().describe("Timeline events (canonical events of a transcript; event rows of an export)"),
      calls: z.number().int(),
      results: z.number().int(),
      deliveries: z.number().int(),
      issues: z.number().int(),
    }),
    issues: z
      .array(importIssueSchema)
      .describe("What the adapter could not map; nothing was dropped (each is an import_issue event)"),
  })
  .meta({ id: "ImportResult" });
export type ImportResult = z.infer<typeof importResultSchema>;

export const replayQuerySchema = z
  .object({
    vendor: z
      .enum(REPLAY_VENDORS, { error: `vendor must be one of ${REPLAY_VENDORS.join(", ")}` })
      .optional()
      .describe("The encoding; default: the thread's own (its import format or its calls' vendor, else anthropic)"),
    step: z.coerce.number().int().min(0).optional().describe("Events included (0 = none); default: all"),
    part: z
      .enum(["result", "request"])
      .default("result")
      .describe("request: only the vendor request body (what Copy JSON gives)"),
  })
  .meta({ id: "ReplayQuery" });

/** GET /api/threads/{groupId}/replay/view: the replay page's data at a step (vendor defaults to the thread's own). */
export const replayViewQuerySchema = z.object({
  vendor: z.enum(REPLAY_VENDORS, { error: `vendor must be one of ${REPLAY_VENDORS.join(", ")}` }).optional(),
  step: z.coerce.number().int().min(0).optional().describe("Events included (0 = none); default: all"),
});

export const replayResultSchema = z
  .object({
    group_id: z.string(),
    vendor: z.enum(REPLAY_VENDORS),
    step: z.number().int(),
    total: z.number().int(),
    request: z.unknown().describe("The request body the vendor's API accepts as input at this step"),
    pending_call_ids: z.array(z.string()),
    skipped: z
      .array(
        z.object({
          index: z.number().int(),
          reason: z.string(),
          part: z.number().int().optional().describe("Content block of the event sent in another form"),
        }),
      )
      .describe("Events left out of the request, and content parts sent as text references, with the reason"),
    renamed_call_ids: z.record(z.string(), z.string()),
    adjustments: z
      .array(z.object({ index: z.number().int().nullable(), change: z.string() }))
      .describe(
        "Changes made so the vendor accepts the history: a placeholder first user turn, a reused id made unique, an error flag spelled into the text",
      ),
  })
  .meta({ id: "ReplayResult" });
export type ReplayResult = z.infer<typeof replayResultSchema>;

// ─── the replay page at one step (GET /api/threads/{groupId}/replay/view) ──────────────────────────

/** `pending`: a call still awaiting its result at the shown step. */
export type ReplayListItem = {
  index: number;
  kind: string;
  label: string;
  summary: string;
  isError: boolean;
  callId: string | null;
  pending: boolean;
};

export type ReplayHistoryView = {
  /** The shown end of the request JSON (masked, invisible characters marked). */
  json: string;
  hiddenItems: number;
  /** Items of the rendered request: the whole request's when `renderedFrom` is null. */
  totalItems: number;
  /**
   * Null when the whole history was rendered; else the timeline index from which it was (lib/replay/render-window):
   * earlier items are not counted, and skipped parts, adjustments and renamed ids cover the rendered events only.
   */
  renderedFrom: number | null;
  /**
   * A huge model turn rendered in part (lib/replay/render-window): its calls the shown results answer and its items
   * from `renderedFrom` on are in the JSON, `omittedCalls` calls and `omittedOther` other items of it are not.
   */
  partialTurn: PartialTurn | null;
  /** Characters of the JSON before the shown part; null when cut there without writing the part before. */
  hiddenChars: number | null;
  /** The first PENDING_SHOWN of `pendingTotal` calls pending at this step. */
  pending: { callId: string; name: string }[];
  pendingTotal: number;
  skipped: { index: number; part: number | null; reason: string }[];
  skippedTotal: number;
  /** The first ADJUSTMENTS_SHOWN of `adjustmentsTotal`. */
  adjustments: Adjustment[];
  adjustmentsTotal: number;
  /** The first RENAMED_SHOWN of `renamedTotal` renamed call ids (from → to). */
  renamed: [string, string][];
  renamedTotal: number;
};

export type ReplayStepView = {
  groupId: string;
  title: string | null;
  vendor: string | null;
  format: FormatName | null;
  total: number;
  step: number;
  encoding: ReplayVendorName;
  /** The encoding the page opens in when the URL names none: the thread's own. */
  defaultEncoding: ReplayVendorName;
  list: ReplayListItem[];
  omitted: Record<string, number>;
  history: ReplayHistoryView | null;
  error: string | null;
  /**
   * Event N as recorded (masked, cut), for "as recorded": the vendor's item (`origin: "payload"`, imports and forks),
   * or Toolscope's record of an event that came without one (`"toolscope"`: API, callback, OTLP).
   */
  current: { path: string; origin: "payload" | "toolscope"; raw: string } | null;
  /** The values masked in this view, each revealable by its fingerprint (POST /api/secrets/reveal). */
  secrets: MaskedSecret[];
};
