// Prisma access for forks: the fork's thread and link, its run and model turns (what the model answered is in
// ./answers-repository.ts). The only code here that knows Prisma; plain rows out, ISO dates.
import "server-only";
import type { ModelClient } from "../db/client.ts";
import type { ThreadExport } from "../traces/export-format.ts";
import { writeThread } from "../traces/repository/write-thread.ts";

export type ForkRunRow = {
  id: number;
  threadId: number;
  groupId: string;
  forkOfId: number | null;
  forkOfGroupId: string | null;
  forkAtStep: number | null;
  target: string;
  api: string;
  model: string;
  editsJson: string;
  maxTurns: number;
  status: string;
  historyEvents: number;
  historyEndEventId: number;
  historyEndCallId: number;
  cancelRequested: boolean;
  createdAt: string;
  updatedAt: string;
};

export type TurnRow = {
  id: number;
  ordinal: number;
  status: string;
  historyEvents: number;
  requestSha256: string;
  requestBytes: number;
  skippedJson: string | null;
  liveJson: string | null;
  stopReason: string | null;
  toolCalls: number;
  httpStatus: number | null;
  errorText: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  totalTokens: number | null;
  cachedInputTokens: number | null;
  reasoningTokens: number | null;
  startedAt: string;
  heartbeatAt: string;
  finishedAt: string | null;
};

const RUN_SELECT = {
  id: true,
  threadId: true,
  target: true,
  api: true,
  model: true,
  editsJson: true,
  maxTurns: true,
  status: true,
  historyEvents: true,
  historyEndEventId: true,
  historyEndCallId: true,
  cancelRequested: true,
  createdAt: true,
  updatedAt: true,
  thread: { select: { groupId: true, forkOfId: true, forkOfGroupId: true, forkAtStep: true } },
} as const;

const TURN_SELECT = {
  id: true,
  ordinal: true,
  status: true,
  historyEvents: true,
  requestSha256: true,
  requestBytes: true,
  skippedJson: true,
  liveJson: true,
  stopReason: true,
  toolCalls: true,
  httpStatus: true,
  errorText: true,
  inputTokens: true,
  outputTokens: true,
  totalTokens: true,
  cachedInputTokens: true,
  reasoningTokens: true,
  startedAt: true,
  heartbeatAt: true,
  finishedAt: true,
} as const;

type RunRecord = {
  id: number;
  threadId: number;
  target: string;
  api: string;
  model: string;
  editsJson: string;
  maxTurns: number;
  status: string;
  historyEvents: number;
  historyEndEventId: number;
  historyEndCallId: number;
  cancelRequested: boolean;
  createdAt: Date;
  updatedAt: Date;
  thread: { groupId: string; forkOfId: number | null; forkOfGroupId: string | null; forkAtStep: number | null };
};

function toRunRow({ thread, createdAt, updatedAt, ...run }: RunRecord): ForkRunRow {
  return { ...run, ...thread, createdAt: createdAt.toISOString(), updatedAt: updatedAt.toISOString() };
}

