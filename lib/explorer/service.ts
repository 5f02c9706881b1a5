// The calls explorer (/calls, GET /api/calls): turns the URL's query into filters and a keyset order, reads one
// page, and gives each call the one verdict (lib/results/verdict). Also the call page's "replay at this step".
import "server-only";
import { getDatabase, type Database } from "../db/client.ts";
import { AppError } from "../http/app-error.ts";
import { deriveVerdict } from "../results/verdict.ts";
import { decodeExplorerCursor, encodeExplorerCursor } from "./cursor.ts";
import {
  countCalls,
  countWordMatches,
  findCallsPage,
  findReplayStep,
  findFirstResults,
  findToolNames,
  findWalkEnd,
  type CallFilters,
  type CallOrder,
  type CallRow,
  type KeysetPosition,
} from "./repository.ts";
import {
  DEADLINE_PASSED,
  SIGNAL_ERROR_TYPES,
  type ExplorerCall,
  type ExplorerFilters,
  type ExplorerPage,
  type ExplorerQuery,
  type ExplorerSearch,
  type ExplorerSort,
} from "./schemas.ts";

const ORDERS: Record<ExplorerSort, CallOrder> = {
  newest: { column: "requestedAt", direction: "desc" },
  oldest: { column: "requestedAt", direction: "asc" },
  slowest: { column: "latencyMs", direction: "desc" },
  fastest: { column: "latencyMs", direction: "asc" },
  confidence_low: { column: "resultConfidence", direction: "asc" },
  confidence_high: { column: "resultConfidence", direction: "desc" },
};

/** The words of a search: runs of letters and digits (what both full-text indexes tokenize), at most 8. */
export function searchWords(q: string): string[] {
  return (q.match(/[\p{L}\p{N}_]+/gu) ?? []).slice(0, 8);
}

function errorTypeFilter(value: string): CallFilters["errorType"] {
  if (value === DEADLINE_PASSED) return { kind: "deadline" };
  if (value === "error") return { kind: "untyped" };
  const source = Object.entries(SIGNAL_ERROR_TYPES).find(([label]) => label === value)?.[1];
  return source ? { kind: "signal", source } : { kind: "type", value };
}

/**
 * Per word, the query shape (repository searchCondition): "probe" when the word is common enough that walking the
 * order finds a page sooner than listing every match. Measured on SQLite at 1M calls: listing costs ~15 µs per
 * match, probing ~0.6 ms per call walked. A walk meets matches at their density among calls (a filter narrows the
 * walk and the matches alike), so a page of 51 takes ~51 × calls / matches probes: probing wins above
 * √(51 × 40 × calls) matches (~45,000 at 1M calls), filtered or not. (A fixed 2,000 when filtered sent
 * `q=word_42&tool=deploy` — 2,200 matches in 1.1M calls — into a 25,000-call walk: 11 s.) On PostgreSQL listing
 * rechecks every match against its text (~30 µs each), so probing wins from ~2,000 matches (the count itself is
 * capped there, as it costs a recheck per match).
 */
async function searchShapes(database: Database, words: string[], limits: SearchLimits): Promise<SearchWord[]> {
  const threshold =
    limits.probeAbove ??
    (database.provider === "postgresql"
      ? 2_000
      : Math.max(2_000, Math.round(Math.sqrt(51 * 40 * (await countCalls(database.client))))));
  return Promise.all(
    words.map(async (word) => {
      const matches = await countWordMatches(database.client, database.provider, word, threshold + 1);
      const more = matches > threshold;
      return {
        word,
        shape: more ? "probe" : "drive",
        matches: Math.min(matches, threshold),
        more,
      };
    }),
  );
}

type SearchWord = NonNullable<CallFilters["words"]>[number] & {
  matches: number;
  more: boolean;
};

