// Prisma access for the call/result detail: one call, its newest results, the deliveries that reached it,
// its own timeline events, and single bodies (a result text, a delivery's raw bytes) on demand.
import "server-only";
import { provenanceOf } from "../audit/import-mark.ts";
import type { ModelClient } from "../db/client.ts";
import { CALL_ARGUMENTS, CALL_IDENTITY, CALL_STATE, DELIVERY_AUDIT, RESULT_TEXT } from "../db/selects.ts";

const iso = (date: Date): string => date.toISOString();
const isoOrNull = (date: Date | null): string | null => (date === null ? null : date.toISOString());

export async function findCall(client: ModelClient, id: number) {
  const row = await client.toolCall.findUnique({
    where: { id },
    select: { ...CALL_IDENTITY, ...CALL_STATE, ...CALL_ARGUMENTS },
  });
  if (!row) return null;
  return {
    ...row,
    requestedAt: iso(row.requestedAt),
    completedAt: isoOrNull(row.completedAt),
    deadlineAt: isoOrNull(row.deadlineAt),
    timedOutAt: isoOrNull(row.timedOutAt),
    lastResultAt: isoOrNull(row.lastResultAt),
  };
}
export type CallRow = NonNullable<Awaited<ReturnType<typeof findCall>>>;

/** The newest `take` results of a call, oldest first. */
export async function findNewestResults(client: ModelClient, toolCallId: number, take: number) {
  const rows = await client.toolResult.findMany({
    where: { toolCallId },
    select: {
      ...RESULT_TEXT,
      ordinal: true,
      displayAsJson: true,
      receivedAt: true,
      late: true,
      // Error signals recorded with the result that its text cannot show (an OTel span's ERROR status, a vendor's
      // is_error flag, Gemini's error key): the page must not re-derive them from the text alone.
      isError: true,
      errorSource: true,
    },
    orderBy: { ordinal: "desc" },
    take,
  });
  return rows.reverse().map((row) => ({ ...row, receivedAt: iso(row.receivedAt) }));
}
export type ResultRow = Awaited<ReturnType<typeof findNewestResults>>[number];

export async function countResults(client: ModelClient, toolCallId: number): Promise<number> {
  return client.toolResult.count({ where: { toolCallId } });
}

/** Deliveries routed to this call, oldest first, without their bodies (those load on demand). */
export async function findDeliveries(client: ModelClient, toolCallId: number, take: number) {
  const rows = await client.delivery.findMany({
    where: { toolCallId },
    select: DELIVERY_AUDIT,
    orderBy: { id: "asc" },
    take,
  });
  return rows.map(({ receivedAt, remoteAddress, webhookId, importedAt, importedBy, ...row }) => ({
    ...row,
    ...provenanceOf({
      receivedAt: iso(receivedAt),
      remoteAddress,
      webhookId,
      importedAt: importedAt === null ? null : iso(importedAt),
      importedBy,
    }),
  }));
}

export async function countDeliveries(client: ModelClient, toolCallId: number): Promise<number> {
  return client.delivery.count({ where: { toolCallId } });
}

export async function findDeliveryBody(client: ModelClient, toolCallId: number, deliveryId: number) {
  const row = await client.delivery.findFirst({
    where: { id: deliveryId, toolCallId },
    select: { rawBody: true, rawBodyTruncated: true, bodyBytes: true, contentType: true },
  });
  // Bytes stay bytes (exactly as received); only the container becomes a plain Uint8Array.
  return row ? { ...row, rawBody: row.rawBody === null ? null : new Uint8Array(row.rawBody) } : null;
}

/** The call's own timeline events besides registration and results: errors, timeouts, cancellation. */
export async function findCallEvents(client: ModelClient, toolCallId: number) {
  const rows = await client.event.findMany({
    where: { toolCallId, kind: { notIn: ["tool_call", "tool_result"] } },
    select: { id: true, kind: true, occurredAt: true, text: true, textEscaped: true, dataJson: true, source: true },
    orderBy: { id: "asc" },
    take: 200,
  });
  return rows.map((row) => ({ ...row, occurredAt: iso(row.occurredAt) }));
}

export async function findResultText(client: ModelClient, resultId: number) {
  return client.toolResult.findUnique({
    where: { id: resultId },
    select: RESULT_TEXT,
  });
}

/** The timeline events of these results (an import keeps a result's content blocks in its event's dataJson). */
export async function findResultEvents(client: ModelClient, resultIds: number[]) {
  if (resultIds.length === 0) return [];
  return client.event.findMany({
    where: { resultId: { in: resultIds }, kind: "tool_result" },
    select: { resultId: true, dataJson: true, source: true },
  });
}