function toTurnRow<T extends { startedAt: Date; heartbeatAt: Date; finishedAt: Date | null }>(
  row: T,
): Omit<T, "startedAt" | "heartbeatAt" | "finishedAt"> & {
  startedAt: string;
  heartbeatAt: string;
  finishedAt: string | null;
} {
  return {
    ...row,
    startedAt: row.startedAt.toISOString(),
    heartbeatAt: row.heartbeatAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

// ─── the fork's thread ───────────────────────────────────────────────────────────────────────────

export async function threadExists(client: ModelClient, groupId: string): Promise<boolean> {
  return (await client.thread.findUnique({ where: { groupId }, select: { id: true } })) !== null;
}

export async function findThreadId(client: ModelClient, groupId: string): Promise<number | null> {
  return (await client.thread.findUnique({ where: { groupId }, select: { id: true } }))?.id ?? null;
}

/** Display segments of the first result of each named call of a thread (what the history copy keeps). */
export async function findFirstResultDisplays(
  client: ModelClient,
  threadId: number,
  callKeys: readonly string[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let start = 0; start < callKeys.length; start += 500) {
    const rows = await client.toolResult.findMany({
      where: {
        ordinal: 0,
        displayAsJson: { not: null },
        toolCall: { threadId, callKey: { in: callKeys.slice(start, start + 500) } },
      },
      select: { displayAsJson: true, toolCall: { select: { callKey: true } } },
    });
    for (const row of rows) if (row.displayAsJson !== null) out.set(row.toolCall.callKey, row.displayAsJson);
  }
  return out;
}

export type ResultRewrite = { callKey: string; columns: Record<string, string | number | boolean | null> };

export type NewForkRun = {
  target: string;
  api: string;
  model: string;
  editsJson: string;
  maxTurns: number;
  historyEvents: number;
};

/** Writes the fork's thread (the history copy), links it to its original, fixes up results, opens its run. */
export async function writeForkThread(
  tx: ModelClient,
  options: {
    data: ThreadExport;
    forkOf: { id: number; groupId: string; atStep: number };
    resultRewrites: readonly ResultRewrite[];
    run: NewForkRun;
  },
): Promise<{ threadId: number; forkRunId: number }> {
  // A fork copies no Delivery rows (its records come from buildImport); were it ever to, they would be marked.
  const threadId = await writeThread(tx, options.data, { at: new Date(), by: "fork" });
  await tx.thread.update({
    where: { id: threadId },
    data: { forkOfId: options.forkOf.id, forkOfGroupId: options.forkOf.groupId, forkAtStep: options.forkOf.atStep },
    select: { id: true },
  });
  for (const rewrite of options.resultRewrites) {
    await tx.toolResult.updateMany({
      where: { ordinal: 0, toolCall: { threadId, callKey: rewrite.callKey } },
      data: rewrite.columns,
    });
  }
  const lastEvent = await tx.event.findFirst({ where: { threadId }, orderBy: { id: "desc" }, select: { id: true } });
  const lastCall = await tx.toolCall.findFirst({ where: { threadId }, orderBy: { id: "desc" }, select: { id: true } });
  const run = await tx.forkRun.create({
    data: {
      threadId,
      ...options.run,
      status: "awaiting_results",
      historyEndEventId: lastEvent?.id ?? 0,
      historyEndCallId: lastCall?.id ?? 0,
    },
    select: { id: true },
  });
  return { threadId, forkRunId: run.id };
}

// ─── runs and turns ──────────────────────────────────────────────────────────────────────────────

export async function findForkRun(client: ModelClient, groupId: string): Promise<ForkRunRow | null> {
  const row = await client.forkRun.findFirst({ where: { thread: { groupId } }, select: RUN_SELECT });
  return row === null ? null : toRunRow(row);
}

export async function findForkRunById(client: ModelClient, id: number): Promise<ForkRunRow | null> {
  const row = await client.forkRun.findUnique({ where: { id }, select: RUN_SELECT });
  return row === null ? null : toRunRow(row);
}

export async function listTurns(client: ModelClient, forkRunId: number): Promise<TurnRow[]> {
  const rows = await client.modelTurn.findMany({
    where: { forkRunId },
    orderBy: { ordinal: "asc" },
    select: TURN_SELECT,
  });
  return rows.map(toTurnRow);
}

export type ForkListRow = {
  groupId: string;
  atStep: number | null;
  target: string;
  model: string;
  status: string;
  turns: number;
  totalTokens: number | null;
  createdAt: string;
};

export async function listForksOf(client: ModelClient, threadId: number, limit = 200): Promise<ForkListRow[]> {
  const rows = await client.forkRun.findMany({
    where: { thread: { forkOfId: threadId } },
    orderBy: { id: "desc" },
    take: limit,
    select: {
      target: true,
      model: true,
      status: true,
      createdAt: true,
      thread: { select: { groupId: true, forkAtStep: true } },
      turns: { select: { totalTokens: true, status: true } },
    },
  });
  return rows.map((row) => ({
    groupId: row.thread.groupId,
    atStep: row.thread.forkAtStep,
    target: row.target,
    model: row.model,
    status: row.status,
    turns: row.turns.filter((turn) => turn.status === "completed").length,
    totalTokens: row.turns.some((turn) => turn.totalTokens !== null)
      ? row.turns.reduce((sum, turn) => sum + (turn.totalTokens ?? 0), 0)
      : null,
    createdAt: row.createdAt.toISOString(),
  }));
}

/**
 * Opens turn `ordinal` if the run may start one: the run's status moves to running only from one of `from`,
 * so two Continue presses cannot both start a turn (the unique (run, ordinal) key backs this up).
 */
export async function openTurn(
  tx: ModelClient,
  options: {
    forkRunId: number;
    ordinal: number;
    from: readonly string[];
    historyEvents: number;
    requestSha256: string;
    requestBytes: number;
    skippedJson: string | null;
    at: Date;
  },
): Promise<number | null> {
  const moved = await tx.forkRun.updateMany({
    where: { id: options.forkRunId, status: { in: [...options.from] } },
    data: { status: "running", cancelRequested: false, updatedAt: options.at },
  });
  if (moved.count !== 1) return null;
  const run = await tx.forkRun.findUniqueOrThrow({
    where: { id: options.forkRunId },
    select: { threadId: true, model: true },
  });
  const turn = await tx.modelTurn.create({
    data: {
      threadId: run.threadId,
      source: "fork",
      model: run.model,
      forkRunId: options.forkRunId,
      ordinal: options.ordinal,
      status: "streaming",
      historyEvents: options.historyEvents,
      requestSha256: options.requestSha256,
      requestBytes: options.requestBytes,
      skippedJson: options.skippedJson,
      startedAt: options.at,
      heartbeatAt: options.at,
    },
    select: { id: true },
  });
  return turn.id;
}

/** What has streamed in so far (null: nothing new, only the heartbeat). */
export async function writeTurnProgress(
  client: ModelClient,
  turnId: number,
  liveJson: string | null,
  at: Date,
): Promise<void> {
  await client.modelTurn.updateMany({
    where: { id: turnId, status: "streaming" },
    data: liveJson === null ? { heartbeatAt: at } : { liveJson, heartbeatAt: at },
  });
}

export async function isCancelRequested(client: ModelClient, forkRunId: number): Promise<boolean> {
  return (
    (await client.forkRun.findUnique({ where: { id: forkRunId }, select: { cancelRequested: true } }))
      ?.cancelRequested ?? false
  );
}

export async function requestCancel(client: ModelClient, forkRunId: number): Promise<boolean> {
  return (
    (await client.forkRun.updateMany({ where: { id: forkRunId, status: "running" }, data: { cancelRequested: true } }))
      .count === 1
  );
}

export type TurnOutcome = {
  status: "completed" | "failed" | "cancelled";
  liveJson: string | null;
  responseJson: string | null;
  stopReason: string | null;
  toolCalls: number;
  httpStatus: number | null;
  errorText: string | null;
  usage: {
    inputTokens: number | null;
    outputTokens: number | null;
    totalTokens: number | null;
    cachedInputTokens: number | null;
    reasoningTokens: number | null;
    usageJson: string | null;
  };
};

/** Closes a streaming turn and moves its run on; false when the turn was already closed (e.g. as interrupted). */
export async function closeTurn(
  tx: ModelClient,
  options: { turnId: number; forkRunId: number; outcome: TurnOutcome; runStatus: string; at: Date },
): Promise<boolean> {
  const { outcome } = options;
  const closed = await tx.modelTurn.updateMany({
    where: { id: options.turnId, status: "streaming" },
    data: {
      status: outcome.status,
      liveJson: outcome.liveJson,
      responseJson: outcome.responseJson,
      stopReason: outcome.stopReason,
      toolCalls: outcome.toolCalls,
      httpStatus: outcome.httpStatus,
      errorText: outcome.errorText,
      ...outcome.usage,
      heartbeatAt: options.at,
      finishedAt: options.at,
    },
  });
  if (closed.count !== 1) return false;
  await tx.forkRun.update({
    where: { id: options.forkRunId },
    data: { status: options.runStatus, cancelRequested: false, updatedAt: options.at },
    select: { id: true },
  });
  return true;
}

/** Streaming turns whose server stopped beating before `staleBefore`: closed as failed, with `reason`. */
export async function failStaleTurns(
  client: ModelClient,
  forkRunId: number,
  staleBefore: Date,
  reason: string,
  at: Date,
): Promise<number> {
  const stale = await client.modelTurn.updateMany({
    where: { forkRunId, status: "streaming", heartbeatAt: { lt: staleBefore } },
    data: { status: "failed", errorText: reason, finishedAt: at },
  });
  if (stale.count > 0)
    await client.forkRun.updateMany({
      where: { id: forkRunId, status: "running" },
      data: { status: "failed", updatedAt: at },
    });
  return stale.count;
}
