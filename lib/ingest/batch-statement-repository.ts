// A callback batch as ONE PostgreSQL statement: the results insert, and, as data-modifying CTEs beside it,
// the audit rows, the call updates, the timeline events and the threads' activity time. Each new result's id
// is read from the insert's RETURNING inside the statement, so the writes need no round trip between them:
// one instead of five per batch, under the timeline lock every writer waits for (lib/db/client.ts).
// Values in VALUES lists take their types from the target columns, as in a plain INSERT. PostgreSQL runs
// every data-modifying CTE to completion; foreign keys to the new results are checked at the statement's end,
// when the results exist; the Event rows keep VALUES order, so their serial ids ascend in it.
// The call update also writes the explorer columns the results' insert trigger would (the newest result's
// verdict, late, the first result's latency): the trigger then finds every call already right and skips it,
// instead of writing each call a second time — a new row version with an entry in each of its ~20 indexes,
// the largest share of the single writer's work on the server (bench:ingest).
import "server-only";
import type { PgConnection } from "../db/driver.ts";
import { join, raw, sql, type Sql } from "../db/sql.ts";
import { resultsByCall } from "./call-updates.ts";
import {
  DELIVERY_COLUMNS,
  deliveryValues,
  EVENT_COLUMNS,
  RESULT_COLUMNS,
  type CallbackBatchWrite,
  type NewDelivery,
} from "./repository.ts";

/** Bound values per statement: under the protocol's 65,535, with room (the lean path's batches stay far below). */
const MAX_VALUES = 30_000;

export function fitsOneStatement(write: CallbackBatchWrite): boolean {
  const values =
    write.results.length * RESULT_COLUMNS.length +
    write.deliveries.length * (DELIVERY_COLUMNS.length + 2) +
    write.events.length * (EVENT_COLUMNS.length + 2);
  return values + write.callUpdates.length * 8 + write.touchedThreads.length + 10 <= MAX_VALUES;
}

const names = (columns: readonly string[]) => raw(columns.map((column) => `"${column}"`).join(", "));

export async function writeBatchStatement(tx: PgConnection, write: CallbackBatchWrite): Promise<number[]> {
  /** A new result's id inside the statement: looked up in the results insert's RETURNING by its unique key. */
  const newResultId = (index: number): Sql => {
    const result = write.results[index];
    if (!result) throw new Error(`no result ${index} in the batch`);
    return sql`(SELECT "id" FROM "new_results" WHERE "toolCallId" = ${result.toolCallId} AND "ordinal" = ${result.ordinal})`;
  };
  const resultRef = (ref: NewDelivery["result"]): Sql =>
    ref === null ? sql`NULL` : "existingId" in ref ? sql`${ref.existingId}` : newResultId(ref.newIndex);
  const tuple = (values: Sql[]) => sql`(${join(values)})`;
  const ctes: Sql[] = [];
  if (write.results.length > 0) {
    const rows = write.results.map((r) => tuple(RESULT_COLUMNS.map((column) => sql`${r[column]}`)));
    ctes.push(
      sql`"new_results" AS (INSERT INTO "ToolResult" (${names(RESULT_COLUMNS)}) VALUES ${join(rows)} RETURNING "id", "toolCallId", "ordinal")`,
    );
  }
  if (write.deliveries.length > 0) {
    const columns = DELIVERY_COLUMNS.filter((column) => column !== "resultId");
    const rows = write.deliveries.map((d) => {
      const values = deliveryValues(d, null);
      return tuple([...columns.map((column) => sql`${values[column]}`), resultRef(d.result)]);
    });
    ctes.push(sql`"new_deliveries" AS (INSERT INTO "Delivery" (${names(columns)}, "resultId") VALUES ${join(rows)})`);
  }
  if (write.callUpdates.length > 0) ctes.push(sql`"call_updates" AS (${callUpdate(write)})`);
  if (write.events.length > 0) {
    const rows = write.events.map((e) =>
      tuple([
        sql`${e.threadId}`,
        sql`${e.kind}`,
        sql`${e.toolCallId}`,
        e.resultIndex === null ? sql`NULL` : newResultId(e.resultIndex),
        sql`${"callback"}`,
        sql`${e.occurredAt}`,
        sql`${false}`,
        sql`${e.text ?? null}`,
        sql`${e.dataJson ?? null}`,
      ]),
    );
    ctes.push(sql`"new_events" AS (INSERT INTO "Event" (${names(EVENT_COLUMNS)}) VALUES ${join(rows)})`);
  }
  const threadIds = [...new Set(write.touchedThreads)];
  if (threadIds.length > 0) {
    ctes.push(
      sql`"thread_activity" AS (UPDATE "Thread" SET "lastActivityAt" = ${write.at} WHERE "id" IN (${join(threadIds)}) AND "lastActivityAt" < ${write.at})`,
    );
  }
  if (ctes.length === 0) return [];
  const final =
    write.results.length > 0 ? sql`SELECT "id", "toolCallId", "ordinal" FROM "new_results"` : sql`SELECT 1 AS "none"`;
  const rows = await tx.query<{ id: number; toolCallId: number; ordinal: number }[]>(
    sql`WITH ${join(ctes, ",\n")} ${final}`,
  );
  if (write.results.length === 0) return [];
  const ids = new Map(rows.map((row) => [`${row.toolCallId}:${row.ordinal}`, Number(row.id)]));
  return write.results.map((r) => {
    const id = ids.get(`${r.toolCallId}:${r.ordinal}`);
    if (id === undefined) throw new Error(`result ${r.toolCallId}:${r.ordinal} was not returned by the insert`);
    return id;
  });
}