/**
 * A probed search walks the order asking the index about each call; when the filters leave few matches along the
 * way (a common word in a tool that rarely says it), that walk could run for seconds. So it walks in pieces of
 * SEARCH_PIECE calls and stops once SEARCH_TIME_BOX_MS are spent: the page shows the matches found so far, says how
 * far it looked, and its next cursor searches on from there. Measured at 1M calls on SQLite: ~0.6 ms per probed call.
 */
const SEARCH_PIECE = 250;
const SEARCH_TIME_BOX_MS = 200;

/** The search's bounds; tests shrink them to see a bounded walk on a small database. */
export type SearchLimits = {
  probeAbove?: number;
  pieceCalls?: number;
  timeBoxMs?: number;
};

async function walkSearch(
  database: Database,
  options: {
    filters: CallFilters;
    order: CallOrder;
    after: KeysetPosition | null;
    limit: number;
  },
  limits: SearchLimits,
): Promise<{
  rows: CallRow[];
  stoppedAt: KeysetPosition | null;
  walked: number;
}> {
  const pieceCalls = limits.pieceCalls ?? SEARCH_PIECE;
  const timeBoxMs = limits.timeBoxMs ?? SEARCH_TIME_BOX_MS;
  const started = performance.now();
  const rows: CallRow[] = [];
  let after = options.after;
  let walked = 0;
  for (;;) {
    const piece = { filters: options.filters, order: options.order, after };
    rows.push(
      ...(await findCallsPage(database.client, database.provider, {
        ...piece,
        limit: options.limit - rows.length,
        scan: pieceCalls,
      })),
    );
    if (rows.length >= options.limit) return { rows, stoppedAt: null, walked };
    const end = await findWalkEnd(database.client, database.provider, {
      ...piece,
      scan: pieceCalls,
    });
    if (end === null) return { rows, stoppedAt: null, walked };
    walked += pieceCalls;
    after = end;
    if (performance.now() - started >= timeBoxMs) return { rows, stoppedAt: end, walked };
  }
}

export async function toCallFilters(
  query: ExplorerFilters,
  database: Database,
  limits: SearchLimits = {},
): Promise<Omit<CallFilters, "words"> & { words?: SearchWord[] }> {
  let words: SearchWord[] | undefined;
  if (query.q !== undefined) {
    const found = searchWords(query.q);
    if (found.length === 0) throw new AppError("invalid", "q: has no letters or digits to search for", { path: "q" });
    words = await searchShapes(database, found, limits);
  }
  return {
    tool: query.tool,
    status: query.status,
    errorType: query.errorType === undefined ? undefined : errorTypeFilter(query.errorType),
    vendor: query.vendor,
    latencyMin: query.latencyMin,
    latencyMax: query.latencyMax,
    confidenceMin: query.confidenceMin,
    confidenceBelow: query.confidenceBelow,
    confidenceMax: query.confidenceMax,
    isError: query.isError === "1" || undefined,
    nextAction: query.nextAction,
    envelope: query.envelope,
    late: query.late === "1" || undefined,
    timedOut: query.timedOut === "1" || undefined,
    from: query.from === undefined ? undefined : new Date(query.from),
    to: query.to === undefined ? undefined : new Date(query.to),
    groupId: query.thread,
    words,
  };
}

type FirstResult = { receivedAt: Date | null; reportedMs: number | null };

/** Request to first result as Toolscope saw it; null without a result, or when both are one instant (an import without timing). */
function observedMs(row: CallRow, first: FirstResult | undefined): number | null {
  if (first?.receivedAt == null) return null;
  const ms = first.receivedAt.getTime() - row.requestedAt.getTime();
  return ms > 0 ? ms : null;
}

