// Prisma access for subscriptions: calls whose subscription column is set, and their cancellation events.
import "server-only";
import type { ModelClient } from "../db/client.ts";
import { decodeStoredText } from "../results/text-codec.ts";
import type { SubscriptionState, SubscriptionSummary } from "./schemas.ts";

export async function countSubscriptions(db: ModelClient, state: SubscriptionState): Promise<number> {
  return db.toolCall.count({ where: { subscription: state } });
}

type Cancellation = { toolCallId: number; occurredAt: Date; text: string | null; textEscaped: boolean };

async function findCancellations(db: ModelClient, callRowIds: number[]): Promise<Map<number, Cancellation>> {
  if (callRowIds.length === 0) return new Map();
  const events = await db.event.findMany({
    where: { toolCallId: { in: callRowIds }, kind: "subscription_cancelled" },
    select: { toolCallId: true, occurredAt: true, text: true, textEscaped: true },
    orderBy: { id: "asc" },
  });
  const byCall = new Map<number, Cancellation>();
  for (const event of events) {
    // The first cancellation counts; a repeated cancel is answered idempotently and records nothing new.
    if (event.toolCallId !== null && !byCall.has(event.toolCallId))
      byCall.set(event.toolCallId, { ...event, toolCallId: event.toolCallId });
  }
  return byCall;
}

/** Newest registration first (by row id: stable while results arrive, so rows never reorder under the reader). */
export async function findSubscriptions(
  db: ModelClient,
  options: { state: SubscriptionState; limit: number },
): Promise<SubscriptionSummary[]> {
  const calls = await db.toolCall.findMany({
    where: { subscription: options.state },
    orderBy: { id: "desc" },
    take: options.limit,
    select: {
      id: true,
      groupId: true,
      callKey: true,
      toolName: true,
      vendor: true,
      status: true,
      resultCount: true,
      lastResultAt: true,
      requestedAt: true,
    },
  });
  const cancellations =
    options.state === "cancelled"
      ? await findCancellations(
          db,
          calls.map((c) => c.id),
        )
      : new Map<number, Cancellation>();
  return calls.map((call) => {
    const cancellation = cancellations.get(call.id);
    return {
      callRowId: call.id,
      groupId: call.groupId,
      callKey: call.callKey,
      toolName: call.toolName,
      vendor: call.vendor,
      status: call.status,
      state: options.state,
      resultCount: call.resultCount,
      lastResultAt: call.lastResultAt?.toISOString() ?? null,
      requestedAt: call.requestedAt.toISOString(),
      cancelledAt: cancellation?.occurredAt.toISOString() ?? null,
      cancelReason: cancellation?.text == null ? null : decodeStoredText(cancellation.text, cancellation.textEscaped),
    };
  });
}
