// Prisma access for deadlines: pending calls whose deadline has passed become timed_out.
import "server-only";
import type { ModelClient } from "../db/client.ts";

export async function findOverdueCalls(tx: ModelClient, now: Date, limit: number) {
  return tx.toolCall.findMany({
    where: { status: "pending", deadlineAt: { lte: now } },
    select: { id: true, threadId: true, deadlineAt: true },
    orderBy: { deadlineAt: "asc" },
    take: limit,
  });
}

/** Marks the calls timed out unless a result got there first; returns the ones it changed. */
export async function markTimedOut(
  tx: ModelClient,
  calls: { id: number; threadId: number; deadlineAt: Date | null }[],
): Promise<number[]> {
  const changed: number[] = [];
  for (const call of calls) {
    const { count } = await tx.toolCall.updateMany({
      where: { id: call.id, status: "pending" },
      data: { status: "timed_out", timedOutAt: call.deadlineAt },
    });
    if (count === 1) changed.push(call.id);
  }
  const byId = new Map(calls.map((c) => [c.id, c]));
  const events = changed.flatMap((id) => {
    const call = byId.get(id);
    return call
      ? [
          {
            threadId: call.threadId,
            kind: "timeout",
            toolCallId: id,
            source: "deadline",
            occurredAt: call.deadlineAt ?? new Date(),
          },
        ]
      : [];
  });
  if (events.length > 0) await tx.event.createMany({ data: events });
  return changed;
}