function toItem(row: CallRow, first: FirstResult | undefined): ExplorerCall {
  const verdict = deriveVerdict({
    hasResult: row.resultCount > 0,
    envelopeKind: row.resultEnvelopeKind,
    success: row.resultSuccess,
    confidence: row.resultConfidence,
    nextAction: row.resultNextAction,
    isError: row.resultIsError === true,
  });
  return {
    id: row.id,
    groupId: row.groupId,
    callKey: row.callKey,
    toolName: row.toolName,
    vendor: row.vendor,
    step: row.step,
    status: row.status,
    requestedAt: row.requestedAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
    deadlineAt: row.deadlineAt?.toISOString() ?? null,
    timedOutAt: row.timedOutAt?.toISOString() ?? null,
    resultCount: row.resultCount,
    latencyMs: row.latencyMs,
    reportedMs: first?.reportedMs ?? null,
    observedMs: observedMs(row, first),
    late: row.resultLate,
    envelopeKind: row.resultEnvelopeKind,
    success: row.resultSuccess,
    isError: row.resultIsError,
    errorType: row.resultErrorType,
    confidence: row.resultConfidence,
    nextAction: row.resultNextAction,
    verdict: {
      state: verdict.state,
      tone: verdict.tone,
      label: verdict.label,
      band: verdict.band,
      action: verdict.action,
    },
  };
}

export async function exploreCalls(
  query: ExplorerQuery,
  options: { database?: Database; searchLimits?: SearchLimits } = {},
): Promise<ExplorerPage> {
  const database = options.database ?? (await getDatabase());
  const order = ORDERS[query.sort];
  let after: KeysetPosition | null = null;
  if (query.cursor !== undefined) {
    const cursor = decodeExplorerCursor(query.cursor);
    const wantsTime = order.column === "requestedAt";
    if (cursor === null || (typeof cursor.key === "string") !== wantsTime) {
      throw new AppError("invalid", "cursor: not a cursor of this sort (start again from the first page)", {
        path: "cursor",
      });
    }
    after = {
      key: typeof cursor.key === "string" ? new Date(cursor.key) : cursor.key,
      id: cursor.id,
    };
  }
  // One row more than the page tells whether there is a next page without counting.
  const limits = options.searchLimits ?? {};
  const filters = await toCallFilters(query, database, limits);
  const probed = (filters.words ?? []).some((word) => word.shape === "probe");
  const pageOptions = { filters, order, after, limit: query.limit + 1 };
  const walk = probed
    ? await walkSearch(database, pageOptions, limits)
    : {
        rows: await findCallsPage(database.client, database.provider, pageOptions),
        stoppedAt: null,
        walked: 0,
      };
  const rows = walk.rows;
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  let nextCursor: string | null = null;
  if (walk.stoppedAt !== null) {
    const { key, id } = walk.stoppedAt;
    nextCursor = encodeExplorerCursor({
      key: key instanceof Date ? key.toISOString() : key,
      id,
    });
  } else if (rows.length > query.limit && last !== undefined) {
    const key =
      order.column === "requestedAt"
        ? last.requestedAt.toISOString()
        : order.column === "latencyMs"
          ? last.latencyMs
          : last.resultConfidence;
    if (key !== null) nextCursor = encodeExplorerCursor({ key, id: last.id });
  }
  const search: ExplorerSearch | undefined = filters.words
    ? {
        words: filters.words.map(({ word, matches, more }) => ({
          word,
          matches,
          more,
        })),
        stoppedAfter: walk.stoppedAt === null ? null : walk.walked,
      }
    : undefined;
  const firsts = await findFirstResults(
    database.client,
    page.map((row) => row.id),
  );
  return {
    items: page.map((row) => toItem(row, firsts.get(row.id))),
    nextCursor,
    sort: query.sort,
    limit: query.limit,
    ...(search ? { search } : {}),
  };
}

/** The replay step showing this call with its newest result, or null when it has no timeline event. */
export async function getReplayStep(options: {
  callRowId: number;
  database?: Database;
}): Promise<{ groupId: string; step: number } | null> {
  const database = options.database ?? (await getDatabase());
  return findReplayStep(database.client, options.callRowId);
}

/** Tool names for the filter's suggestions (at most 500). */
export async function listToolNames(options: { database?: Database } = {}): Promise<string[]> {
  const database = options.database ?? (await getDatabase());
  return findToolNames(database.client, 500);
}
