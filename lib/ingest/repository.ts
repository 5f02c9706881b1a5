// SQL for callback ingestion: read the calls a batch of deliveries names, write the batch's results, audit
// rows, events and call updates inside the caller's transaction — on its driver connection
// (Database.driverTransaction, lib/db/driver.ts): this is the ingestion hot path, and Prisma's per-query
// costs (statement compiled per query on SQLite, values serialized and mapped) were a quarter of a
// callback's CPU time (bench:ingest, CPU profile).
import "server-only";
import { insertEach, insertValues } from "../db/bulk-rows.ts";
import type { DriverConnection } from "../db/driver.ts";
import { join, raw, sql, type SqlValue } from "../db/sql.ts";
import { EXPLORER_CALL_COLUMNS, type ExplorerCallColumns } from "../results/call-columns.ts";
import { callUpdateStatements, writeSqliteCallUpdates } from "./call-updates.ts";

export type CallKey = { groupId: string; callKey: string };

export type CallState = {
  id: number;
  threadId: number;
  groupId: string;
  callKey: string;
  callId: string | null;
  toolName: string;
  status: string;
  subscription: string | null;
  deadlineAt: Date | null;
  resultCount: number;
  outputSchemaJson: string | null;
  requestedAt: Date;
  /** The explorer columns the call holds now (lib/results/call-columns.ts). */
  explorer: ExplorerCallColumns;
};

export type LatestResult = {
  id: number;
  toolCallId: number;
  ordinal: number;
  contentSha256: string;
  textSha256: string;
  late: boolean;
};

export type CallWithLatest = CallState & { latest: LatestResult | null };

const CALL_KEYS_PER_QUERY = 500;

/**
 * The calls a batch of deliveries names, each with its newest result (ordinal = resultCount − 1), in one query:
 * a row-value IN over VALUES, which both databases answer with one unique-index look-up per key. (Prisma's OR of
 * `groupId AND callKey` pairs let PostgreSQL factor out the shared groupId and filter the whole thread: 41 ms for
 * 31 keys in a 30,000-call thread, growing with the thread.)
 */
export async function findCallsWithLatest(tx: DriverConnection, keys: CallKey[]): Promise<CallWithLatest[]> {
  // The driver hands PostgreSQL timestamps (without time zone) back in the process's local time: read epoch ms.
  const epochMs = (column: string) =>
    raw(tx.provider === "postgresql" ? `(EXTRACT(EPOCH FROM c."${column}") * 1000)::float8` : `c."${column}"`);
  const unique = [...new Map(keys.map((key) => [JSON.stringify([key.groupId, key.callKey]), key])).values()];
  const calls: CallWithLatest[] = [];
  for (let start = 0; start < unique.length; start += CALL_KEYS_PER_QUERY) {
    const chunk = unique.slice(start, start + CALL_KEYS_PER_QUERY);
    const rows = await tx.query<Record<string, unknown>[]>(sql`
      SELECT c."id", c."threadId", c."groupId", c."callKey", c."callId", c."toolName", c."status", c."subscription", ${epochMs("deadlineAt")} AS "deadlineAt", c."resultCount",
        c."outputSchemaJson", ${epochMs("requestedAt")} AS "requestedAt", ${raw(EXPLORER_CALL_COLUMNS.map((column) => `c."${column}"`).join(", "))}, r."id" AS "latestId", r."ordinal" AS "latestOrdinal", r."contentSha256" AS "latestContentSha256",
        r."textSha256" AS "latestTextSha256", r."late" AS "latestLate"
      FROM "ToolCall" c LEFT JOIN "ToolResult" r ON r."toolCallId" = c."id" AND r."ordinal" = c."resultCount" - 1
      WHERE NOT EXISTS (SELECT 1 FROM "Thread" th WHERE th."id" = c."threadId" AND th."removingAt" IS NOT NULL)
        AND (c."groupId", c."callKey") IN (VALUES ${join(chunk.map((key) => sql`(${key.groupId}, ${key.callKey})`))})`);
    for (const row of rows) calls.push(callWithLatest(row));
  }
  return calls;
}

// Driver rows: SQLite hands booleans back as 0/1 and dates as text; PostgreSQL's deadline comes as epoch ms.
const nullableText = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
const flag = (value: unknown): boolean => value === true || value === 1 || value === 1n;
const nullableFlag = (value: unknown): boolean | null => (value === null || value === undefined ? null : flag(value));
const nullableNumber = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);
function dateOrNull(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  return new Date(typeof value === "bigint" || typeof value === "number" ? Number(value) : String(value));
}

