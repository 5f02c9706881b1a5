// Prisma access for callback ingestion: read the calls a batch of deliveries names, write the batch's
// results, audit rows, events and call updates inside the caller's transaction.
import "server-only";
import type { ModelClient } from "../db/client.ts";
import { empty, join, multiRowInserts, sql, type SqlValue } from "../db/sql.ts";

export type CallKey = { groupId: string; callKey: string };

export type CallState = {
  id: number;
  threadId: number;
  groupId: string;
  callKey: string;
  callId: string | null;
  status: string;
  subscription: string | null;
  deadlineAt: Date | null;
  resultCount: number;
  outputSchemaJson: string | null;
};

export type LatestResult = {
  id: number;
  toolCallId: number;
  ordinal: number;
  contentSha256: string;
  textSha256: string;
  late: boolean;
};

export async function findCalls(tx: ModelClient, keys: CallKey[]): Promise<CallState[]> {
  if (keys.length === 0) return [];
  return tx.toolCall.findMany({
    where: { OR: keys.map((k) => ({ groupId: k.groupId, callKey: k.callKey })) },
    select: {
      id: true,
      threadId: true,
      groupId: true,
      callKey: true,
      callId: true,
      status: true,
      subscription: true,
      deadlineAt: true,
      resultCount: true,
      outputSchemaJson: true,
    },
  });
}

/** The newest result of each call that has one (ordinal = resultCount − 1). */
export async function findLatestResults(tx: ModelClient, calls: Pick<CallState, "id" | "resultCount">[]): Promise<LatestResult[]> {
  const withResults = calls.filter((c) => c.resultCount > 0);
  if (withResults.length === 0) return [];
  return tx.toolResult.findMany({
    where: { OR: withResults.map((c) => ({ toolCallId: c.id, ordinal: c.resultCount - 1 })) },
    select: { id: true, toolCallId: true, ordinal: true, contentSha256: true, textSha256: true, late: true },
  });
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
};

export type CallUpdate = {
  toolCallId: number;
  status: string;
  subscription: string | null;
  addedResults: number;
  /** Set completedAt (to the batch's commit time) unless the call already has one. */
  complete: boolean;
  timedOutAt: Date | null;
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

const RESULT_COLUMNS = [
  "toolCallId", "ordinal", "text", "textEscaped", "textSha256", "textBytes", "contentSha256", "displayAsJson", "displayKind",
  "receivedAt", "late", "isError", "errorSource", "envelopeKind", "success", "confidence", "nextAction", "errorType",
  "errorMessage", "errorRetryable", "errorUserMessage", "metaToolName", "metaToolVersion", "metaTraceId", "metaDurationMs",
  "metaCached", "isMcp", "schemaStatus", "invisibleCount", "secretCount", "analysisJson",
] as const satisfies readonly (keyof NewResult)[];

const DELIVERY_COLUMNS = [
  "receivedAt", "outcome", "httpStatus", "reason", "groupId", "callKey", "toolCallId", "resultId", "contentType", "bodyBytes",
  "bodySha256", "rawBody", "rawBodyTruncated", "remoteAddress", "webhookId",
] as const;

const EVENT_COLUMNS = ["threadId", "kind", "toolCallId", "resultId", "source", "occurredAt", "textEscaped", "text", "dataJson"] as const;

/**
 * Writes a decided batch; returns the ids of the new results in `results` order. Multi-row raw INSERTs:
 * this is the ingestion hot path, and Prisma's createMany costs milliseconds per batch here (see lib/db/sql.ts).
 */
export async function writeCallbackBatch(tx: ModelClient, write: CallbackBatchWrite): Promise<number[]> {
  const idByKey = new Map<string, number>();
  if (write.results.length > 0) {
    const rows = write.results.map((r) => RESULT_COLUMNS.map((column) => r[column]));
    for (const statement of multiRowInserts("ToolResult", RESULT_COLUMNS, rows, ["id", "toolCallId", "ordinal"])) {
      const created = await tx.$queryRaw<{ id: number | bigint; toolCallId: number | bigint; ordinal: number | bigint }[]>(statement);
      for (const row of created) idByKey.set(`${row.toolCallId}:${row.ordinal}`, Number(row.id));
    }
  }
  const resultIds = write.results.map((r) => {
    const id = idByKey.get(`${r.toolCallId}:${r.ordinal}`);
    if (id === undefined) throw new Error(`result ${r.toolCallId}:${r.ordinal} was not returned by the insert`);
    return id;
  });

  if (write.deliveries.length > 0) {
    const rows = write.deliveries.map((d) => {
      const resultId = d.result === null ? null : "existingId" in d.result ? d.result.existingId : (resultIds[d.result.newIndex] ?? null);
      const values: Record<(typeof DELIVERY_COLUMNS)[number], SqlValue> = { ...d, resultId };
      return DELIVERY_COLUMNS.map((column) => values[column]);
    });
    for (const statement of multiRowInserts("Delivery", DELIVERY_COLUMNS, rows)) await tx.$executeRaw(statement);
  }

  // Calls changing the same way share one UPDATE (typically one or two per batch).
  const groups = new Map<string, { update: CallUpdate; ids: number[] }>();
  for (const update of write.callUpdates) {
    const key = JSON.stringify([update.status, update.subscription, update.addedResults, update.complete, update.timedOutAt?.getTime() ?? null, update.timedOutAt ? update.toolCallId : null]);
    const group = groups.get(key);
    if (group) group.ids.push(update.toolCallId);
    else groups.set(key, { update, ids: [update.toolCallId] });
  }
  for (const { update, ids } of groups.values()) {
    await tx.$executeRaw(sql`UPDATE "ToolCall" SET "status" = ${update.status}, "subscription" = ${update.subscription},
      "resultCount" = "resultCount" + ${update.addedResults}
      ${update.addedResults > 0 ? sql`, "lastResultAt" = ${write.at}` : empty}
      ${update.complete ? sql`, "completedAt" = COALESCE("completedAt", ${write.at})` : empty}
      ${update.timedOutAt ? sql`, "timedOutAt" = COALESCE("timedOutAt", ${update.timedOutAt})` : empty}
      WHERE "id" IN (${join(ids)})`);
  }

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
    for (const statement of multiRowInserts("Event", EVENT_COLUMNS, rows)) await tx.$executeRaw(statement);
  }

  const threadIds = [...new Set(write.touchedThreads)];
  if (threadIds.length > 0) {
    await tx.$executeRaw(sql`UPDATE "Thread" SET "lastActivityAt" = ${write.at} WHERE "id" IN (${join(threadIds)}) AND "lastActivityAt" < ${write.at}`);
  }
  return resultIds;
}

/** The newest oauth event of each call that has one: its data holds the message's content hash. */
export async function findLatestOAuth(tx: ModelClient, toolCallIds: number[]): Promise<Map<number, string | null>> {
  if (toolCallIds.length === 0) return new Map();
  const rows = await tx.event.findMany({ where: { kind: "oauth", toolCallId: { in: toolCallIds } }, select: { toolCallId: true, dataJson: true }, orderBy: { id: "desc" } });
  const latest = new Map<number, string | null>();
  for (const row of rows) if (row.toolCallId !== null && !latest.has(row.toolCallId)) latest.set(row.toolCallId, row.dataJson);
  return latest;
}

/** Records deliveries that never reached a call (rejected before routing, or a failed batch). */
export async function insertDeliveries(tx: ModelClient, deliveries: NewDelivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  await writeCallbackBatch(tx, { at: new Date(), results: [], deliveries, callUpdates: [], events: [], touchedThreads: [] });
}
