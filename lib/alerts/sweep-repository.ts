// The alerts sweeper's look-ups: only rows that became due since a rule's cursor, each by an index — calls whose
// deadline passed ([deadlineAt]), calls pending past a threshold ([status, requestedAt]), held results and approvals
// waiting for a person ([status, heldAt], [status, requestedAt]), calls registered since ([id]).
import "server-only";
import type { DriverConnection } from "../db/driver.ts";
import { sql } from "../db/sql.ts";
import { instant } from "./repository.ts";

export type DueRow = { groupId: string; callKey: string; toolCallId: number | null; toolName: string | null; at: Date };

const rowOf = (row: Record<string, unknown>): DueRow => ({
  groupId: String(row.groupId),
  callKey: String(row.callKey),
  toolCallId: row.toolCallId === null || row.toolCallId === undefined ? null : Number(row.toolCallId),
  toolName: row.toolName === null || row.toolName === undefined ? null : String(row.toolName),
  at: instant(row.at),
});

type Range = { after: Date | null; upTo: Date; limit: number };
const EPOCH = new Date(0);

/** Calls whose deadline fell in (after, upTo] with no result by then (still pending, or marked timed out). */
export async function findTimedOutCalls(tx: DriverConnection, range: Range): Promise<DueRow[]> {
  const rows = await tx.query<Record<string, unknown>[]>(
    sql`SELECT "id" AS "toolCallId", "groupId", "callKey", "toolName", "deadlineAt" AS "at" FROM "ToolCall"
        WHERE "deadlineAt" > ${range.after ?? EPOCH} AND "deadlineAt" <= ${range.upTo}
          AND ("status" = 'pending' OR "timedOutAt" IS NOT NULL)
        ORDER BY "deadlineAt" LIMIT ${range.limit}`,
  );
  return rows.map(rowOf);
}

/** Calls requested in (after, upTo] that are still pending. */
export async function findPendingCalls(tx: DriverConnection, range: Range): Promise<DueRow[]> {
  const rows = await tx.query<Record<string, unknown>[]>(
    sql`SELECT "id" AS "toolCallId", "groupId", "callKey", "toolName", "requestedAt" AS "at" FROM "ToolCall"
        WHERE "status" = 'pending' AND "requestedAt" > ${range.after ?? EPOCH} AND "requestedAt" <= ${range.upTo}
        ORDER BY "requestedAt" LIMIT ${range.limit}`,
  );
  return rows.map(rowOf);
}

/** Results held at a breakpoint since (after, upTo] and still held; approval requests likewise still pending. */
export async function findWaitingForPerson(tx: DriverConnection, range: Range): Promise<DueRow[]> {
  const held = await tx.query<Record<string, unknown>[]>(
    sql`SELECT "toolCallId", "groupId", "callKey", "toolName", "heldAt" AS "at" FROM "HeldResult"
        WHERE "status" = 'held' AND "heldAt" > ${range.after ?? EPOCH} AND "heldAt" <= ${range.upTo}
        ORDER BY "heldAt" LIMIT ${range.limit}`,
  );
  const approvals = await tx.query<Record<string, unknown>[]>(
    sql`SELECT NULL AS "toolCallId", "groupId", "callKey", "toolName", "requestedAt" AS "at" FROM "Approval"
        WHERE "status" = 'pending' AND "requestedAt" > ${range.after ?? EPOCH} AND "requestedAt" <= ${range.upTo}
        ORDER BY "requestedAt" LIMIT ${range.limit}`,
  );
  return [...held, ...approvals].map(rowOf).sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** Calls registered after id `afterId` (any way in), in id order. */
export async function findCallsAfter(
  tx: DriverConnection,
  options: { afterId: number; limit: number },
): Promise<(DueRow & { id: number })[]> {
  const rows = await tx.query<Record<string, unknown>[]>(
    sql`SELECT "id", "id" AS "toolCallId", "groupId", "callKey", "toolName", "requestedAt" AS "at" FROM "ToolCall"
        WHERE "id" > ${options.afterId} ORDER BY "id" LIMIT ${options.limit}`,
  );
  return rows.map((row) => ({ ...rowOf(row), id: Number(row.id) }));
}

/** Whether a call of this tool exists with an id below `beforeId` (served by the [toolName, requestedAt] index). */
export async function toolSeenBefore(tx: DriverConnection, toolName: string, beforeId: number): Promise<boolean> {
  const rows = await tx.query<{ one: number }[]>(
    sql`SELECT 1 AS "one" FROM "ToolCall" WHERE "toolName" = ${toolName} AND "id" < ${beforeId} LIMIT 1`,
  );
  return rows.length > 0;
}
