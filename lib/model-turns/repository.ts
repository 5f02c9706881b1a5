// The model-turn store's SQL: writing turns (on a transaction's driver connection for the bulk paths, through
// Prisma for the rest), reading the briefs of timeline rows, and summing a thread's tokens by model. Only here.
import "server-only";
import type { ModelClient } from "../db/client.ts";
import type { DriverConnection } from "../db/driver.ts";
import { insertEach, insertValues } from "../db/bulk-rows.ts";
import type { SqlValue } from "../db/sql.ts";
import type { ModelTurnRecord } from "./records.ts";
import type { TurnUsage } from "./schemas.ts";

const TURN_COLUMNS = [
  "threadId",
  "eventId",
  "source",
  "ordinal",
  "model",
  "responseId",
  "status",
  "stopReason",
  "errorText",
  "inputTokens",
  "outputTokens",
  "totalTokens",
  "cachedInputTokens",
  "reasoningTokens",
  "usageJson",
  "startedAt",
  "heartbeatAt",
  "finishedAt",
  "durationMs",
] as const;

function values(record: ModelTurnRecord): SqlValue[] {
  const row: Record<(typeof TURN_COLUMNS)[number], SqlValue> = {
    ...record,
    heartbeatAt: record.finishedAt ?? record.startedAt,
  };
  return TURN_COLUMNS.map((column) => row[column]);
}

/** Bulk paths (OTLP): inside the caller's transaction, on its driver connection. */
export async function insertModelTurns(tx: DriverConnection, records: readonly ModelTurnRecord[]): Promise<void> {
  if (records.length === 0) return;
  if (tx.provider === "sqlite") {
    insertEach(tx, "ModelTurn", TURN_COLUMNS, records.map(values), "");
    return;
  }
  await insertValues(tx, "ModelTurn", TURN_COLUMNS, records.map(values), "");
}

/** Prisma paths (imports, forks): inside the caller's transaction. */
export async function createModelTurns(client: ModelClient, records: readonly ModelTurnRecord[]): Promise<void> {
  if (records.length === 0) return;
  await client.modelTurn.createMany({
    data: records.map((record) => ({ ...record, heartbeatAt: record.finishedAt ?? record.startedAt })),
  });
}

const BRIEF_SELECT = {
  id: true,
  eventId: true,
  source: true,
  model: true,
  responseId: true,
  status: true,
  stopReason: true,
  inputTokens: true,
  outputTokens: true,
  cachedInputTokens: true,
  reasoningTokens: true,
  startedAt: true,
  finishedAt: true,
  durationMs: true,
} as const;

export type TurnBriefRow = {
  id: number;
  eventId: number | null;
  source: string;
  model: string | null;
  responseId: string | null;
  status: string;
  stopReason: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  cachedInputTokens: number | null;
  reasoningTokens: number | null;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
};

/** The turns shown by these timeline rows (Event ids). */
export async function findTurnsByEvent(client: ModelClient, eventIds: readonly number[]): Promise<TurnBriefRow[]> {
  if (eventIds.length === 0) return [];
  const rows = await client.modelTurn.findMany({
    where: { eventId: { in: [...eventIds] } },
    select: BRIEF_SELECT,
    orderBy: { id: "asc" },
  });
  return rows.map((row) => ({
    ...row,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  }));
}

export type UsageByModelRow = { threadId: number; model: string | null; turns: number; usage: TurnUsage };

/** Token sums by thread and model (one grouped query over ModelTurn(threadId, model)). */
export async function sumUsageByModel(client: ModelClient, threadIds: readonly number[]): Promise<UsageByModelRow[]> {
  if (threadIds.length === 0) return [];
  const groups = await client.modelTurn.groupBy({
    by: ["threadId", "model"],
    where: { threadId: { in: [...threadIds] } },
    _count: { _all: true },
    _sum: { inputTokens: true, outputTokens: true, cachedInputTokens: true, reasoningTokens: true },
  });
  return groups.map((group) => ({
    threadId: group.threadId,
    model: group.model,
    turns: group._count._all,
    usage: {
      inputTokens: group._sum.inputTokens ?? 0,
      outputTokens: group._sum.outputTokens ?? 0,
      cachedInputTokens: group._sum.cachedInputTokens ?? 0,
      reasoningTokens: group._sum.reasoningTokens ?? 0,
    },
  }));
}
