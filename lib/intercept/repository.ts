// In-path rows written and read inside a delivery's own transaction (driver connection): the enabled rules, the
// holds a breakpoint makes, and the audit log of changes (Intervention). Both databases, one SQL.
import "server-only";
import { insertEach, insertValues } from "../db/bulk-rows.ts";
import type { DriverConnection } from "../db/driver.ts";
import { sql, type SqlValue } from "../db/sql.ts";
import type { BreakpointRule, FaultRule } from "./match.ts";
import type { FaultAction } from "./schemas.ts";

export type ActiveRules = { breakpoints: BreakpointRule[]; faults: FaultRule[] };

const flag = (value: unknown) => value === true || value === 1 || value === 1n;
const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
const number = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/** The enabled breakpoint and fault rules, in id order (two small tables, read once per relayed group). */
export async function loadActiveRules(tx: DriverConnection): Promise<ActiveRules> {
  const breakpoints = await tx.query<Record<string, unknown>[]>(
    sql`SELECT "id", "name", "relay", "toolName", "groupPattern", "textContains", "confidenceBelow", "successFalse", "errorOnly",
          "nextAction", "timeoutMs", "onTimeout" FROM "BreakpointRule" WHERE "enabled" = ${true} ORDER BY "id"`,
  );
  const faults = await tx.query<Record<string, unknown>[]>(
    sql`SELECT "id", "name", "relay", "toolName", "groupPattern", "action", "probability", "delayMs", "errorText"
          FROM "FaultRule" WHERE "enabled" = ${true} ORDER BY "id"`,
  );
  return {
    breakpoints: breakpoints.map((row) => ({
      id: Number(row.id),
      name: String(row.name),
      relay: text(row.relay),
      toolName: text(row.toolName),
      groupPattern: text(row.groupPattern),
      textContains: text(row.textContains),
      confidenceBelow: number(row.confidenceBelow),
      successFalse: flag(row.successFalse),
      errorOnly: flag(row.errorOnly),
      nextAction: text(row.nextAction),
      timeoutMs: Number(row.timeoutMs),
      onTimeout: String(row.onTimeout),
    })),
    faults: faults.map((row) => ({
      id: Number(row.id),
      name: String(row.name),
      relay: text(row.relay),
      toolName: text(row.toolName),
      groupPattern: text(row.groupPattern),
      action: String(row.action) as FaultAction,
      probability: Number(row.probability),
      delayMs: number(row.delayMs),
      errorText: text(row.errorText),
    })),
  };
}

export type NewHold = {
  messageId: number;
  ruleId: number;
  ruleName: string;
  relay: string;
  groupId: string;
  callKey: string;
  toolCallId: number | null;
  toolName: string | null;
  heldAt: Date;
  timeoutAt: Date;
  onTimeout: string;
  originalBody: Uint8Array;
};

const HOLD_COLUMNS = [
  "messageId",
  "ruleId",
  "ruleName",
  "relay",
  "groupId",
  "callKey",
  "toolCallId",
  "toolName",
  "heldAt",
  "timeoutAt",
  "onTimeout",
  "originalBody",
  "status",
] as const;

/** Inserts holds; returns their ids in order. */
export async function insertHolds(tx: DriverConnection, holds: NewHold[]): Promise<number[]> {
  if (holds.length === 0) return [];
  const rows = holds.map((hold) => {
    const values: Record<(typeof HOLD_COLUMNS)[number], SqlValue> = {
      ...hold,
      originalBody: Buffer.from(hold.originalBody),
      status: "held",
    };
    return HOLD_COLUMNS.map((column) => values[column]);
  });
  if (tx.provider === "sqlite") return insertEach(tx, "HeldResult", HOLD_COLUMNS, rows, "").map(Number);
  return (await insertValues<{ id: number }[]>(tx, "HeldResult", HOLD_COLUMNS, rows, `RETURNING "id"`))
    .map((row) => Number(row.id))
    .sort((a, b) => a - b);
}

export type NewIntervention = {
  at: Date;
  actor: string;
  action: string;
  groupId: string | null;
  callKey: string | null;
  toolCallId: number | null;
  messageId: number | null;
  holdId: number | null;
  approvalId: number | null;
  detail: unknown;
};

const INTERVENTION_COLUMNS = [
  "at",
  "actor",
  "action",
  "groupId",
  "callKey",
  "toolCallId",
  "messageId",
  "holdId",
  "approvalId",
  "detailJson",
] as const;

/** Appends to the in-path audit log: who changed what, and when. */
export async function insertInterventions(tx: DriverConnection, rows: NewIntervention[]): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map((row) => [
    row.at,
    row.actor,
    row.action,
    row.groupId,
    row.callKey,
    row.toolCallId,
    row.messageId,
    row.holdId,
    row.approvalId,
    row.detail === undefined ? null : JSON.stringify(row.detail),
  ]);
  if (tx.provider === "sqlite") insertEach(tx, "Intervention", INTERVENTION_COLUMNS, values, "");
  else await insertValues(tx, "Intervention", INTERVENTION_COLUMNS, values, "");
}

export type HoldRow = {
  id: number;
  messageId: number;
  ruleName: string;
  groupId: string;
  callKey: string;
  toolCallId: number | null;
  onTimeout: string;
  originalBody: Buffer;
};

/** Marks a hold decided when it is still held (compare and set: a person and the timeout cannot both decide). */
export async function decideHoldRow(
  tx: DriverConnection,
  options: { id: number; status: string; by: string; at: Date; deliveredBody: Uint8Array | null; change: unknown },
): Promise<HoldRow | null> {
  const rows = await tx.query<Record<string, unknown>[]>(sql`
    UPDATE "HeldResult" SET "status" = ${options.status}, "decidedBy" = ${options.by}, "decidedAt" = ${options.at},
      "deliveredBody" = ${options.deliveredBody === null ? null : Buffer.from(options.deliveredBody)},
      "changeJson" = ${options.change === null ? null : JSON.stringify(options.change)}
    WHERE "id" = ${options.id} AND "status" = 'held'
    RETURNING "id", "messageId", "ruleName", "groupId", "callKey", "toolCallId", "onTimeout", "originalBody"`);
  const row = rows[0];
  if (!row) return null;
  return {
    id: Number(row.id),
    messageId: Number(row.messageId),
    ruleName: String(row.ruleName),
    groupId: String(row.groupId),
    callKey: String(row.callKey),
    toolCallId: row.toolCallId === null ? null : Number(row.toolCallId),
    onTimeout: String(row.onTimeout),
    originalBody: Buffer.isBuffer(row.originalBody) ? row.originalBody : Buffer.from(row.originalBody as Uint8Array),
  };
}

/** Holds whose time ran out (oldest first). */
export async function findExpiredHolds(tx: DriverConnection, now: Date, limit: number): Promise<number[]> {
  const rows = await tx.query<{ id: number }[]>(
    sql`SELECT "id" FROM "HeldResult" WHERE "status" = 'held' AND "timeoutAt" <= ${now} ORDER BY "timeoutAt" LIMIT ${limit}`,
  );
  return rows.map((row) => Number(row.id));
}
