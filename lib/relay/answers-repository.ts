// Prisma reads for answering a call as the tool: the call, the thread's relay target, and recorded results of the
// same tool (their arguments are compared by the service).
import "server-only";
import type { ModelClient } from "../db/client.ts";

export async function findCallForAnswer(db: ModelClient, callRowId: number) {
  return db.toolCall.findUnique({
    where: { id: callRowId },
    select: {
      id: true,
      groupId: true,
      callKey: true,
      callId: true,
      toolName: true,
      argumentsText: true,
      argumentsJson: true,
      status: true,
      subscription: true,
    },
  });
}

/** The relay target the thread's results last came through (or were answered to), if any. */
export async function findThreadRelay(db: ModelClient, groupId: string): Promise<string | null> {
  const row = await db.delivery.findFirst({
    where: { groupId, relay: { not: null } },
    orderBy: { id: "desc" },
    select: { relay: true },
  });
  return row?.relay ?? null;
}

/** Answered calls of `toolName` (other than `exceptCallId`), newest first, with their first result. */
export async function findRecordedCalls(
  db: ModelClient,
  options: { toolName: string; exceptCallId: number; limit: number },
) {
  return db.toolCall.findMany({
    where: { toolName: options.toolName, id: { not: options.exceptCallId }, resultCount: { gt: 0 } },
    orderBy: { id: "desc" },
    take: options.limit,
    select: {
      id: true,
      groupId: true,
      callKey: true,
      argumentsText: true,
      argumentsJson: true,
      results: {
        where: { ordinal: 0 },
        select: { id: true, text: true, textEscaped: true, textBytes: true, displayAsJson: true, receivedAt: true },
      },
    },
  });
}
