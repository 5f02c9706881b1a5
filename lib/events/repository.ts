// Prisma access for the runtime's trace events: threads, call registrations, timeline rows.
import "server-only";
import type { ModelClient } from "../db/client.ts";
import { AppError } from "../http/app-error.ts";
import { multiRowInserts, type SqlValue } from "../db/sql.ts";

/**
 * The thread of `groupId`, created if new. Its vendor is the first one an event names: a thread that opens with
 * messages (no vendor) takes the vendor of its first call, so replay opens in the thread's own encoding.
 */
export async function ensureThread(
  tx: ModelClient,
  groupId: string,
  at: Date,
  vendor: string | null,
): Promise<{ id: number; vendor: string | null }> {
  const thread = await tx.thread.upsert({
    where: { groupId },
    create: { groupId, createdAt: at, lastActivityAt: at, vendor },
    update: {},
    select: { id: true, lastActivityAt: true, vendor: true, removingAt: true },
  });
  // Retention is removing this thread (lib/lifecycle fenced it): the sender retries, and once it is gone the
  // group starts a new thread. Writing into it now would lose the write with the rest of the thread.
  if (thread.removingAt !== null)
    throw new AppError("unavailable", `thread "${groupId}" is being removed by retention; retry shortly`, {
      retryAfterSeconds: 2,
    });
  if (thread.lastActivityAt < at)
    await tx.thread.update({ where: { id: thread.id }, data: { lastActivityAt: at }, select: { id: true } });
  if (thread.vendor === null && vendor !== null) await setThreadVendor(tx, thread.id, vendor);
  return { id: thread.id, vendor: thread.vendor ?? vendor };
}

/** Names the thread's vendor if it has none yet. */
export async function setThreadVendor(tx: ModelClient, threadId: number, vendor: string): Promise<void> {
  await tx.thread.updateMany({ where: { id: threadId, vendor: null }, data: { vendor } });
}

export async function touchThread(tx: ModelClient, threadId: number, at: Date): Promise<void> {
  await tx.thread.updateMany({ where: { id: threadId, lastActivityAt: { lt: at } }, data: { lastActivityAt: at } });
}

export type RegisteredCall = {
  id: number;
  registrationSha256: string;
  status: string;
  subscription: string | null;
  eventId: number | null;
};

export async function findRegisteredCall(
  tx: ModelClient,
  groupId: string,
  callKey: string,
): Promise<RegisteredCall | null> {
  const call = await tx.toolCall.findUnique({
    where: { groupId_callKey: { groupId, callKey } },
    select: { id: true, registrationSha256: true, status: true, subscription: true },
  });
  if (!call) return null;
  const event = await tx.event.findFirst({
    where: { toolCallId: call.id, kind: "tool_call" },
    select: { id: true },
    orderBy: { id: "asc" },
  });
  return { ...call, eventId: event?.id ?? null };
}

export type NewCall = {
  threadId: number;
  groupId: string;
  callKey: string;
  callId: string | null;
  toolName: string;
  argumentsText: string | null;
  argumentsEscaped: boolean;
  argumentsJson: string | null;
  argumentsError: string | null;
  declarationJson: string | null;
  outputSchemaJson: string | null;
  vendor: string | null;
  step: number | null;
  subscription: string | null;
  requestedAt: Date;
  deadlineAt: Date | null;
  registrationSha256: string;
};

export async function createCall(tx: ModelClient, call: NewCall): Promise<number> {
  const row = await tx.toolCall.create({ data: { ...call, status: "pending" }, select: { id: true } });
  return row.id;
}

export type NewEvent = {
  threadId: number;
  kind: string;
  toolCallId?: number | null;
  resultId?: number | null;
  step?: number | null;
  role?: string | null;
  text?: string | null;
  textEscaped?: boolean;
  dataJson?: string | null;
  rawJson?: string | null;
  source: string;
  occurredAt: Date;
};

