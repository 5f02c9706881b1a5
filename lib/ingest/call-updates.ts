// The call rows' side of a callback batch (lib/ingest/repository.ts writes the rest): each touched call's
// status, counters and — on SQLite — the explorer columns its results' insert trigger would write.
import "server-only";
import type { SqliteConnection } from "../db/driver.ts";
import { empty, join, sql, type Sql, type SqlValue } from "../db/sql.ts";
import { EXPLORER_CALL_COLUMNS, firstResultColumns, type ExplorerCallColumns } from "../results/call-columns.ts";
import type { CallbackBatchWrite, CallUpdate, NewResult } from "./repository.ts";

/** The batch's call updates: calls changing the same way share one UPDATE (typically one or two per batch). */
export function callUpdateStatements(write: CallbackBatchWrite): Sql[] {
  const groups = new Map<string, { update: CallUpdate; ids: number[] }>();
  for (const update of write.callUpdates) {
    const key = JSON.stringify([
      update.status,
      update.subscription,
      update.addedResults,
      update.complete,
      update.timedOutAt?.getTime() ?? null,
      update.timedOutAt ? update.toolCallId : null,
    ]);
    const group = groups.get(key);
    if (group) group.ids.push(update.toolCallId);
    else groups.set(key, { update, ids: [update.toolCallId] });
  }
  return [...groups.values()].map(
    ({ update, ids }) => sql`UPDATE "ToolCall" SET "status" = ${update.status}, "subscription" = ${update.subscription},
      "resultCount" = "resultCount" + ${update.addedResults}
      ${update.addedResults > 0 ? sql`, "lastResultAt" = ${write.at}` : empty}
      ${update.complete ? sql`, "completedAt" = COALESCE("completedAt", ${write.at})` : empty}
      ${update.timedOutAt ? sql`, "timedOutAt" = COALESCE("timedOutAt", ${update.timedOutAt})` : empty}
      WHERE "id" IN (${join(ids)})`,
  );
}

/** Per call: its newest new result, whether any new one is late, and its first result when this batch adds it. */
export function resultsByCall(
  results: NewResult[],
): Map<number, { newest: NewResult; anyLate: boolean; first: NewResult | null }> {
  const byCall = new Map<number, { newest: NewResult; anyLate: boolean; first: NewResult | null }>();
  for (const result of results) {
    const seen = byCall.get(result.toolCallId);
    byCall.set(result.toolCallId, {
      newest: seen && seen.newest.ordinal > result.ordinal ? seen.newest : result,
      anyLate: (seen?.anyLate ?? false) || result.late,
      first: result.ordinal === 0 ? result : (seen?.first ?? null),
    });
  }
  return byCall;
}

/**
 * SQLite: one UPDATE per call naming only the columns whose value changes — SQLite rewrites the entries of
 * every index on a column in the SET list, changed or not, and a call has ~20 (the explorer's). The explorer
 * columns are the ones the results' insert trigger would write (firstResultColumns and the newest result's
 * verdict); the trigger stays the authority and corrects any value that differs. Statements are cached by
 * their text: a handful of shapes cover every batch.
 */
export function writeSqliteCallUpdates(tx: SqliteConnection, write: CallbackBatchWrite): void {
  const byCall = resultsByCall(write.results);
  const shapes = new Map<string, SqlValue[][]>();
  for (const update of write.callUpdates) {
    const { before } = update;
    const sets: string[] = [];
    const values: SqlValue[] = [];
    const set = (expression: string, value: SqlValue) => {
      sets.push(expression);
      values.push(value);
    };
    if (update.status !== before.status) set(`"status" = ?`, update.status);
    if (update.subscription !== before.subscription) set(`"subscription" = ?`, update.subscription);
    if (update.addedResults > 0) {
      set(`"resultCount" = "resultCount" + ?`, update.addedResults);
      set(`"lastResultAt" = ?`, write.at);
    }
    if (update.complete) set(`"completedAt" = COALESCE("completedAt", ?)`, write.at);
    if (update.timedOutAt) set(`"timedOutAt" = COALESCE("timedOutAt", ?)`, update.timedOutAt);
    const results = byCall.get(update.toolCallId);
    const next: ExplorerCallColumns = { ...before.explorer };
    if (results) {
      const { newest, first } = results;
      Object.assign(next, {
        resultEnvelopeKind: newest.envelopeKind,
        resultSuccess: newest.success,
        resultIsError: newest.isError,
        resultErrorSource: newest.errorSource,
        resultErrorType: newest.errorType,
        resultConfidence: newest.confidence,
        resultNextAction: newest.nextAction,
        resultLate: before.explorer.resultLate || results.anyLate,
      });
      if (first) next.latencyMs = firstResultColumns(first, before.requestedAt).latencyMs;
    }
    for (const column of EXPLORER_CALL_COLUMNS)
      if (next[column] !== before.explorer[column]) set(`"${column}" = ?`, next[column]);
    if (sets.length === 0) continue;
    const text = `UPDATE "ToolCall" SET ${sets.join(", ")} WHERE "id" = ?`;
    values.push(update.toolCallId);
    const rows = shapes.get(text);
    if (rows) rows.push(values);
    else shapes.set(text, [values]);
  }
  for (const [text, rows] of shapes) tx.runEach(text, rows);
}
