// Database access for OpenTelemetry ingest: the span, scope and trace tables, and the thread / call / result /
// event rows the mapping writes. Raw multi-row SQL: a request carries hundreds of spans (see lib/db/sql.ts).
// The write path runs on the transaction's driver connection (lib/db/driver.ts: no Prisma round trip per
// value, statements reused on SQLite); the call page's reads go through Prisma.
/* eslint-disable max-lines -- grew past the cap when Prettier wrapped it at 120 columns; the write model rework splits it */
import "server-only";
import type { ModelClient } from "../db/client.ts";
import type { DriverConnection } from "../db/driver.ts";
import type { Provider } from "../db/database-url.ts";
import { join, raw, sql, type Sql, type SqlValue } from "../db/sql.ts";
import { EXPLORER_CALL_COLUMNS } from "../results/call-columns.ts";
import { insertEach, insertValues, jsonList } from "../db/bulk-rows.ts";

/** Rows per statement: well under SQLite's 32,766 bound parameters for the widest table here. */
const ROWS_PER_STATEMENT = 400;
/** Rows per statement written as one JSON parameter (lib/db/bulk-rows.ts): bounded only to bound memory. */
const JSON_ROWS_PER_STATEMENT = 2_000;

function chunks<T>(items: readonly T[], size = ROWS_PER_STATEMENT): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

function values(rows: readonly (readonly SqlValue[])[]): Sql {
  return join(rows.map((row) => sql`(${join(row.map((value) => sql`${value}`))})`));
}

export type SpanRow = {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  startNs: string;
  endNs: string;
  statusCode: number;
  scopeSha256: string;
  spanJson: string;
  receivedAt: Date;
};

const SPAN_COLUMNS = [
  "traceId",
  "spanId",
  "parentSpanId",
  "name",
  "startNs",
  "endNs",
  "statusCode",
  "scopeSha256",
  "spanJson",
  "receivedAt",
] as const;

export async function insertScopes(
  tx: DriverConnection,
  scopes: { sha256: string; json: string; receivedAt: Date }[],
): Promise<void> {
  for (const chunk of chunks(scopes)) {
    await tx.execute(sql`INSERT INTO "OtelScope" ("sha256", "json", "receivedAt") VALUES ${values(chunk.map((s) => [s.sha256, s.json, s.receivedAt]))}
      ON CONFLICT ("sha256") DO NOTHING`);
  }
}

/** Inserts spans not stored yet; returns the keys (`traceId:spanId`) of the ones this call stored. */
export async function insertNewSpans(tx: DriverConnection, provider: Provider, spans: SpanRow[]): Promise<Set<string>> {
  const stored = new Set<string>();
  if (tx.provider === "sqlite") {
    const rowids = insertEach(
      tx,
      "OtelSpan",
      SPAN_COLUMNS,
      spans.map((span) => SPAN_COLUMNS.map((column) => span[column])),
      `ON CONFLICT ("traceId", "spanId") DO NOTHING`,
    );
    spans.forEach((span, index) => {
      if (rowids[index] !== null) stored.add(`${span.traceId}:${span.spanId}`);
    });
    return stored;
  }
  const rows = await insertValues<{ traceId: string; spanId: string }[]>(
    tx,
    "OtelSpan",
    SPAN_COLUMNS,
    spans.map((span) => SPAN_COLUMNS.map((column) => span[column])),
    `ON CONFLICT ("traceId", "spanId") DO NOTHING RETURNING "traceId", "spanId"`,
  );
  for (const row of rows) stored.add(`${row.traceId}:${row.spanId}`);
  return stored;
}

export async function findSpansOfTraces(
  tx: DriverConnection,
  provider: Provider,
  traceIds: string[],
): Promise<{ traceId: string; spanJson: string }[]> {
  const found: { traceId: string; spanJson: string }[] = [];
  for (const chunk of chunks(traceIds, JSON_ROWS_PER_STATEMENT)) {
    found.push(
      ...(await tx.query<{ traceId: string; spanJson: string }[]>(
        sql`SELECT "traceId", "spanJson" FROM "OtelSpan" WHERE "traceId" IN ${jsonList(provider, chunk)}`,
      )),
    );
  }
  return found;
}

export type TraceRow = { traceId: string; groupId: string; orderKey: string; stateJson: string };

export async function findTraces(tx: DriverConnection, provider: Provider, traceIds: string[]): Promise<TraceRow[]> {
  const found: TraceRow[] = [];
  for (const chunk of chunks(traceIds, JSON_ROWS_PER_STATEMENT)) {
    found.push(
      ...(await tx.query<TraceRow[]>(
        sql`SELECT "traceId", "groupId", "orderKey", "stateJson" FROM "OtelTrace" WHERE "traceId" IN ${jsonList(provider, chunk)}`,
      )),
    );
  }
  return found;
}