function callWithLatest(row: Record<string, unknown>): CallWithLatest {
  const id = Number(row.id);
  return {
    id,
    threadId: Number(row.threadId),
    groupId: String(row.groupId),
    callKey: String(row.callKey),
    callId: nullableText(row.callId),
    toolName: String(row.toolName),
    status: String(row.status),
    subscription: nullableText(row.subscription),
    deadlineAt: dateOrNull(row.deadlineAt),
    resultCount: Number(row.resultCount),
    outputSchemaJson: nullableText(row.outputSchemaJson),
    requestedAt: dateOrNull(row.requestedAt) ?? new Date(0),
    explorer: {
      resultEnvelopeKind: nullableText(row.resultEnvelopeKind),
      resultSuccess: nullableFlag(row.resultSuccess),
      resultIsError: nullableFlag(row.resultIsError),
      resultErrorSource: nullableText(row.resultErrorSource),
      resultErrorType: nullableText(row.resultErrorType),
      resultConfidence: nullableNumber(row.resultConfidence),
      resultNextAction: nullableText(row.resultNextAction),
      resultLate: flag(row.resultLate),
      latencyMs: nullableNumber(row.latencyMs),
    },
    latest:
      row.latestId === null || row.latestId === undefined
        ? null
        : {
            id: Number(row.latestId),
            toolCallId: id,
            ordinal: Number(row.latestOrdinal),
            contentSha256: String(row.latestContentSha256),
            textSha256: String(row.latestTextSha256),
            late: flag(row.latestLate),
          },
  };
}

export type NewResult = {
  toolCallId: number;
  ordinal: number;
  text: string;
  textEscaped: boolean;
  textSha256: string;
  textBytes: number;
  contentSha256: string;
  displayAsJson: string | null;
  displayKind: string;
  receivedAt: Date;
  late: boolean;
  isError: boolean;
  errorSource: string | null;
  envelopeKind: string | null;
  success: boolean | null;
  confidence: number | null;
  nextAction: string | null;
  errorType: string | null;
  errorMessage: string | null;
  errorRetryable: boolean | null;
  errorUserMessage: string | null;
  metaToolName: string | null;
  metaToolVersion: string | null;
  metaTraceId: string | null;
  metaDurationMs: number | null;
  metaCached: boolean | null;
  isMcp: boolean;
  schemaStatus: string | null;
  invisibleCount: number;
  secretCount: number;
  analysisJson: string;
};

export type NewDelivery = {
  receivedAt: Date;
  outcome: string;
  httpStatus: number;
  reason: string | null;
  groupId: string | null;
  callKey: string | null;
  toolCallId: number | null;
  /** An existing result's id, or the index of a result in this batch's `results`. */
  result: { existingId: number } | { newIndex: number } | null;
  contentType: string | null;
  bodyBytes: number;
  bodySha256: string | null;
  rawBody: Uint8Array | null;
  rawBodyTruncated: boolean;
  remoteAddress: string | null;
  webhookId: string | null;
  /** In the path (lib/relay): the relay target it came through, the webhook-id it is forwarded under, who answered. */
  relay?: string | null;
  relayWebhookId?: string | null;
  answeredBy?: string | null;
};

/** A delivery's column values (the optional in-path columns as NULL when absent: journal lines written before them). */
export function deliveryValues(
  d: NewDelivery,
  resultId: number | null,
): Record<(typeof DELIVERY_COLUMNS)[number], SqlValue> {
  return {
    ...d,
    resultId,
    relay: d.relay ?? null,
    relayWebhookId: d.relayWebhookId ?? null,
    answeredBy: d.answeredBy ?? null,
  };
}

export type CallUpdate = {
  toolCallId: number;
  status: string;
  subscription: string | null;
  addedResults: number;
  /** Set completedAt (to the batch's commit time) unless the call already has one. */
  complete: boolean;
  timedOutAt: Date | null;
  /** What the call holds before this batch: SQLite's update names only the columns that change (call-updates.ts). */
  before: { status: string; subscription: string | null; requestedAt: Date; explorer: ExplorerCallColumns };
};

export type NewTimelineEvent = {
  threadId: number;
  kind: "tool_result" | "timeout" | "oauth";
  /** An oauth event's URL and its data ({auth_url, call_id, content_sha256}). */
  text?: string | null;
  dataJson?: string | null;
  toolCallId: number;
  /** Index into this batch's `results` for tool_result events. */
  resultIndex: number | null;
  occurredAt: Date;
};

export type CallbackBatchWrite = {
  /** The batch's commit time: lastResultAt and completedAt of the calls it touches. */
  at: Date;
  results: NewResult[];
  deliveries: NewDelivery[];
  callUpdates: CallUpdate[];
  events: NewTimelineEvent[];
  touchedThreads: number[];
};

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
] as const satisfies readonly (keyof NewResult)[];

export const DELIVERY_COLUMNS = [
  "receivedAt",
  "outcome",
  "httpStatus",
  "reason",
  "groupId",
  "callKey",
  "toolCallId",
  "resultId",
  "contentType",
  "bodyBytes",
  "bodySha256",
  "rawBody",
  "rawBodyTruncated",
  "remoteAddress",
  "webhookId",
  "relay",
  "relayWebhookId",
  "answeredBy",
] as const;

