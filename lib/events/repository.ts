// Prisma access for the runtime's trace events: threads, call registrations, timeline rows.
import type { ModelClient } from "../db/client.ts";

export async function ensureThread(tx: ModelClient, groupId: string, at: Date, vendor: string | null): Promise<number> {
  const thread = await tx.thread.upsert({
    where: { groupId },
    create: { groupId, createdAt: at, lastActivityAt: at, vendor },
    update: {},
    select: { id: true, lastActivityAt: true },
  });
  if (thread.lastActivityAt < at) await tx.thread.update({ where: { id: thread.id }, data: { lastActivityAt: at }, select: { id: true } });
  return thread.id;
}

export async function touchThread(tx: ModelClient, threadId: number, at: Date): Promise<void> {
  await tx.thread.updateMany({ where: { id: threadId, lastActivityAt: { lt: at } }, data: { lastActivityAt: at } });
}

export type RegisteredCall = { id: number; registrationSha256: string; status: string; subscription: string | null; eventId: number | null };

export async function findRegisteredCall(tx: ModelClient, groupId: string, callKey: string): Promise<RegisteredCall | null> {
  const call = await tx.toolCall.findUnique({
    where: { groupId_callKey: { groupId, callKey } },
    select: { id: true, registrationSha256: true, status: true, subscription: true },
  });
  if (!call) return null;
  const event = await tx.event.findFirst({ where: { toolCallId: call.id, kind: "tool_call" }, select: { id: true }, orderBy: { id: "asc" } });
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
  const event = await tx.event.findFirst({ where: { toolCallId, kind }, select: { id: true }, orderBy: { id: "desc" } });
  return event?.id ?? null;
}

export async function cancelCall(tx: ModelClient, toolCallId: number, at: Date, wasPending: boolean): Promise<void> {
  await tx.toolCall.update({
    where: { id: toolCallId },
    data: { subscription: "cancelled", ...(wasPending ? { status: "cancelled", completedAt: at } : {}) },
    select: { id: true },
  });
}
