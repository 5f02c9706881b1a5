// Owns the threads list and timeline contracts: zod schemas for their query strings and the DTO types
// that routes, pages and client components share. Client-safe (no server imports).
import { z } from "zod";
import type { ModelTurnBrief, ThreadCost, ThreadUsageBrief, TurnUsage } from "../model-turns/schemas.ts";

export const CALL_STATUSES = ["pending", "completed", "errored", "timed_out", "cancelled", "auth_required"] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

/** Last-activity windows the list can be narrowed to, with their length in milliseconds. */
export const TIME_RANGES = {
  "15m": 15 * 60_000,
  "1h": 3_600_000,
  "24h": 86_400_000,
  "7d": 7 * 86_400_000,
  "30d": 30 * 86_400_000,
} as const;
export type TimeRange = keyof typeof TIME_RANGES;
const TIME_RANGE_KEYS = ["15m", "1h", "24h", "7d", "30d"] as const satisfies readonly TimeRange[];

export const SEARCH_SCOPES = ["ids", "text"] as const;
export type SearchScope = (typeof SEARCH_SCOPES)[number];

export const THREAD_PAGE_SIZE = 50;
export const MAX_THREAD_PAGE_SIZE = 200;

// An empty form field arrives as "": treat it as absent rather than as an invalid value.
const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);
const flag = z.preprocess(blankToUndefined, z.enum(["1"]).optional());

export const threadListQuerySchema = z.object({
  q: z
    .preprocess(blankToUndefined, z.string().trim().max(200).optional())
    .describe("Search: group id and tool name (contains)"),
  in: z.preprocess(blankToUndefined, z.enum(SEARCH_SCOPES).optional()).describe('"text" also searches result text'),
  status: z
    .preprocess(blankToUndefined, z.enum(CALL_STATUSES).optional())
    .describe("Threads with at least one call in this status"),
  errors: flag.describe("1: threads with an error (an errored or timed-out call, or a runtime error event)"),
  pending: flag.describe("1: threads with a call awaiting its result"),
  range: z
    .preprocess(blankToUndefined, z.enum(TIME_RANGE_KEYS).optional())
    .describe("Last activity within this window"),
  after: z
    .preprocess(blankToUndefined, z.string().max(200).optional())
    .describe("Cursor: the page after this one (older threads)"),
  before: z
    .preprocess(blankToUndefined, z.string().max(200).optional())
    .describe("Cursor: the page before this one (newer threads)"),
  limit: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(MAX_THREAD_PAGE_SIZE).optional()),
});
export type ThreadListQuery = z.infer<typeof threadListQuerySchema>;

/** The filters part of the query (no cursor): what the URL keeps when paging. */
export type ThreadFilters = Omit<ThreadListQuery, "after" | "before" | "limit">;

export type ThreadCounts = {
  calls: number;
  pending: number;
  errored: number;
  timedOut: number;
  results: number;
  /** Runtime/protocol/model error events recorded in the thread. */
  errorEvents: number;
  /** Failures, each once: errored and timed-out calls, plus error events not about one of those calls. */
  errors: number;
};

export type ThreadListItem = {
  groupId: string;
  title: string | null;
  vendor: string | null;
  createdAt: string;
  lastActivityAt: string;
  counts: ThreadCounts;
  /** The most used tool names in the thread (at most 4), most used first. */
  tools: string[];
  /** Model turns, tokens and cost (null when no model turn has a known price); null when it has no turns. */
  usage: ThreadUsageBrief | null;
};

export type ThreadListPage = {
  threads: ThreadListItem[];
  /** Cursor of the next (older) page, null on the last page. */
  nextCursor: string | null;
  /** Cursor of the previous (newer) page, null on the first page. */
  prevCursor: string | null;
};

// ─── timeline ────────────────────────────────────────────────────────────────────────────────────

export const TIMELINE_PAGE_SIZE = 500;
export const MAX_TIMELINE_PAGE_SIZE = 2000;

/** Row filters inside one thread: errors (error events, errored / timed-out calls, failed results), pending calls, low confidence. */
export const TIMELINE_ONLY = ["errors", "pending", "low_confidence", "calls"] as const;
export type TimelineOnly = (typeof TIMELINE_ONLY)[number];
/** Below this confidence a result counts as "low confidence" for the thread's filter and navigation. */
export const LOW_CONFIDENCE = 0.5;

const eventIdParam = z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(2_147_483_647).optional());
const timelineFilterShape = {
  q: z
    .preprocess(blankToUndefined, z.string().trim().max(200).optional())
    .describe("Search: tool name, call id, arguments, result and event text (contains)"),
  only: z.preprocess(blankToUndefined, z.enum(TIMELINE_ONLY).optional()).describe("Only these rows"),
};

export const timelineQuerySchema = z
  .object({
    after: eventIdParam.describe("Events with an id greater than this (reading forwards)"),
    before: eventIdParam.describe("Events with an id less than this, the closest ones (reading backwards)"),
    around: eventIdParam.describe("A window centred on this event id (half before it, the rest from it on)"),
    limit: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(MAX_TIMELINE_PAGE_SIZE).optional()),
    ...timelineFilterShape,
  })
  .refine((query) => [query.after, query.before, query.around].filter((value) => value !== undefined).length <= 1, {
    message: "give at most one of after, before, around",
    path: ["around"],
  });