/** The last trace (by order key) of each thread: usually the only one a new trace needs (it follows it). */
export async function findLastTraces(
  tx: DriverConnection,
  provider: Provider,
  groupIds: string[],
): Promise<TraceRow[]> {
  const found: TraceRow[] = [];
  for (const chunk of chunks(groupIds, JSON_ROWS_PER_STATEMENT)) {
    found.push(
      ...(await tx.query<TraceRow[]>(sql`SELECT t."traceId", t."groupId", t."orderKey", t."stateJson" FROM "OtelTrace" t
        WHERE t."groupId" IN ${jsonList(provider, chunk)}
          AND t."orderKey" = (SELECT MAX(m."orderKey") FROM "OtelTrace" m WHERE m."groupId" = t."groupId")`)),
    );
  }
  return found;
}

/** A thread's traces from `fromKey` on (the part a late span makes us map again), and the one before them. */
export async function findSuffixTraces(
  tx: DriverConnection,
  groupId: string,
  fromKey: string,
): Promise<{ suffix: TraceRow[]; previous: TraceRow | null }> {
  const suffix = await tx.query<TraceRow[]>(sql`SELECT "traceId", "groupId", "orderKey", "stateJson" FROM "OtelTrace"
    WHERE "groupId" = ${groupId} AND "orderKey" >= ${fromKey} ORDER BY "orderKey"`);
  const [previous] = await tx.query<
    TraceRow[]
  >(sql`SELECT "traceId", "groupId", "orderKey", "stateJson" FROM "OtelTrace"
    WHERE "groupId" = ${groupId} AND "orderKey" < ${fromKey} ORDER BY "orderKey" DESC LIMIT 1`);
  return { suffix, previous: previous ?? null };
}

const TRACE_COLUMNS = ["traceId", "groupId", "orderKey", "stateJson", "updatedAt"] as const;

const UPSERT_TRACE = `ON CONFLICT ("traceId") DO UPDATE SET "groupId" = excluded."groupId", "orderKey" = excluded."orderKey",
        "stateJson" = excluded."stateJson", "updatedAt" = excluded."updatedAt"`;

export async function upsertTraces(
  tx: DriverConnection,
  provider: Provider,
  rows: (TraceRow & { updatedAt: Date })[],
): Promise<void> {
  if (tx.provider === "sqlite") {
    insertEach(
      tx,
      "OtelTrace",
      TRACE_COLUMNS,
      rows.map((row) => TRACE_COLUMNS.map((column) => row[column])),
      UPSERT_TRACE,
    );
    return;
  }
  await insertValues(
    tx,
    "OtelTrace",
    TRACE_COLUMNS,
    rows.map((row) => TRACE_COLUMNS.map((column) => row[column])),
    UPSERT_TRACE,
  );
}

// ─── threads, calls, results, events ────────────────────────────────────────────────────────────

export async function findThreadIds(
  tx: DriverConnection,
  provider: Provider,
  groupIds: string[],
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const chunk of chunks(groupIds, JSON_ROWS_PER_STATEMENT)) {
    for (const row of await tx.query<{ id: number | bigint; groupId: string }[]>(
      sql`SELECT "id", "groupId" FROM "Thread" WHERE "groupId" IN ${jsonList(provider, chunk)}`,
    )) {
      ids.set(row.groupId, Number(row.id));
    }
  }
  return ids;
}

export async function insertThreads(
  tx: DriverConnection,
  threads: { groupId: string; at: Date }[],
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const chunk of chunks(threads)) {
    const rows = await tx.query<
      { id: number | bigint; groupId: string }[]
    >(sql`INSERT INTO "Thread" ("groupId", "vendor", "createdAt", "lastActivityAt")
      VALUES ${values(chunk.map((thread) => [thread.groupId, "otel", thread.at, thread.at]))} RETURNING "id", "groupId"`);
    for (const row of rows) ids.set(row.groupId, Number(row.id));
  }
  return ids;
}

export async function touchThreads(tx: DriverConnection, threadIds: number[], at: Date): Promise<void> {
  for (const chunk of chunks(threadIds)) {
    await tx.execute(
      sql`UPDATE "Thread" SET "lastActivityAt" = ${at} WHERE "id" IN (${join(chunk)}) AND "lastActivityAt" < ${at}`,
    );
  }
}

/** Threads this ingest emptied (a trace moved to its conversation's thread): removed when nothing else is in them. */
export async function deleteEmptyThreads(tx: DriverConnection, threadIds: number[]): Promise<void> {
  for (const chunk of chunks(threadIds)) {
    await tx.execute(sql`DELETE FROM "Thread" WHERE "id" IN (${join(chunk)})
      AND NOT EXISTS (SELECT 1 FROM "Event" e WHERE e."threadId" = "Thread"."id")
      AND NOT EXISTS (SELECT 1 FROM "ToolCall" c WHERE c."threadId" = "Thread"."id")`);
  }
}

