// Comparing two threads (a run and its re-run, or a thread and its fork): calls aligned step by step by tool name,
// with unified diffs of their arguments and first results, and the first divergence found.
import "server-only";
import { maskDto, type MaskedSecret } from "../audit/mask.ts";
import { getDatabase, type Database } from "../db/client.ts";
import { AppError } from "../http/app-error.ts";
import { diffSequences, unifiedDiff } from "./line-diff.ts";
import { findForkOrigin, findThread, listRecentThreads, type ThreadListItem } from "./repository/threads.ts";
import { countCalls, readCalls, readOutputTexts, readResults } from "./repository/timeline-reads.ts";

export type { ThreadListItem };

// Beyond this many calls per side the page would be unreadable and slow; the rest is counted, not shown.
export const MAX_COMPARED_CALLS = 1000;
/** The model's text answers compared per side (in order); a fork's changed final answer is among them. */
export const MAX_COMPARED_ANSWERS = 200;

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
  /** In a fork: "history" for calls copied from the original (edits applied), "run" for the ones its model made. */
  origin: "history" | "run" | null;
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

/** same · differs · only in A/B · edited (a fork's copied history where the fork's edit changed it). */
export type RowVerdict = "same" | "differs" | "only_a" | "only_b" | "edited";

export type CompareRow = {
  index: number;
  a: ComparedCall | null;
  b: ComparedCall | null;
  arguments: TextDiff;
  result: TextDiff;
  verdict: RowVerdict;
};

export type CompareSide = {
  groupId: string;
  title: string | null;
  vendor: string | null;
  callCount: number;
  shownCalls: number;
  /** The model's text answers (output_text events) compared: at most MAX_COMPARED_ANSWERS. */
  answerCount: number;
  /** Set when this side is a fork: the thread and step it was made from. */
  forkOf: { groupId: string | null; atStep: number | null } | null;
};

export type ThreadComparison = {
  a: CompareSide;
  b: CompareSide;
  rows: CompareRow[];
  /** The model's text answers of each side, numbered and joined, compared as one text. */
  answers: TextDiff;
  /** Only the first MAX_COMPARED_CALLS calls of a side were compared: no verdict speaks for the rest. */
  truncated: boolean;
  summary: {
    matched: number;
    onlyA: number;
    onlyB: number;
    argumentsDiffer: number;
    resultsDiffer: number;
    edited: number;
  };
  /** Index of the first row where the two runs went different ways (edits of a fork's history excepted); null when none did. */
  firstDivergence: number | null;
  /** When one side is a fork of the other: the index of the last row of the copied history (-1: none). */
  forkPoint: { side: "a" | "b"; atStep: number | null; lastHistoryRow: number } | null;
  /** Every value masked in this comparison; each is revealed on request (scopes: thread a, then b). */
  secrets: MaskedSecret[];
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

/** The answers as one text, each under a numbered marker line, so a diff says which answer changed. */
function joinAnswers(answers: readonly string[]): string | null {
  if (answers.length === 0) return null;
  return `${answers.map((text, index) => `── answer ${index + 1} ──\n${text}`).join("\n")}\n`;
}

async function loadSide(
  db: Database,
  groupId: string,
): Promise<{ side: CompareSide; calls: ComparedCall[]; answers: string[] }> {
  const thread = await findThread(db.client, groupId);
  if (thread === null) throw new AppError("not_found", `No thread "${groupId}"`);
  const fork = await findForkOrigin(db.client, thread.id);
  const calls = await readCalls(db.client, thread.id, MAX_COMPARED_CALLS + 1);
  const shown = calls.slice(0, MAX_COMPARED_CALLS);
  const lastShown = shown.at(-1);
  const firstResults =
    lastShown === undefined
      ? []
      : await readResults(db.client, thread.id, { firstOnly: true, upToCallId: lastShown.id });
  const results = new Map(firstResults.map((result) => [result.toolCallId, result]));
  const callCount = calls.length > MAX_COMPARED_CALLS ? await countCalls(db.client, thread.id) : calls.length;
  const answers = await readOutputTexts(db.client, thread.id, MAX_COMPARED_ANSWERS);
  return {
    side: {
      groupId: thread.groupId,
      title: thread.record.title,
      vendor: thread.record.vendor,
      callCount,
      shownCalls: shown.length,
      answerCount: answers.length,
      forkOf: fork === null ? null : { groupId: fork.forkOfGroupId, atStep: fork.atStep },
    },
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
        origin: fork === null ? null : call.id <= fork.historyEndCallId ? "history" : "run",
      };
    }),
    answers,
  };
}

