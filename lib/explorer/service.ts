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
  type CallFilters,
  type CallOrder,
  type CallRow,
} from "./repository.ts";
import {
  DEADLINE_PASSED,
  SIGNAL_ERROR_TYPES,
  type ExplorerCall,
  type ExplorerFilters,
  type ExplorerPage,
  type ExplorerQuery,
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
async function searchShapes(database: Database, words: string[]): Promise<NonNullable<CallFilters["words"]>> {
  const threshold =
    database.provider === "postgresql"
      ? 2_000
      : Math.max(2_000, Math.round(Math.sqrt(51 * 40 * (await countCalls(database.client)))));
  return Promise.all(
    words.map(async (word) => ({
      word,
      shape:
        (await countWordMatches(database.client, database.provider, word, threshold + 1)) > threshold
          ? "probe"
          : "drive",
    })),
  );
}

export async function toCallFilters(query: ExplorerFilters, database: Database): Promise<CallFilters> {
  let words: CallFilters["words"];
  if (query.q !== undefined) {
    const found = searchWords(query.q);
    if (found.length === 0) throw new AppError("invalid", "q: has no letters or digits to search for", { path: "q" });
    words = await searchShapes(database, found);
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

export async function exploreCalls(query: ExplorerQuery, options: { database?: Database } = {}): Promise<ExplorerPage> {
  const database = options.database ?? (await getDatabase());
  const order = ORDERS[query.sort];
  let after: { key: Date | number; id: number } | null = null;
  if (query.cursor !== undefined) {
    const cursor = decodeExplorerCursor(query.cursor);
    const wantsTime = order.column === "requestedAt";
    if (cursor === null || (typeof cursor.key === "string") !== wantsTime) {
      throw new AppError("invalid", "cursor: not a cursor of this sort (start again from the first page)", {
        path: "cursor",
      });
    }
    after = { key: typeof cursor.key === "string" ? new Date(cursor.key) : cursor.key, id: cursor.id };
  }
  // One row more than the page tells whether there is a next page without counting.
  const rows = await findCallsPage(database.client, database.provider, {
    filters: await toCallFilters(query, database),
    order,
    after,
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  let nextCursor: string | null = null;
  if (rows.length > query.limit && last !== undefined) {
    const key =
      order.column === "requestedAt"
        ? last.requestedAt.toISOString()
        : order.column === "latencyMs"
          ? last.latencyMs
          : last.resultConfidence;
    if (key !== null) nextCursor = encodeExplorerCursor({ key, id: last.id });
  }
  const firsts = await findFirstResults(
    database.client,
    page.map((row) => row.id),
  );
  return {
    items: page.map((row) => toItem(row, firsts.get(row.id))),
    nextCursor,
    sort: query.sort,
    limit: query.limit,
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
