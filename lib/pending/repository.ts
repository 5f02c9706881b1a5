// Prisma access for pending calls: status "pending" and not a subscription (subscriptions are listed apart).
import "server-only";
import type { ModelClient } from "../db/client.ts";
import { CALL_IDENTITY } from "../db/selects.ts";
import type { PendingCall, PendingSort, TimedOutCall } from "./schemas.ts";

const PENDING = { status: "pending", subscription: null } as const;

export async function countPendingCalls(db: ModelClient): Promise<number> {
  return db.toolCall.count({ where: PENDING });
}

/** Served by the (status, requestedAt) index; the id breaks ties so the order is total and stable. */
export async function findPendingCalls(
  db: ModelClient,
  options: { sort: PendingSort; limit: number },
): Promise<PendingCall[]> {
  const direction = options.sort === "oldest" ? "asc" : "desc";
  const calls = await db.toolCall.findMany({
    where: PENDING,
    orderBy: [{ requestedAt: direction }, { id: direction }],
    take: options.limit,
    select: { ...CALL_IDENTITY, requestedAt: true, deadlineAt: true },
  });
  return calls.map(({ id, requestedAt, deadlineAt, ...call }) => ({
    callRowId: id,
    ...call,
    requestedAt: requestedAt.toISOString(),
    deadlineAt: deadlineAt?.toISOString() ?? null,
  }));
}

/** Calls that timed out at or after `since`, newest first (the status index narrows to timed-out calls). */
export async function findTimedOutCalls(
  db: ModelClient,
  options: { since: Date; limit: number },
): Promise<{ total: number; calls: TimedOutCall[] }> {
  const where = { status: "timed_out", subscription: null, timedOutAt: { gte: options.since } };
  const [total, calls] = await Promise.all([
    db.toolCall.count({ where }),
    db.toolCall.findMany({
      where,
      orderBy: [{ timedOutAt: "desc" }, { id: "desc" }],
      take: options.limit,
      select: {
        id: true,
        groupId: true,
        callKey: true,
        callId: true,
        toolName: true,
        vendor: true,
        step: true,
        requestedAt: true,
        deadlineAt: true,
        timedOutAt: true,
      },
    }),
  ]);
  return {
    total,
    calls: calls.map(({ id, requestedAt, deadlineAt, timedOutAt, ...call }) => ({
      callRowId: id,
      ...call,
      requestedAt: requestedAt.toISOString(),
      deadlineAt: deadlineAt?.toISOString() ?? null,
      timedOutAt: (timedOutAt ?? requestedAt).toISOString(),
    })),
  };
}
