// Prisma reads of the outbox for the pages and APIs: messages newest first with their counts, one message with its
// attempts, the messages of one call.
import "server-only";
import type { ModelClient } from "../db/client.ts";
import type { OutboxAttemptView, OutboxMessageView, OutboxStatus } from "./schemas.ts";

const MESSAGE_SELECT = {
  id: true,
  createdAt: true,
  kind: true,
  destination: true,
  webhookId: true,
  contentType: true,
  status: true,
  attempts: true,
  nextAttemptAt: true,
  lastStatus: true,
  lastError: true,
  deliveredAt: true,
  deadAt: true,
  deadReason: true,
  retriedAt: true,
  retriedBy: true,
  groupId: true,
  callKey: true,
  toolCallId: true,
  fault: true,
} as const;

type MessageRow = {
  id: number;
  createdAt: Date;
  kind: string;
  destination: string;
  webhookId: string;
  contentType: string;
  status: string;
  attempts: number;
  nextAttemptAt: Date;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  deadAt: Date | null;
  deadReason: string | null;
  retriedAt: Date | null;
  retriedBy: string | null;
  groupId: string | null;
  callKey: string | null;
  toolCallId: number | null;
  fault: string | null;
};

function view(row: MessageRow, bodyBytes: number): OutboxMessageView {
  return {
    ...row,
    status: row.status as OutboxStatus,
    bodyBytes,
    createdAt: row.createdAt.toISOString(),
    nextAttemptAt: row.nextAttemptAt.toISOString(),
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    deadAt: row.deadAt?.toISOString() ?? null,
    retriedAt: row.retriedAt?.toISOString() ?? null,
  };
}

export type OutboxFilters = { status?: OutboxStatus; destination?: string; groupId?: string; toolCallId?: number };

function whereOf(filters: OutboxFilters) {
  return {
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.destination ? { destination: filters.destination } : {}),
    ...(filters.groupId ? { groupId: filters.groupId } : {}),
    ...(filters.toolCallId !== undefined ? { toolCallId: filters.toolCallId } : {}),
  };
}

export async function findMessages(
  db: ModelClient,
  options: { filters: OutboxFilters; before: number | null; limit: number; oldestFirst?: boolean },
): Promise<OutboxMessageView[]> {
  const rows = await db.outboxMessage.findMany({
    where: { ...whereOf(options.filters), ...(options.before ? { id: { lt: options.before } } : {}) },
    orderBy: { id: options.oldestFirst ? "asc" : "desc" },
    take: options.limit,
    select: MESSAGE_SELECT,
  });
  // Body sizes without reading the bodies: one small query.
  const sizes = await bodySizes(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => view(row, sizes.get(row.id) ?? 0));
}

async function bodySizes(db: ModelClient, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db.outboxMessage.findMany({ where: { id: { in: ids } }, select: { id: true, body: true } });
  return new Map(rows.map((row) => [row.id, row.body.byteLength]));
}

export async function countByStatus(db: ModelClient, filters: Omit<OutboxFilters, "status">) {
  const groups = await db.outboxMessage.groupBy({ by: ["status"], where: whereOf(filters), _count: { _all: true } });
  return Object.fromEntries(groups.map((group) => [group.status, group._count._all])) as Partial<
    Record<OutboxStatus, number>
  >;
}

export async function findMessage(
  db: ModelClient,
  id: number,
): Promise<{ message: OutboxMessageView; body: Uint8Array; attempts: OutboxAttemptView[] } | null> {
  const row = await db.outboxMessage.findUnique({ where: { id }, select: { ...MESSAGE_SELECT, body: true } });
  if (!row) return null;
  const { body, ...rest } = row;
  const attempts = await findAttempts(db, [id]);
  return { message: view(rest, body.byteLength), body, attempts: attempts.get(id) ?? [] };
}

/** Each message's attempts, oldest first (at most the newest 50 of each). */
export async function findAttempts(db: ModelClient, messageIds: number[]): Promise<Map<number, OutboxAttemptView[]>> {
  if (messageIds.length === 0) return new Map();
  const rows = await db.outboxAttempt.findMany({
    where: { messageId: { in: messageIds } },
    orderBy: { id: "asc" },
    take: 50 * messageIds.length,
    select: {
      id: true,
      messageId: true,
      number: true,
      startedAt: true,
      durationMs: true,
      httpStatus: true,
      error: true,
      responseBody: true,
      worker: true,
    },
  });
  const out = new Map<number, OutboxAttemptView[]>();
  for (const { messageId, startedAt, ...row } of rows) {
    const list = out.get(messageId) ?? [];
    list.push({ ...row, startedAt: startedAt.toISOString() });
    out.set(messageId, list.slice(-50));
  }
  return out;
}