function verdictOf(a: ComparedCall | null, b: ComparedCall | null, args: TextDiff, result: TextDiff): RowVerdict {
  if (a === null) return "only_b";
  if (b === null) return "only_a";
  if (args.same && result.same) return "same";
  // A difference in a fork's copied history is the person's edit, not the model going another way.
  return a.origin === "history" || b.origin === "history" ? "edited" : "differs";
}

/**
 * Alignment: the shortest edit script between the two sequences of tool names (in call order), so a call
 * inserted or dropped in the re-run shows as a one-sided row and the rest still line up. The first divergence is
 * the first row that is neither the same nor an edit of a fork's history.
 */
export async function compareThreads(options: {
  a: string;
  b: string;
  database?: Database;
}): Promise<ThreadComparison> {
  const db = options.database ?? (await getDatabase());
  const [left, right] = [await loadSide(db, options.a), await loadSide(db, options.b)];
  const ops = diffSequences(
    left.calls.map((call) => call.toolName),
    right.calls.map((call) => call.toolName),
  );
  const summary = { matched: 0, onlyA: 0, onlyB: 0, argumentsDiffer: 0, resultsDiffer: 0, edited: 0 };
  const rows = ops.map((op, index): CompareRow => {
    const a = op.kind === "insert" ? null : (left.calls[op.a] ?? null);
    const b = op.kind === "delete" ? null : (right.calls[op.b] ?? null);
    const args = compareTexts(a?.argumentsText ?? null, b?.argumentsText ?? null, "arguments");
    const result = compareTexts(a?.resultText ?? null, b?.resultText ?? null, "result");
    const verdict = verdictOf(a, b, args, result);
    if (a !== null && b !== null) {
      summary.matched += 1;
      if (!args.same) summary.argumentsDiffer += 1;
      if (!result.same) summary.resultsDiffer += 1;
      if (verdict === "edited") summary.edited += 1;
    } else if (a !== null) summary.onlyA += 1;
    else summary.onlyB += 1;
    return { index, a, b, arguments: args, result, verdict };
  });
  const divergence = rows.findIndex((row) => row.verdict !== "same" && row.verdict !== "edited");
  // Compared on the exact texts; every string masked before it reaches the page (lib/audit/mask).
  const { value, secrets } = maskDto({
    a: left.side,
    b: right.side,
    rows,
    answers: compareTexts(joinAnswers(left.answers), joinAnswers(right.answers), "answers"),
    truncated: left.side.shownCalls < left.side.callCount || right.side.shownCalls < right.side.callCount,
    summary,
    firstDivergence: divergence === -1 ? null : divergence,
    forkPoint: forkPoint(left.side, right.side, rows),
  });
  return { ...value, secrets };
}

function forkPoint(a: CompareSide, b: CompareSide, rows: readonly CompareRow[]): ThreadComparison["forkPoint"] {
  const side = b.forkOf?.groupId === a.groupId ? "b" : a.forkOf?.groupId === b.groupId ? "a" : null;
  if (side === null) return null;
  let lastHistoryRow = -1;
  rows.forEach((row, index) => {
    if (row[side]?.origin === "history") lastHistoryRow = index;
  });
  return { side, atStep: (side === "a" ? a : b).forkOf?.atStep ?? null, lastHistoryRow };
}

/** Threads to pick from on the compare page. */
export async function listComparableThreads(
  options: { limit?: number; database?: Database } = {},
): Promise<ThreadListItem[]> {
  const db = options.database ?? (await getDatabase());
  return listRecentThreads(db.client, options.limit ?? 200);
}