export const EVENT_COLUMNS = [
  "threadId",
  "kind",
  "toolCallId",
  "resultId",
  "source",
  "occurredAt",
  "textEscaped",
  "text",
  "dataJson",
] as const;

/**
 * Writes a decided batch; returns the ids of the new results in `results` order. SQLite: prepared INSERTs run
 * per row; PostgreSQL: array parameters or multi-row VALUES (lib/db/bulk-rows.ts insertValues).
 */
export async function writeCallbackBatch(tx: DriverConnection, write: CallbackBatchWrite): Promise<number[]> {
  // SQLite: the calls first, explorer columns included, so that the results' insert trigger finds each call
  // already right and leaves it alone (one write of each call instead of two).
  if (tx.provider === "sqlite") writeSqliteCallUpdates(tx, write);
  const resultRows = write.results.map((r) => RESULT_COLUMNS.map((column) => r[column]));
  const resultIds = await insertReturningIds(
    tx,
    "ToolResult",
    RESULT_COLUMNS,
    resultRows,
    write.results.map((r) => `${r.toolCallId}:${r.ordinal}`),
    `RETURNING "id", "toolCallId" || ':' || "ordinal" AS "key"`,
  );

  if (write.deliveries.length > 0) {
    const rows = write.deliveries.map((d) => {
      const resultId =
        d.result === null
          ? null
          : "existingId" in d.result
            ? d.result.existingId
            : (resultIds[d.result.newIndex] ?? null);
      const values = deliveryValues(d, resultId);
      return DELIVERY_COLUMNS.map((column) => values[column]);
    });
    await insertRows(tx, "Delivery", DELIVERY_COLUMNS, rows);
  }

  if (tx.provider === "postgresql") for (const statement of callUpdateStatements(write)) await tx.execute(statement);

  if (write.events.length > 0) {
    const rows = write.events.map((e) => [
      e.threadId,
      e.kind,
      e.toolCallId,
      e.resultIndex === null ? null : (resultIds[e.resultIndex] ?? null),
      "callback",
      e.occurredAt,
      false,
      e.text ?? null,
      e.dataJson ?? null,
    ]);
    await insertRows(tx, "Event", EVENT_COLUMNS, rows);
  }

  const threadIds = [...new Set(write.touchedThreads)];
  if (threadIds.length > 0) {
    await tx.execute(
      sql`UPDATE "Thread" SET "lastActivityAt" = ${write.at} WHERE "id" IN (${join(threadIds)}) AND "lastActivityAt" < ${write.at}`,
    );
  }
  return resultIds;
}

/** The newest oauth event of each call that has one: its data holds the message's content hash. */
export async function findLatestOAuth(
  tx: DriverConnection,
  toolCallIds: number[],
): Promise<Map<number, string | null>> {
  if (toolCallIds.length === 0) return new Map();
  const rows = await tx.query<{ toolCallId: number | bigint; dataJson: string | null }[]>(
    sql`SELECT "toolCallId", "dataJson" FROM "Event" WHERE "kind" = 'oauth' AND "toolCallId" IN (${join(toolCallIds)}) ORDER BY "id" DESC`,
  );
  const latest = new Map<number, string | null>();
  for (const row of rows) if (!latest.has(Number(row.toolCallId))) latest.set(Number(row.toolCallId), row.dataJson);
  return latest;
}

async function insertRows(
  tx: DriverConnection,
  table: string,
  columns: readonly string[],
  rows: SqlValue[][],
): Promise<void> {
  if (rows.length === 0) return;
  if (tx.provider === "sqlite") insertEach(tx, table, columns, rows, "");
  else await insertValues(tx, table, columns, rows, "");
}

/** Inserts rows and returns their ids in row order (`keys`: each row's unique key, as `returning`'s "key" spells it). */
async function insertReturningIds(
  tx: DriverConnection,
  table: string,
  columns: readonly string[],
  rows: SqlValue[][],
  keys: string[],
  returning: string,
): Promise<number[]> {
  if (rows.length === 0) return [];
  if (tx.provider === "sqlite") return insertEach(tx, table, columns, rows, "").map((id) => Number(id));
  const idByKey = new Map(
    (await insertValues<{ id: number; key: string }[]>(tx, table, columns, rows, returning)).map((row) => [
      row.key,
      Number(row.id),
    ]),
  );
  return keys.map((key) => {
    const id = idByKey.get(key);
    if (id === undefined) throw new Error(`${table} row ${key} was not returned by the insert`);
    return id;
  });
}

/** Records deliveries that never reached a call (rejected before routing, or a failed batch). */
export async function insertDeliveries(tx: DriverConnection, deliveries: NewDelivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  await writeCallbackBatch(tx, {
    at: new Date(),
    results: [],
    deliveries,
    callUpdates: [],
    events: [],
    touchedThreads: [],
  });
}
