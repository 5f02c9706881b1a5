// Prisma access for breakpoint and fault rules (the rules pages and APIs) and for the in-path audit log.
import "server-only";
import type { ModelClient } from "../db/client.ts";
import type { BreakpointRuleView, FaultAction, FaultRuleView, InterventionView } from "./schemas.ts";

export type BreakpointRow = Omit<BreakpointRuleView, "createdAt" | "updatedAt" | "onTimeout"> & {
  onTimeout: string;
  createdAt: Date;
  updatedAt: Date;
};
export type FaultRow = Omit<FaultRuleView, "createdAt" | "updatedAt" | "action"> & {
  action: string;
  createdAt: Date;
  updatedAt: Date;
};

export type BreakpointData = Omit<BreakpointRow, "id" | "createdAt" | "createdBy" | "updatedAt" | "updatedBy">;
export type FaultData = Omit<FaultRow, "id" | "createdAt" | "createdBy" | "updatedAt" | "updatedBy">;

export function breakpointView(row: BreakpointRow): BreakpointRuleView {
  return {
    ...row,
    onTimeout: row.onTimeout === "error" ? "error" : "release",
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function faultView(row: FaultRow): FaultRuleView {
  return {
    ...row,
    action: row.action as FaultAction,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export const listBreakpoints = (db: ModelClient) => db.breakpointRule.findMany({ orderBy: { id: "asc" } });
export const listFaults = (db: ModelClient) => db.faultRule.findMany({ orderBy: { id: "asc" } });

export function createBreakpoint(db: ModelClient, data: BreakpointData & { by: string; at: Date }) {
  const { by, at, ...rest } = data;
  return db.breakpointRule.create({ data: { ...rest, createdBy: by, updatedBy: by, createdAt: at, updatedAt: at } });
}

export function createFault(db: ModelClient, data: FaultData & { by: string; at: Date }) {
  const { by, at, ...rest } = data;
  return db.faultRule.create({ data: { ...rest, createdBy: by, updatedBy: by, createdAt: at, updatedAt: at } });
}

export async function updateBreakpoint(db: ModelClient, id: number, data: Partial<BreakpointData>, by: string) {
  const { count } = await db.breakpointRule.updateMany({
    where: { id },
    data: { ...data, updatedBy: by, updatedAt: new Date() },
  });
  return count > 0 ? db.breakpointRule.findUnique({ where: { id } }) : null;
}

export async function updateFault(db: ModelClient, id: number, data: Partial<FaultData>, by: string) {
  const { count } = await db.faultRule.updateMany({
    where: { id },
    data: { ...data, updatedBy: by, updatedAt: new Date() },
  });
  return count > 0 ? db.faultRule.findUnique({ where: { id } }) : null;
}

export async function deleteBreakpoint(db: ModelClient, id: number): Promise<boolean> {
  return (await db.breakpointRule.deleteMany({ where: { id } })).count > 0;
}

export async function deleteFault(db: ModelClient, id: number): Promise<boolean> {
  return (await db.faultRule.deleteMany({ where: { id } })).count > 0;
}

export async function recordChange(
  db: ModelClient,
  row: {
    actor: string;
    action: string;
    detail: unknown;
    at: Date;
    groupId?: string;
    callKey?: string;
    toolCallId?: number;
  },
): Promise<void> {
  const { detail, ...rest } = row;
  await db.intervention.create({ data: { ...rest, detailJson: JSON.stringify(detail) } });
}

export async function findInterventions(
  db: ModelClient,
  filter: { toolCallId?: number; groupId?: string; limit: number },
): Promise<InterventionView[]> {
  const rows = await db.intervention.findMany({
    where: {
      ...(filter.toolCallId !== undefined ? { toolCallId: filter.toolCallId } : {}),
      ...(filter.groupId !== undefined ? { groupId: filter.groupId } : {}),
    },
    orderBy: { id: "desc" },
    take: filter.limit,
  });
  return rows.map(({ detailJson, at, ...row }) => ({
    ...row,
    at: at.toISOString(),
    detail: detailJson === null ? null : (JSON.parse(detailJson) as unknown),
  }));
}
