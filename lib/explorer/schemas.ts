// The calls explorer's contract (page /calls, GET /api/calls): the query (every filter, the sort, the keyset
// cursor), the item DTO and the page. Client-safe: the page's filter form builds URLs from the same schema.
import { z } from "zod";
import { NEXT_ACTIONS } from "../results/envelope.ts";
import type { Verdict } from "../results/verdict.ts";
import { CALL_STATUSES } from "../threads/schemas.ts";

export const EXPLORER_SORTS = ["newest", "oldest", "slowest", "fastest", "confidence_low", "confidence_high"] as const;
export type ExplorerSort = (typeof EXPLORER_SORTS)[number];
export const ENVELOPE_FILTERS = ["trusted", "valid", "partial", "invalid", "none"] as const;
export const EXPLORER_PAGE_SIZE = 50;
export const EXPLORER_MAX_PAGE_SIZE = 200;
/** Error "types" that are not an envelope's error.type but the signal that made a result an error (as Insights names them). */
export const DEADLINE_PASSED = "deadline passed";
export const SIGNAL_ERROR_TYPES = {
  "MCP isError": "mcp",
  '"Error: " text': "error_prefix",
  "envelope failure (no type)": "envelope",
} as const;

const blank = (value: unknown) => (value === "" ? undefined : value);
const text = (max: number) => z.preprocess(blank, z.string().trim().min(1).max(max).optional());
const number = (min: number, max: number) =>
  z.preprocess(blank, z.coerce.number().finite().min(min).max(max).optional());
const flag = z.preprocess(blank, z.enum(["1"]).optional());
const isoTime = z.preprocess(
  blank,
  z
    .string()
    // A form's datetime-local value (no zone) is read as UTC, as the page labels it.
    .transform((value) => (/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(value) ? `${value}Z` : value))
    .refine((value) => !Number.isNaN(Date.parse(value)), "must be a date and time (ISO 8601)")
    .transform((value) => new Date(Date.parse(value)).toISOString())
    .optional(),
);

export const explorerQuerySchema = z.object({
  tool: text(200).describe("Tool name, exactly"),
  status: z.preprocess(blank, z.enum(CALL_STATUSES).optional()).describe("Call status"),
  errorType: text(200).describe(
    `The newest result's error type (envelope error.type), or ${Object.keys(SIGNAL_ERROR_TYPES)
      .map((k) => JSON.stringify(k))
      .join(", ")}, or "${DEADLINE_PASSED}"`,
  ),
  vendor: text(64).describe("The encoding the call came from (anthropic, openai-chat, …)"),
  latencyMin: number(0, 1e12).describe("Latency ≥ this many milliseconds"),
  latencyMax: number(0, 1e12).describe("Latency ≤ this many milliseconds"),
  confidenceMin: number(-1e9, 1e9).describe("Confidence ≥ this"),
  confidenceBelow: number(-1e9, 1e9).describe("Confidence < this"),
  confidenceMax: number(-1e9, 1e9).describe("Confidence ≤ this"),
  isError: flag.describe("1: the newest result is an error"),
  nextAction: z.preprocess(blank, z.enum(NEXT_ACTIONS).optional()).describe("The newest result's nextAction"),
  envelope: z
    .preprocess(blank, z.enum(ENVELOPE_FILTERS).optional())
    .describe('Envelope kind; "trusted" = valid or partial'),
  late: flag.describe("1: a result arrived after the deadline"),
  timedOut: flag.describe("1: the deadline passed before a result"),
  from: isoTime.describe("Requested at or after (ISO 8601)"),
  to: isoTime.describe("Requested before (ISO 8601)"),
  thread: text(500).describe("The thread's group id"),
  q: text(200).describe("Words that must all appear in the arguments or a result text (full-text index)"),
  sort: z.preprocess(blank, z.enum(EXPLORER_SORTS).default("newest")),
  cursor: text(400).describe("nextCursor of the previous page"),
  limit: z.preprocess(blank, z.coerce.number().int().min(1).max(EXPLORER_MAX_PAGE_SIZE).default(EXPLORER_PAGE_SIZE)),
});

export type ExplorerQuery = z.infer<typeof explorerQuerySchema>;
/** The filters alone (what a URL carries besides sort, cursor and limit). */
export type ExplorerFilters = Omit<ExplorerQuery, "sort" | "cursor" | "limit">;

export type ExplorerCall = {
  id: number;
  groupId: string;
  callKey: string;
  toolName: string;
  vendor: string | null;
  step: number | null;
  status: string;
  requestedAt: string;
  completedAt: string | null;
  deadlineAt: string | null;
  timedOutAt: string | null;
  resultCount: number;
  /**
   * What sorts and filters use: the first result's tool-reported duration (meta.durationMs) when there is one,
   * else the observed time from request to first result; null before a result.
   */
  latencyMs: number | null;
  /** The first result's meta.durationMs, as the tool reported it; null when it reported none. */
  reportedMs: number | null;
  /** Observed by Toolscope: request to completion, in ms; null before a result or when the trace has no timing (0). */
  observedMs: number | null;
  late: boolean;
  envelopeKind: string | null;
  success: boolean | null;
  isError: boolean | null;
  errorType: string | null;
  confidence: number | null;
  nextAction: string | null;
  verdict: Pick<Verdict, "state" | "tone" | "label" | "band" | "action">;
};

/** How a full-text search went: how common each word is, and whether the walk was cut short. */
export type ExplorerSearch = {
  /** Texts holding each word, counted up to a cap: `more` when there are more than `matches`. */
  words: { word: string; matches: number; more: boolean }[];
  /**
   * Calls walked in the order before this page was cut short (the time box was spent before a page filled): the
   * items are the matches among them, and `nextCursor` searches further. Null when the search ran to the end.
   */
  stoppedAfter: number | null;
};

export type ExplorerPage = {
  items: ExplorerCall[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
  sort: ExplorerSort;
  limit: number;
  /** Present when `q` was given. */
  search?: ExplorerSearch;
};

/** The URL of the explorer for a filter set (empty values dropped), for links from Insights and elsewhere. */
export function explorerHref(
  filters: Partial<Record<keyof ExplorerQuery, string | number | undefined | null>>,
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters))
    if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  const search = params.toString();
  return `/calls${search ? `?${search}` : ""}`;
}