/**
 * One UPDATE of every call the batch touches, each with its own values (a VALUES list, cast: its values have no
 * target column to take a type from). The explorer columns follow migration 20261126093000's trigger exactly.
 */
function callUpdate(write: CallbackBatchWrite): Sql {
  const byCall = resultsByCall(write.results);
  const rows = write.callUpdates.map((update) => {
    const results = byCall.get(update.toolCallId);
    const newest = results?.newest ?? null;
    const first = results?.first ?? null;
    return sql`(${update.toolCallId}::integer, ${update.status}::text, ${update.subscription}::text, ${update.addedResults}::integer, ${update.complete}::boolean,
      ${update.timedOutAt}::timestamp(3), ${newest !== null}::boolean, ${newest?.envelopeKind ?? null}::text, ${newest?.success ?? null}::boolean,
      ${newest?.isError ?? null}::boolean, ${newest?.errorSource ?? null}::text, ${newest?.errorType ?? null}::text, ${newest?.confidence ?? null}::double precision,
      ${newest?.nextAction ?? null}::text, ${results?.anyLate ?? false}::boolean, ${first !== null}::boolean, ${first?.metaDurationMs ?? null}::double precision,
      ${first?.receivedAt ?? null}::timestamp(3))`;
  });
  const keep = (column: string, value: string) =>
    raw(`"${column}" = CASE WHEN v."hasResult" THEN v."${value}" ELSE c."${column}" END`);
  return sql`UPDATE "ToolCall" c SET "status" = v."status", "subscription" = v."subscription", "resultCount" = c."resultCount" + v."added",
      "lastResultAt" = CASE WHEN v."added" > 0 THEN ${write.at} ELSE c."lastResultAt" END,
      "completedAt" = CASE WHEN v."complete" THEN COALESCE(c."completedAt", ${write.at}) ELSE c."completedAt" END,
      "timedOutAt" = COALESCE(c."timedOutAt", v."timedOutAt"),
      ${join([keep("resultEnvelopeKind", "envelopeKind"), keep("resultSuccess", "success"), keep("resultIsError", "isError"), keep("resultErrorSource", "errorSource"), keep("resultErrorType", "errorType"), keep("resultConfidence", "confidence"), keep("resultNextAction", "nextAction")])},
      "resultLate" = c."resultLate" OR v."anyLate",
      "latencyMs" = CASE WHEN v."hasFirst" THEN
        CASE WHEN v."firstDurationMs" >= 0 THEN v."firstDurationMs"
             WHEN v."firstReceivedAt" >= c."requestedAt" THEN round(EXTRACT(EPOCH FROM (v."firstReceivedAt" - c."requestedAt")) * 1000)
             ELSE NULL END
        ELSE c."latencyMs" END
    FROM (VALUES ${join(rows)}) AS v("id", "status", "subscription", "added", "complete", "timedOutAt", "hasResult", "envelopeKind", "success", "isError",
      "errorSource", "errorType", "confidence", "nextAction", "anyLate", "hasFirst", "firstDurationMs", "firstReceivedAt")
    WHERE c."id" = v."id"`;
}