export type ExistingCall = {
  id: number;
  groupId: string;
  callKey: string;
  registrationSha256: string;
  resultId: number | null;
};

/** The calls with these (group id, call key) pairs, with their first result's id. */
export async function findCalls(
  tx: DriverConnection,
  provider: Provider,
  pairs: [groupId: string, callKey: string][],
): Promise<ExistingCall[]> {
  const found: ExistingCall[] = [];
  for (const chunk of chunks(pairs, JSON_ROWS_PER_STATEMENT)) {
    const json = JSON.stringify(chunk);
    const wanted =
      provider === "sqlite"
        ? sql`json_each(${json}) p JOIN "ToolCall" c ON c."groupId" = p.value ->> 0 AND c."callKey" = p.value ->> 1`
        : sql`jsonb_array_elements(${json}::jsonb) p(v) JOIN "ToolCall" c ON c."groupId" = p.v ->> 0 AND c."callKey" = p.v ->> 1`;
    const rows = await tx.query<
      {
        id: number | bigint;
        groupId: string;
        callKey: string;
        registrationSha256: string;
        resultId: number | bigint | null;
      }[]
    >(
      sql`SELECT c."id", c."groupId", c."callKey", c."registrationSha256", r."id" AS "resultId" FROM ${wanted}
        LEFT JOIN "ToolResult" r ON r."toolCallId" = c."id" AND r."ordinal" = 0`,
    );
    for (const row of rows)
      found.push({ ...row, id: Number(row.id), resultId: row.resultId === null ? null : Number(row.resultId) });
  }
  return found;
}

export const CALL_COLUMNS = [
  "threadId",
  "groupId",
  "callKey",
  "callId",
  "toolName",
  "argumentsText",
  "argumentsEscaped",
  "argumentsJson",
  "argumentsError",
  "declarationJson",
  "outputSchemaJson",
  "vendor",
  "step",
  "status",
  "requestedAt",
  "completedAt",
  "resultCount",
  "lastResultAt",
  "registrationSha256",
  ...EXPLORER_CALL_COLUMNS,
] as const;
export type CallRow = Record<(typeof CALL_COLUMNS)[number], SqlValue>;

export async function insertCalls(
  tx: DriverConnection,
  provider: Provider,
  rows: CallRow[],
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  if (tx.provider === "sqlite") {
    const rowids = insertEach(
      tx,
      "ToolCall",
      CALL_COLUMNS,
      rows.map((row) => CALL_COLUMNS.map((column) => row[column])),
      "",
    );
    rows.forEach((row, index) => ids.set(JSON.stringify([row.groupId, row.callKey]), rowids[index] ?? 0));
    return ids;
  }
  const created = await insertValues<{ id: number; groupId: string; callKey: string }[]>(
    tx,
    "ToolCall",
    CALL_COLUMNS,
    rows.map((row) => CALL_COLUMNS.map((column) => row[column])),
    `RETURNING "id", "groupId", "callKey"`,
  );
  for (const row of created) ids.set(JSON.stringify([row.groupId, row.callKey]), Number(row.id));
  return ids;
}

export async function updateCall(tx: DriverConnection, id: number, row: CallRow): Promise<void> {
  const assignments = join(
    CALL_COLUMNS.filter((column) => column !== "threadId" && column !== "groupId" && column !== "callKey").map(
      (column) => sql`${raw(`"${column}"`)} = ${row[column]}`,
    ),
  );
  await tx.execute(sql`UPDATE "ToolCall" SET ${assignments} WHERE "id" = ${id}`);
}

export async function deleteCalls(tx: DriverConnection, ids: number[]): Promise<void> {
  for (const chunk of chunks(ids)) await tx.execute(sql`DELETE FROM "ToolCall" WHERE "id" IN (${join(chunk)})`);
}

export const RESULT_COLUMNS = [
  "toolCallId",
  "ordinal",
  "text",
  "textEscaped",
  "textSha256",
  "textBytes",
  "contentSha256",
  "displayAsJson",
  "displayKind",
  "receivedAt",
  "late",
  "isError",
  "errorSource",
  "envelopeKind",
  "success",
  "confidence",
  "nextAction",
  "errorType",
  "errorMessage",
  "errorRetryable",
  "errorUserMessage",
  "metaToolName",
  "metaToolVersion",
  "metaTraceId",
  "metaDurationMs",
  "metaCached",
  "isMcp",
  "schemaStatus",
  "invisibleCount",
  "secretCount",
  "analysisJson",
] as const;
export type ResultRow = Record<(typeof RESULT_COLUMNS)[number], SqlValue>;

