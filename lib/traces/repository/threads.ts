// Prisma access for threads as wholes: finding one by group id, listing recent ones, the import record.
import "server-only";
import type { ModelClient } from "../../db/client.ts";
import type { ThreadRecord } from "../export-format.ts";

export type ThreadRow = { id: number; groupId: string; record: ThreadRecord };

export async function findThread(client: ModelClient, groupId: string): Promise<ThreadRow | null> {
  const row = await client.thread.findUnique({
    where: { groupId },
    select: { id: true, groupId: true, title: true, vendor: true, createdAt: true, lastActivityAt: true },
  });
  if (row === null) return null;
  return {
    id: row.id,
    groupId: row.groupId,
    record: {
      kind: "thread",
      title: row.title,
      vendor: row.vendor,
      created_at: row.createdAt.toISOString(),
      last_activity_at: row.lastActivityAt.toISOString(),
    },
  };
}

export type ThreadListItem = { groupId: string; title: string | null; vendor: string | null; lastActivityAt: string };

export async function listRecentThreads(client: ModelClient, limit: number): Promise<ThreadListItem[]> {
  const rows = await client.thread.findMany({
    orderBy: [{ lastActivityAt: "desc" }, { id: "desc" }],
    take: limit,
    select: { groupId: true, title: true, vendor: true, lastActivityAt: true },
  });
  return rows.map((row) => ({
    groupId: row.groupId,
    title: row.title,
    vendor: row.vendor,
    lastActivityAt: row.lastActivityAt.toISOString(),
  }));
}

/** The data of the thread's first `import` event: what a vendor import recorded about its input. */
export async function findImportEventData(client: ModelClient, threadId: number, kind: string): Promise<string | null> {
  const row = await client.event.findFirst({
    where: { threadId, kind },
    orderBy: { id: "asc" },
    select: { dataJson: true },
  });
  return row?.dataJson ?? null;
}

export type ForkOrigin = { forkOfGroupId: string | null; atStep: number | null; historyEndCallId: number };

/** When the thread is a fork (lib/forks): what it was forked from, and the last call row it copied as history. */
export async function findForkOrigin(client: ModelClient, threadId: number): Promise<ForkOrigin | null> {
  const row = await client.thread.findUnique({
    where: { id: threadId },
    select: { forkOfGroupId: true, forkAtStep: true, forkRun: { select: { historyEndCallId: true } } },
  });
  if (row === null || row.forkRun === null) return null;
  return { forkOfGroupId: row.forkOfGroupId, atStep: row.forkAtStep, historyEndCallId: row.forkRun.historyEndCallId };
}

/** Whether a thread with this group id exists (a not-found page answers 404 before anything streams). */
export async function threadExists(client: ModelClient, groupId: string): Promise<boolean> {
  return (await client.thread.findUnique({ where: { groupId }, select: { id: true } })) !== null;
}

/** Whether a call with this row id exists. */
export async function callExists(client: ModelClient, callRowId: number): Promise<boolean> {
  return (await client.toolCall.findUnique({ where: { id: callRowId }, select: { id: true } })) !== null;
}
