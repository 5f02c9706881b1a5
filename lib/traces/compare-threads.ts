// Comparing two threads (a run and its re-run): calls aligned step by step by tool name, with unified diffs of
// their arguments and first results.
import "server-only";
import { getDatabase, type Database } from "../db/client.ts";
import { AppError } from "../http/app-error.ts";
import { diffSequences, unifiedDiff } from "./line-diff.ts";
import { findThread, listRecentThreads, type ThreadListItem } from "./repository/threads.ts";
import { countCalls, readCalls, readResults } from "./repository/timeline-reads.ts";

export type { ThreadListItem };

// Beyond this many calls per side the page would be unreadable and slow; the rest is counted, not shown.
export const MAX_COMPARED_CALLS = 1000;

export type ComparedCall = {
  callKey: string;
  toolName: string;
  step: number | null;
  status: string;
  position: number;
  resultCount: number;
  argumentsText: string | null;
  resultText: string | null;
  resultIsError: boolean;
};

export type TextDiff = {
  same: boolean;
  /** Unified diff text (git style), or null when equal or when one side is missing. */
  diff: string | null;
  added: number;
  removed: number;
  /** Both sides were JSON and are compared pretty-printed, so a diff is per field. */
  prettyJson: boolean;
};

export type CompareRow = {
  index: number;
  a: ComparedCall | null;
  b: ComparedCall | null;
  arguments: TextDiff;
  result: TextDiff;
};

export type CompareSide = { groupId: string; title: string | null; vendor: string | null; callCount: number; shownCalls: number };

export type ThreadComparison = {
  a: CompareSide;
  b: CompareSide;
  rows: CompareRow[];
  summary: { matched: number; onlyA: number; onlyB: number; argumentsDiffer: number; resultsDiffer: number };
};

function prettyJson(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return null;
  try {
    return `${JSON.stringify(JSON.parse(trimmed), null, 2)}\n`;
  } catch {
    return null;
  }
}

/** Compares two texts; JSON on both sides is compared pretty-printed so that one changed field is one changed line. */
export function compareTexts(a: string | null, b: string | null, name: string): TextDiff {
  if (a === null || b === null) return { same: a === b, diff: null, added: 0, removed: 0, prettyJson: false };
  const prettyA = prettyJson(a);
  const prettyB = prettyJson(b);
  const both = prettyA !== null && prettyB !== null;
  const diff = unifiedDiff(both ? prettyA : a, both ? prettyB : b, { name });
  // Pretty-printing can hide a difference in whitespace only; the raw texts decide "same".
  if (diff === null) return { same: a === b, diff: null, added: 0, removed: 0, prettyJson: both };
  return { same: false, diff: diff.text, added: diff.added, removed: diff.removed, prettyJson: both };
}

async function loadSide(db: Database, groupId: string): Promise<{ side: CompareSide; calls: ComparedCall[] }> {
  const thread = await findThread(db.client, groupId);
  if (thread === null) throw new AppError("not_found", `No thread "${groupId}"`);
  const calls = await readCalls(db.client, thread.id, MAX_COMPARED_CALLS + 1);
  const shown = calls.slice(0, MAX_COMPARED_CALLS);
  const lastShown = shown.at(-1);
  const firstResults = lastShown === undefined ? [] : await readResults(db.client, thread.id, { firstOnly: true, upToCallId: lastShown.id });
  const results = new Map(firstResults.map((result) => [result.toolCallId, result]));
  const callCount = calls.length > MAX_COMPARED_CALLS ? await countCalls(db.client, thread.id) : calls.length;
  return {
    side: { groupId: thread.groupId, title: thread.record.title, vendor: thread.record.vendor, callCount, shownCalls: shown.length },
    calls: shown.map((call, position) => {
      const result = results.get(call.id);
      return {
        callKey: call.callKey,
        toolName: call.toolName,
        step: call.step,
        status: call.status,
        position,
        resultCount: call.resultCount,
        argumentsText: call.argumentsText,
        resultText: result?.text ?? null,
        resultIsError: result?.isError ?? false,
      };
    }),
  };
}

/**
 * Alignment: the shortest edit script between the two sequences of tool names (in call order), so a call
 * inserted or dropped in the re-run shows as a one-sided row and the rest still line up.
 */
export async function compareThreads(options: { a: string; b: string; database?: Database }): Promise<ThreadComparison> {
  const db = options.database ?? (await getDatabase());
  const [left, right] = [await loadSide(db, options.a), await loadSide(db, options.b)];
  const ops = diffSequences(
    left.calls.map((call) => call.toolName),
    right.calls.map((call) => call.toolName),
  );
  const summary = { matched: 0, onlyA: 0, onlyB: 0, argumentsDiffer: 0, resultsDiffer: 0 };
  const rows = ops.map((op, index): CompareRow => {
    const a = op.kind === "insert" ? null : (left.calls[op.a] ?? null);
    const b = op.kind === "delete" ? null : (right.calls[op.b] ?? null);
    const args = compareTexts(a?.argumentsText ?? null, b?.argumentsText ?? null, "arguments");
    const result = compareTexts(a?.resultText ?? null, b?.resultText ?? null, "result");
    if (a !== null && b !== null) {
      summary.matched += 1;
      if (!args.same) summary.argumentsDiffer += 1;
      if (!result.same) summary.resultsDiffer += 1;
    } else if (a !== null) summary.onlyA += 1;
    else summary.onlyB += 1;
    return { index, a, b, arguments: args, result };
  });
  return { a: left.side, b: right.side, rows, summary };
}

/** Threads to pick from on the compare page. */
export async function listComparableThreads(options: { limit?: number; database?: Database } = {}): Promise<ThreadListItem[]> {
  const db = options.database ?? (await getDatabase());
  return listRecentThreads(db.client, options.limit ?? 200);
}