export async function insertResults(
  tx: DriverConnection,
  provider: Provider,
  rows: ResultRow[],
): Promise<Map<number, number>> {
  const ids = new Map<number, number>();
  if (tx.provider === "sqlite") {
    const rowids = insertEach(
      tx,
      "ToolResult",
      RESULT_COLUMNS,
      rows.map((row) => RESULT_COLUMNS.map((column) => row[column])),
      "",
    );
    rows.forEach((row, index) => ids.set(Number(row.toolCallId), rowids[index] ?? 0));
    return ids;
  }
  const created = await insertValues<{ id: number; toolCallId: number }[]>(
    tx,
    "ToolResult",
    RESULT_COLUMNS,
    rows.map((row) => RESULT_COLUMNS.map((column) => row[column])),
    `RETURNING "id", "toolCallId"`,
  );
  for (const row of created) ids.set(Number(row.toolCallId), Number(row.id));
  return ids;
}

export async function updateResult(tx: DriverConnection, id: number, row: ResultRow): Promise<void> {
  const assignments = join(
    RESULT_COLUMNS.filter((column) => column !== "toolCallId" && column !== "ordinal").map(
      (column) => sql`${raw(`"${column}"`)} = ${row[column]}`,
    ),
  );
  await tx.execute(sql`UPDATE "ToolResult" SET ${assignments} WHERE "id" = ${id}`);
}

export async function deleteResults(tx: DriverConnection, ids: number[]): Promise<void> {
  for (const chunk of chunks(ids)) await tx.execute(sql`DELETE FROM "ToolResult" WHERE "id" IN (${join(chunk)})`);
}

export const EVENT_COLUMNS = [
  "threadId",
  "kind",
  "toolCallId",
  "resultId",
  "step",
  "role",
  "text",
  "textEscaped",
  "dataJson",
  "source",
  "occurredAt",
] as const;
export type EventRow = Record<(typeof EVENT_COLUMNS)[number], SqlValue>;

/** Inserts timeline rows in the given order; returns their ids in that order (ids are assigned in VALUES order). */
export async function insertEvents(tx: DriverConnection, provider: Provider, rows: EventRow[]): Promise<number[]> {
  if (tx.provider === "sqlite")
    return insertEach(
      tx,
      "Event",
      EVENT_COLUMNS,
      rows.map((row) => EVENT_COLUMNS.map((column) => row[column])),
      "",
    ).map((id) => id ?? 0);
  // Serial ids ascend in VALUES order, and each statement's come after the previous one's.
  const created = await insertValues<{ id: number }[]>(
    tx,
    "Event",
    EVENT_COLUMNS,
    rows.map((row) => EVENT_COLUMNS.map((column) => row[column])),
    `RETURNING "id"`,
  );
  return created.map((row) => Number(row.id)).sort((a, b) => a - b);
}

/**
 * Deletes timeline rows, and bumps their threads' `timelineEpoch`: a live view polling "after id N" would never
 * learn that rows it shows are gone (or that their replacements were written after N), so it re-reads its window
 * when the epoch it holds is older.
 */
export async function deleteEvents(tx: DriverConnection, ids: number[]): Promise<void> {
  for (const chunk of chunks(ids)) {
    await tx.execute(
      sql`UPDATE "Thread" SET "timelineEpoch" = "timelineEpoch" + 1 WHERE "id" IN (SELECT DISTINCT "threadId" FROM "Event" WHERE "id" IN (${join(chunk)}))`,
    );
    await tx.execute(sql`DELETE FROM "Event" WHERE "id" IN (${join(chunk)})`);
  }
}

// ─── reads for the call page ────────────────────────────────────────────────────────────────────

export async function findCallSpanRefs(client: ModelClient, toolCallId: number): Promise<string | null> {
  const event = await client.event.findFirst({
    where: { toolCallId, kind: "tool_call", source: "otel" },
    select: { dataJson: true },
    orderBy: { id: "asc" },
  });
  return event?.dataJson ?? null;
}

export async function findSpans(
  client: ModelClient,
  traceId: string,
  spanIds: string[],
): Promise<{ spanJson: string; scopeJson: string | null; receivedAt: Date }[]> {
  if (spanIds.length === 0) return [];
  const rows = await client.$queryRaw<{ spanJson: string; scopeJson: string | null; receivedAt: Date | string }[]>(
    sql`SELECT s."spanJson", o."json" AS "scopeJson", s."receivedAt" FROM "OtelSpan" s LEFT JOIN "OtelScope" o ON o."sha256" = s."scopeSha256"
      WHERE s."traceId" = ${traceId} AND s."spanId" IN (${join(spanIds)}) ORDER BY s."startNs", s."spanId"`,
  );
  return rows.map((row) => ({ ...row, receivedAt: new Date(row.receivedAt) }));
}