export async function createEvent(tx: ModelClient, event: NewEvent): Promise<number> {
  const row = await tx.event.create({ data: event, select: { id: true } });
  return row.id;
}

export async function findLatestEventOfCall(tx: ModelClient, toolCallId: number, kind: string): Promise<number | null> {
  const event = await tx.event.findFirst({
    where: { toolCallId, kind },
    select: { id: true },
    orderBy: { id: "desc" },
  });
  return event?.id ?? null;
}

export async function cancelCall(tx: ModelClient, toolCallId: number, at: Date, wasPending: boolean): Promise<void> {
  await tx.toolCall.update({
    where: { id: toolCallId },
    data: { subscription: "cancelled", ...(wasPending ? { status: "cancelled", completedAt: at } : {}) },
    select: { id: true },
  });
}

export async function anyCallExists(tx: ModelClient, keys: { groupId: string; callKey: string }[]): Promise<boolean> {
  const byGroup = new Map<string, string[]>();
  for (const key of keys) byGroup.set(key.groupId, [...(byGroup.get(key.groupId) ?? []), key.callKey]);
  for (const [groupId, callKeys] of byGroup) {
    // Chunks stay under SQLite's 999-parameter limit that Prisma assumes.
    for (let start = 0; start < callKeys.length; start += 900) {
      const found = await tx.toolCall.findFirst({
        where: { groupId, callKey: { in: callKeys.slice(start, start + 900) } },
        select: { id: true },
      });
      if (found) return true;
    }
  }
  return false;
}

export type NewCallWithEvent = { call: NewCall; step: number | null };

const CALL_COLUMNS = [
  "threadId",
  "groupId",
  "callKey",
  "callId",
  "toolName",
  "argumentsText",
  "argumentsEscaped",
  "argumentsJson",
  "argumentsError",
  "declarationJson",
  "outputSchemaJson",
  "vendor",
  "step",
  "subscription",
  "requestedAt",
  "deadlineAt",
  "registrationSha256",
  "status",
] as const;

/**
 * Inserts new calls and their tool_call timeline events with multi-row INSERTs (events in the given order);
 * returns the row ids in input order.
 */
export async function insertCallsWithEvents(
  tx: ModelClient,
  rows: NewCallWithEvent[],
  source: string,
): Promise<{ callId: number; eventId: number }[]> {
  const callIds = new Map<string, number>();
  const callRows = rows.map(({ call }) =>
    CALL_COLUMNS.map((column): SqlValue => (column === "status" ? "pending" : call[column])),
  );
  for (const statement of multiRowInserts("ToolCall", CALL_COLUMNS, callRows, ["id", "groupId", "callKey"])) {
    for (const row of await tx.$queryRaw<{ id: number | bigint; groupId: string; callKey: string }[]>(statement)) {
      callIds.set(JSON.stringify([row.groupId, row.callKey]), Number(row.id));
    }
  }
  const ids = rows.map(({ call }) => {
    const id = callIds.get(JSON.stringify([call.groupId, call.callKey]));
    if (id === undefined) throw new Error(`call ${call.callKey} was not returned by the insert`);
    return id;
  });
  const eventIds = new Map<number, number>();
  const eventRows = rows.map(({ call, step }, index) => [
    call.threadId,
    "tool_call",
    ids[index] ?? null,
    step,
    source,
    call.requestedAt,
    false,
  ]);
  for (const statement of multiRowInserts(
    "Event",
    ["threadId", "kind", "toolCallId", "step", "source", "occurredAt", "textEscaped"],
    eventRows,
    ["id", "toolCallId"],
  )) {
    for (const row of await tx.$queryRaw<{ id: number | bigint; toolCallId: number | bigint }[]>(statement))
      eventIds.set(Number(row.toolCallId), Number(row.id));
  }
  return ids.map((callId) => ({ callId, eventId: eventIds.get(callId) ?? 0 }));
}
