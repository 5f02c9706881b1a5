// Prisma reads of held results for the Held page, the call and the thread.
import "server-only";
import type { ModelClient } from "../db/client.ts";

const HOLD_SELECT = {
  id: true,
  status: true,
  ruleId: true,
  ruleName: true,
  relay: true,
  groupId: true,
  callKey: true,
  toolCallId: true,
  toolName: true,
  heldAt: true,
  timeoutAt: true,
  onTimeout: true,
  decidedAt: true,
  decidedBy: true,
  messageId: true,
  originalBody: true,
  deliveredBody: true,
  changeJson: true,
} as const;

export type StoredHold = {
  id: number;
  status: string;
  ruleId: number | null;
  ruleName: string;
  relay: string;
  groupId: string;
  callKey: string;
  toolCallId: number | null;
  toolName: string | null;
  heldAt: Date;
  timeoutAt: Date;
  onTimeout: string;
  decidedAt: Date | null;
  decidedBy: string | null;
  messageId: number;
  originalBody: Uint8Array;
  deliveredBody: Uint8Array | null;
  changeJson: string | null;
};

export type HoldFilter = { status?: "held" | "decided"; toolCallId?: number; groupId?: string };

export async function findHolds(db: ModelClient, filter: HoldFilter, limit: number): Promise<StoredHold[]> {
  return db.heldResult.findMany({
    where: {
      ...(filter.status === "held"
        ? { status: "held" }
        : filter.status === "decided"
          ? { status: { not: "held" } }
          : {}),
      ...(filter.toolCallId !== undefined ? { toolCallId: filter.toolCallId } : {}),
      ...(filter.groupId !== undefined ? { groupId: filter.groupId } : {}),
    },
    orderBy: filter.status === "held" ? { id: "asc" } : { id: "desc" },
    take: limit,
    select: HOLD_SELECT,
  });
}

export async function countHeld(db: ModelClient, groupId?: string): Promise<number> {
  return db.heldResult.count({ where: { status: "held", ...(groupId ? { groupId } : {}) } });
}

export async function findHold(db: ModelClient, id: number): Promise<StoredHold | null> {
  return db.heldResult.findUnique({ where: { id }, select: HOLD_SELECT });
}