export type TimelineQuery = z.infer<typeof timelineQuerySchema>;
export type TimelineFilter = { q?: string; only?: TimelineOnly };

export const LOCATE_TARGETS = ["errors", "pending", "low_confidence", "match", "end"] as const;
export type LocateTarget = (typeof LOCATE_TARGETS)[number];

/** GET /api/threads/{groupId}/locate: one of (target + direction + from), step, call, event. */
export const locateQuerySchema = z.object({
  target: z
    .preprocess(blankToUndefined, z.enum(LOCATE_TARGETS).optional())
    .describe("The next / previous row of this kind (match: rows matching q / only)"),
  direction: z.preprocess(blankToUndefined, z.enum(["next", "prev"]).optional()),
  from: eventIdParam.describe("Start after (next) or before (prev) this event id"),
  step: z
    .preprocess(blankToUndefined, z.coerce.number().int().min(0).max(2_147_483_647).optional())
    .describe("The first row of this model step (or the next step that exists)"),
  call: z
    .preprocess(blankToUndefined, z.string().trim().max(500).optional())
    .describe("A call by its id (the protocol's id or the vendor's call id)"),
  ...timelineFilterShape,
});
export type LocateQuery = z.infer<typeof locateQuerySchema>;

/** The thread page's own query: a filter, and where to open (a call, a step or an event). */
export const threadPageQuerySchema = z.object({
  ...timelineFilterShape,
  call: z.preprocess(blankToUndefined, z.string().trim().max(500).optional()),
  step: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(2_147_483_647).optional()),
  event: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(2_147_483_647).optional()),
});

/** Where a locate request landed: the event to centre a window on, or null when nothing matches. */
export type LocateResult = { eventId: number | null; callRowId: number | null };

/** What a call row of the timeline needs about the newest result; bodies are loaded on demand. */
export type ResultBrief = {
  id: number;
  ordinal: number;
  receivedAt: string;
  late: boolean;
  displayKind: string;
  /** The chosen display in one line: the text segment, or the diff's path; null when showing the raw text. */
  displayLabel: string | null;
  isError: boolean;
  errorSource: string | null;
  envelopeKind: string | null;
  success: boolean | null;
  confidence: number | null;
  nextAction: string | null;
  isMcp: boolean;
  schemaStatus: string | null;
  textBytes: number;
  invisibleCount: number;
  secretCount: number;
  /** The start of the text with secrets masked and invisible characters revealed. */
  preview: string;
  previewTruncated: boolean;
};

export type CallBrief = {
  id: number;
  callKey: string;
  callId: string | null;
  toolName: string;
  status: string;
  step: number | null;
  subscription: string | null;
  vendor: string | null;
  requestedAt: string;
  completedAt: string | null;
  deadlineAt: string | null;
  timedOutAt: string | null;
  resultCount: number;
  /** One line of compact JSON (or the raw text when it is not JSON), masked, at most ~200 characters. */
  argumentsPreview: string;
  argumentsIsJson: boolean;
  latestResult: ResultBrief | null;
};

export type TimelineEvent = {
  id: number;
  kind: string;
  step: number | null;
  role: string | null;
  occurredAt: string;
  source: string;
  /** The start of the event text (model output, message, reasoning, error message, cancel reason), masked. */
  text: string | null;
  textTruncated: boolean;
  /** Error layer (runtime/protocol/model) when the event is an error. */
  layer: string | null;
  callRowId: number | null;
  resultId: number | null;
  /** A model_turn row's figures (lib/model-turns); null on every other row. */
  turn?: ModelTurnBrief | null;
};

export type TimelinePage = {
  groupId: string;
  events: TimelineEvent[];
  /** The current state of every call the events mention (a later page or poll supersedes an earlier one). */
  calls: CallBrief[];
  /** More events exist after the last one returned. */
  hasMore: boolean;
  /** More (matching) events exist before the first one returned. */
  hasBefore: boolean;
  /** The id to pass as `before` for the previous page (the first event's id, or the position read from when empty). */
  firstEventId: number;
  /** Rows matching the filter in the whole thread: on a filtered page read from the start, before or around an event; else null. */
  matches: number | null;
  /** The id to pass as `after` for the next page (the last event's id, or `after` when empty). */
  lastEventId: number;
  /**
   * The thread's timeline epoch when the page was read: it grows when rows already on the timeline were deleted
   * and written again (OTel re-mapping). A view holding pages of an older epoch reads its window again.
   */
  epoch: number;
};

export type ThreadSummary = {
  groupId: string;
  title: string | null;
  vendor: string | null;
  createdAt: string;
  lastActivityAt: string;
  counts: ThreadCounts;
  eventCount: number;
  /** Model turns from every way in (OTLP chat spans, imports, forks) and their summed tokens. */
  modelTurns: number;
  usage: TurnUsage;
  /** At the server's price table; a model it does not know is listed, never priced at 0. */
  cost: ThreadCost;
};

/** Full text of one timeline event (GET /api/threads/{groupId}/events/{eventId}/text). */
export type EventText = { id: number; text: string };
