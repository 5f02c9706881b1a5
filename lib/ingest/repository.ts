// Prisma access for callback ingestion: read the calls a batch of deliveries names, write the batch's
// results, audit rows, events and call updates inside the caller's transaction.
import type { ModelClient } from "../db/client.ts";

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
  lastResultAt: Date;
  completedAt: Date | null;
  timedOutAt: Date | null;
};

export type NewTimelineEvent = {
  threadId: number;
  kind: "tool_result" | "timeout";
  toolCallId: number;
  /** Index into this batch's `results` for tool_result events. */
  resultIndex: number | null;
  occurredAt: Date;
};

export type CallbackBatchWrite = {
  results: NewResult[];
  deliveries: NewDelivery[];
  callUpdates: CallUpdate[];
  events: NewTimelineEvent[];
  touchedThreads: { threadId: number; at: Date }[];
};

/** Writes a decided batch; returns the ids of the new results in `results` order. */
export async function writeCallbackBatch(tx: ModelClient, write: CallbackBatchWrite): Promise<number[]> {
  const created =
    write.results.length === 0
      ? []
      : await tx.toolResult.createManyAndReturn({ data: write.results, select: { id: true, toolCallId: true, ordinal: true } });
  const idByKey = new Map(created.map((row) => [`${row.toolCallId}:${row.ordinal}`, row.id]));
  const resultIds = write.results.map((r) => {
    const id = idByKey.get(`${r.toolCallId}:${r.ordinal}`);
    if (id === undefined) throw new Error(`result ${r.toolCallId}:${r.ordinal} was not returned by the insert`);
    return id;
  });

  if (write.deliveries.length > 0) {
    await tx.delivery.createMany({
      data: write.deliveries.map(({ result, rawBody, ...delivery }) => ({
        ...delivery,
        rawBody: rawBody === null ? null : new Uint8Array(rawBody),
        resultId: result === null ? null : "existingId" in result ? result.existingId : (resultIds[result.newIndex] ?? null),
      })),
    });
  }

  for (const update of write.callUpdates) {
    await tx.toolCall.update({
      where: { id: update.toolCallId },
      data: {
        status: update.status,
        subscription: update.subscription,
        resultCount: { increment: update.addedResults },
        lastResultAt: update.lastResultAt,
        ...(update.completedAt ? { completedAt: update.completedAt } : {}),
        ...(update.timedOutAt ? { timedOutAt: update.timedOutAt } : {}),
      },
      select: { id: true },
    });
  }

  if (write.events.length > 0) {
    await tx.event.createMany({
      data: write.events.map((e) => ({
        threadId: e.threadId,
        kind: e.kind,
        toolCallId: e.toolCallId,
        resultId: e.resultIndex === null ? null : (resultIds[e.resultIndex] ?? null),
        source: "callback",
        occurredAt: e.occurredAt,
      })),
    });
  }

  const latestByThread = new Map<number, Date>();
  for (const t of write.touchedThreads) {
    const seen = latestByThread.get(t.threadId);
    if (!seen || seen < t.at) latestByThread.set(t.threadId, t.at);
  }
  for (const [threadId, at] of latestByThread) {
    await tx.thread.updateMany({ where: { id: threadId, lastActivityAt: { lt: at } }, data: { lastActivityAt: at } });
  }
  return resultIds;
}

/** Records deliveries that never reached a call (rejected before routing, or a failed batch). */
export async function insertDeliveries(tx: ModelClient, deliveries: NewDelivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  await writeCallbackBatch(tx, { results: [], deliveries, callUpdates: [], events: [], touchedThreads: [] });
}
