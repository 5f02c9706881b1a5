// Approvals as rows: created and decided on the driver connection (a decision and its webhook's outbox message in
// one transaction), read through Prisma for the pages.
import "server-only";
import type { ModelClient } from "../db/client.ts";
import type { DriverConnection } from "../db/driver.ts";
import { sql } from "../db/sql.ts";
import { insertInterventions, type NewIntervention } from "../intercept/repository.ts";
import { enqueueOutbox, type NewOutboxMessage } from "../outbox/repository.ts";

export type NewApproval = {
  groupId: string;
  callKey: string;
  toolName: string;
  argumentsText: string;
  relay: string | null;
  requestedAt: Date;
  requestedBy: string;
  timeoutAt: Date;
  status: string;
  decidedAt: Date | null;
  decidedBy: string | null;
};

export async function insertApproval(tx: DriverConnection, row: NewApproval): Promise<number> {
  const values = sql`(${row.groupId}, ${row.callKey}, ${row.toolName}, ${row.argumentsText}, ${row.relay}, ${row.requestedAt}, ${row.requestedBy}, ${row.timeoutAt}, ${row.status}, ${row.decidedAt}, ${row.decidedBy})`;
  const rows = await tx.query<{ id: number }[]>(sql`
    INSERT INTO "Approval" ("groupId", "callKey", "toolName", "argumentsText", "relay", "requestedAt", "requestedBy", "timeoutAt", "status", "decidedAt", "decidedBy")
    VALUES ${values} RETURNING "id"`);
  return Number(rows[0]?.id);
}

/** Compare and set from pending: false when it was decided (or expired) already. */
export async function decideApprovalRow(
  tx: DriverConnection,
  options: { id: number; status: string; by: string; at: Date; reason: string | null; editedArguments: string | null },
): Promise<boolean> {
  const changed = await tx.execute(sql`
    UPDATE "Approval" SET "status" = ${options.status}, "decidedBy" = ${options.by}, "decidedAt" = ${options.at},
      "reason" = ${options.reason}, "editedArguments" = ${options.editedArguments}
    WHERE "id" = ${options.id} AND "status" = 'pending'`);
  return changed > 0;
}

export async function findOverdueApprovals(tx: DriverConnection, now: Date): Promise<number[]> {
  const rows = await tx.query<{ id: number }[]>(
    sql`SELECT "id" FROM "Approval" WHERE "status" = 'pending' AND "timeoutAt" <= ${now} ORDER BY "id" LIMIT 200`,
  );
  return rows.map((row) => Number(row.id));
}

export async function enqueueDecision(tx: DriverConnection, message: NewOutboxMessage | null): Promise<void> {
  if (message) await enqueueOutbox(tx, [message]);
}

export async function auditDecision(tx: DriverConnection, note: NewIntervention): Promise<void> {
  await insertInterventions(tx, [note]);
}

const APPROVAL_SELECT = {
  id: true,
  groupId: true,
  callKey: true,
  toolName: true,
  argumentsText: true,
  relay: true,
  requestedAt: true,
  requestedBy: true,
  timeoutAt: true,
  status: true,
  decidedAt: true,
  decidedBy: true,
  reason: true,
  editedArguments: true,
} as const;

export type StoredApproval = {
  id: number;
  groupId: string;
  callKey: string;
  toolName: string;
  argumentsText: string;
  relay: string | null;
  requestedAt: Date;
  requestedBy: string;
  timeoutAt: Date;
  status: string;
  decidedAt: Date | null;
  decidedBy: string | null;
  reason: string | null;
  editedArguments: string | null;
};

export async function findApproval(db: ModelClient, id: number): Promise<StoredApproval | null> {
  return db.approval.findUnique({ where: { id }, select: APPROVAL_SELECT });
}

export async function findApprovals(
  db: ModelClient,
  options: { pending: boolean; groupId?: string; callKey?: string; limit: number },
): Promise<StoredApproval[]> {
  return db.approval.findMany({
    where: {
      ...(options.pending ? { status: "pending" } : { status: { not: "pending" } }),
      ...(options.groupId ? { groupId: options.groupId } : {}),
      ...(options.callKey ? { callKey: options.callKey } : {}),
    },
    orderBy: { id: options.pending ? "asc" : "desc" },
    take: options.limit,
    select: APPROVAL_SELECT,
  });
}

export async function findCallRows(db: ModelClient, keys: { groupId: string; callKey: string }[]) {
  if (keys.length === 0) return new Map<string, number>();
  const rows = await db.toolCall.findMany({
    where: { OR: keys.map((key) => ({ groupId: key.groupId, callKey: key.callKey })) },
    select: { id: true, groupId: true, callKey: true },
  });
  return new Map(rows.map((row) => [JSON.stringify([row.groupId, row.callKey]), row.id]));
}

export async function findApprovalRules(db: ModelClient, enabledOnly: boolean) {
  return db.approvalRule.findMany({
    where: enabledOnly ? { enabled: true } : {},
    orderBy: { id: "asc" },
    select: { id: true, name: true, toolName: true, enabled: true, createdAt: true, createdBy: true },
  });
}

export async function createApprovalRule(
  db: ModelClient,
  row: { name: string; toolName: string; enabled: boolean; createdBy: string; createdAt: Date },
) {
  return db.approvalRule.create({
    data: row,
    select: { id: true, name: true, toolName: true, enabled: true, createdAt: true, createdBy: true },
  });
}

export async function deleteApprovalRule(db: ModelClient, id: number): Promise<boolean> {
  const { count } = await db.approvalRule.deleteMany({ where: { id } });
  return count > 0;
}
