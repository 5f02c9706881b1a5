// Owns reading a window of one thread: after an event, before one, or around one (half each side), with or
// without a filter, and locating "step N", "call X", "the next error". A 100k-call thread is never read whole:
// every answer is one keyset page or one ordered probe.
import "server-only";
import type { Database } from "../db/client.ts";
import { AppError } from "../http/app-error.ts";
import type { EventRow, ThreadRow } from "./repository.ts";
import {
  TIMELINE_PAGE_SIZE,
  type LocateQuery,
  type LocateResult,
  type TimelineFilter,
  type TimelinePage,
} from "./schemas.ts";
import { buildTimelinePage } from "./timeline-page.ts";
import {
  countMatches,
  findEventsFrom,
  findMatchingEventsFrom,
  hasEventBeyond,
  hasMatchBeyond,
  isFiltered,
  locateCall,
  locateMatch,
  locateStep,
  type Direction,
} from "./window-repository.ts";

export type TimelineWindowOptions = {
  after?: number;
  before?: number;
  around?: number;
  limit?: number;
} & TimelineFilter;

/** Larger than any row id: `before` this reads the end of the thread. */
const END = 2_147_483_647;

type Side = { rows: EventRow[]; more: boolean };

async function readSide(
  db: Database,
  threadId: number,
  filter: TimelineFilter,
  from: number,
  direction: Direction,
  limit: number,
  inclusive = false,
): Promise<Side> {
  if (limit <= 0) {
    const probe = direction === "after" && inclusive ? from - 1 : from;
    const more = isFiltered(filter)
      ? await hasMatchBeyond(db.client, threadId, filter, probe, direction)
      : await hasEventBeyond(db.client, threadId, probe, direction);
    return { rows: [], more };
  }
  const options = { threadId, from, direction, limit, inclusive };
  const fetched = isFiltered(filter)
    ? await findMatchingEventsFrom(db.client, { ...options, filter })
    : await findEventsFrom(db.client, options);
  if (fetched.length <= limit) return { rows: fetched, more: false };
  // One row beyond the limit was read to learn that more exist: drop it from the far end.
  return { rows: direction === "after" ? fetched.slice(0, limit) : fetched.slice(1), more: true };
}

/** The events of one window and what lies on either side of it. */
export async function readTimelineWindow(
  db: Database,
  thread: ThreadRow,
  options: TimelineWindowOptions,
): Promise<TimelinePage> {
  const limit = options.limit ?? TIMELINE_PAGE_SIZE;
  const filter: TimelineFilter = { q: options.q, only: options.only };
  let before: Side;
  let after: Side;
  let anchor: number;
  if (options.around !== undefined) {
    anchor = options.around;
    const earlier = Math.floor(limit / 2);
    [before, after] = await Promise.all([
      readSide(db, thread.id, filter, anchor, "before", earlier),
      readSide(db, thread.id, filter, anchor, "after", limit - earlier, true),
    ]);
  } else if (options.before !== undefined) {
    anchor = Math.min(options.before, END);
    [before, after] = await Promise.all([
      readSide(db, thread.id, filter, anchor, "before", limit),
      readSide(db, thread.id, filter, anchor - 1, "after", 0),
    ]);
  } else {
    anchor = options.after ?? 0;
    [before, after] = await Promise.all([
      readSide(db, thread.id, filter, anchor + 1, "before", 0),
      readSide(db, thread.id, filter, anchor, "after", limit),
    ]);
  }
  const rows = [...before.rows, ...after.rows];
  // Counted when a filtered view opens (a jump or the first page), not on every live poll of its tail.
  const opening = options.around !== undefined || options.before !== undefined || (options.after ?? 0) === 0;
  const matches = isFiltered(filter) && opening ? await countMatches(db.client, thread.id, filter) : null;
  const first = rows[0]?.id;
  const last = rows.at(-1)?.id;
  return buildTimelinePage(db, thread.groupId, rows, {
    hasBefore: before.more,
    hasMore: after.more,
    // An empty window still says where it stands, so paging on from it continues from the same place.
    firstEventId: first ?? (options.after !== undefined ? anchor + 1 : anchor),
    lastEventId:
      last ?? (options.before !== undefined ? anchor - 1 : options.around !== undefined ? anchor - 1 : anchor),
    matches,
    // Read with the thread, before the rows: a rewrite between the two shows up as a newer epoch on the next read.
    epoch: thread.timelineEpoch,
  });
}

/** Resolves a locate query to the event a window should centre on. */
export async function locateRow(db: Database, threadId: number, query: LocateQuery): Promise<LocateResult> {
  const filter: TimelineFilter = { q: query.q, only: query.only };
  let found;
  if (query.step !== undefined) found = await locateStep(db.client, threadId, query.step);
  else if (query.call !== undefined) found = await locateCall(db.client, threadId, query.call);
  else if (query.target !== undefined) {
    if (query.target === "end")
      found = await locateMatch(db.client, { threadId, filter: {}, from: END, direction: "prev" });
    else {
      const direction = query.direction ?? "next";
      const from = query.from ?? (direction === "next" ? 0 : END);
      // "match" walks the rows of the current search / filter; the others are fixed filters of their own.
      const targetFilter: TimelineFilter = query.target === "match" ? filter : { only: query.target };
      if (query.target === "match" && !isFiltered(filter))
        throw new AppError("invalid", "target=match needs q or only", { path: "target" });
      found = await locateMatch(db.client, { threadId, filter: targetFilter, from, direction });
    }
  } else throw new AppError("invalid", "Give one of step, call or target", { path: "target" });
  return { eventId: found?.eventId ?? null, callRowId: found?.callRowId ?? null };
}
