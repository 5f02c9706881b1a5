// Prisma access for forks: the fork's thread and link, its run and model turns, the model's answers as timeline
// rows, and answers to the fork's calls. The only code here that knows Prisma; plain rows out, ISO dates.
import "server-only";
import type { ModelClient } from "../db/client.ts";
import { join, sql } from "../db/sql.ts";
import { encodeStoredText, decodeStoredText } from "../results/text-codec.ts";
import type { ThreadExport } from "../traces/export-format.ts";
import { writeThread } from "../traces/repository/write-thread.ts";
import { decodeStoredHead } from "../threads/stored-text-head.ts";

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

function toTurnRow<T extends { startedAt: Date; heartbeatAt: Date; finishedAt: Date | null }>(row: T): Omit<T, "startedAt" | "heartbeatAt" | "finishedAt"> & { startedAt: string; heartbeatAt: string; finishedAt: string | null } {
  return { ...row, startedAt: row.startedAt.toISOString(), heartbeatAt: row.heartbeatAt.toISOString(), finishedAt: row.finishedAt?.toISOString() ?? null };
}

// ─── the fork's thread ───────────────────────────────────────────────────────────────────────────

export async function threadExists(client: ModelClient, groupId: string): Promise<boolean> {
  return (await client.thread.findUnique({ where: { groupId }, select: { id: true } })) !== null;
}

export async function findThreadId(client: ModelClient, groupId: string): Promise<number | null> {
  return (await client.thread.findUnique({ where: { groupId }, select: { id: true } }))?.id ?? null;
}

/** Display segments of the first result of each named call of a thread (what the history copy keeps). */
export async function findFirstResultDisplays(client: ModelClient, threadId: number, callKeys: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let start = 0; start < callKeys.length; start += 500) {
    const rows = await client.toolResult.findMany({
      where: { ordinal: 0, displayAsJson: { not: null }, toolCall: { threadId, callKey: { in: callKeys.slice(start, start + 500) } } },
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
  options: { data: ThreadExport; forkOf: { id: number; groupId: string; atStep: number }; resultRewrites: readonly ResultRewrite[]; run: NewForkRun },
): Promise<{ threadId: number; forkRunId: number }> {
  const threadId = await writeThread(tx, options.data);
  await tx.thread.update({ where: { id: threadId }, data: { forkOfId: options.forkOf.id, forkOfGroupId: options.forkOf.groupId, forkAtStep: options.forkOf.atStep }, select: { id: true } });
  for (const rewrite of options.resultRewrites) {
    await tx.toolResult.updateMany({ where: { ordinal: 0, toolCall: { threadId, callKey: rewrite.callKey } }, data: rewrite.columns });
  }
  const lastEvent = await tx.event.findFirst({ where: { threadId }, orderBy: { id: "desc" }, select: { id: true } });
  const lastCall = await tx.toolCall.findFirst({ where: { threadId }, orderBy: { id: "desc" }, select: { id: true } });
  const run = await tx.forkRun.create({
    data: { threadId, ...options.run, status: "awaiting_results", historyEndEventId: lastEvent?.id ?? 0, historyEndCallId: lastCall?.id ?? 0 },
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
  const rows = await client.modelTurn.findMany({ where: { forkRunId }, orderBy: { ordinal: "asc" }, select: TURN_SELECT });
  return rows.map(toTurnRow);
}

export type ForkListRow = { groupId: string; atStep: number | null; target: string; model: string; status: string; turns: number; totalTokens: number | null; createdAt: string };

export async function listForksOf(client: ModelClient, threadId: number, limit = 200): Promise<ForkListRow[]> {
  const rows = await client.forkRun.findMany({
    where: { thread: { forkOfId: threadId } },
    orderBy: { id: "desc" },
    take: limit,
    select: { target: true, model: true, status: true, createdAt: true, thread: { select: { groupId: true, forkAtStep: true } }, turns: { select: { totalTokens: true, status: true } } },
  });
  return rows.map((row) => ({
    groupId: row.thread.groupId,
    atStep: row.thread.forkAtStep,
    target: row.target,
    model: row.model,
    status: row.status,
    turns: row.turns.filter((turn) => turn.status === "completed").length,
    totalTokens: row.turns.some((turn) => turn.totalTokens !== null) ? row.turns.reduce((sum, turn) => sum + (turn.totalTokens ?? 0), 0) : null,
    createdAt: row.createdAt.toISOString(),
  }));
}

/**
 * Opens turn `ordinal` if the run may start one: the run's status moves to running only from one of `from`,
 * so two Continue presses cannot both start a turn (the unique (run, ordinal) key backs this up).
 */
export async function openTurn(
  tx: ModelClient,
  options: { forkRunId: number; ordinal: number; from: readonly string[]; historyEvents: number; requestSha256: string; requestBytes: number; skippedJson: string | null; at: Date },
): Promise<number | null> {
  const moved = await tx.forkRun.updateMany({
    where: { id: options.forkRunId, status: { in: [...options.from] } },
    data: { status: "running", cancelRequested: false, updatedAt: options.at },
  });
  if (moved.count !== 1) return null;
  const turn = await tx.modelTurn.create({
    data: {
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
export async function writeTurnProgress(client: ModelClient, turnId: number, liveJson: string | null, at: Date): Promise<void> {
  await client.modelTurn.updateMany({ where: { id: turnId, status: "streaming" }, data: liveJson === null ? { heartbeatAt: at } : { liveJson, heartbeatAt: at } });
}

export async function isCancelRequested(client: ModelClient, forkRunId: number): Promise<boolean> {
  return (await client.forkRun.findUnique({ where: { id: forkRunId }, select: { cancelRequested: true } }))?.cancelRequested ?? false;
}

export async function requestCancel(client: ModelClient, forkRunId: number): Promise<boolean> {
  return (await client.forkRun.updateMany({ where: { id: forkRunId, status: "running" }, data: { cancelRequested: true } })).count === 1;
}

export type TurnOutcome = {
  status: "completed" | "failed" | "cancelled";
  liveJson: string | null;
  responseJson: string | null;
  stopReason: string | null;
  toolCalls: number;
  httpStatus: number | null;
  errorText: string | null;
  usage: { inputTokens: number | null; outputTokens: number | null; totalTokens: number | null; cachedInputTokens: number | null; reasoningTokens: number | null; usageJson: string | null };
};

/** Closes a streaming turn and moves its run on; false when the turn was already closed (e.g. as interrupted). */
export async function closeTurn(tx: ModelClient, options: { turnId: number; forkRunId: number; outcome: TurnOutcome; runStatus: string; at: Date }): Promise<boolean> {
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
  await tx.forkRun.update({ where: { id: options.forkRunId }, data: { status: options.runStatus, cancelRequested: false, updatedAt: options.at }, select: { id: true } });
  return true;
}

/** Streaming turns whose server stopped beating before `staleBefore`: closed as failed, with `reason`. */
export async function failStaleTurns(client: ModelClient, forkRunId: number, staleBefore: Date, reason: string, at: Date): Promise<number> {
  const stale = await client.modelTurn.updateMany({
    where: { forkRunId, status: "streaming", heartbeatAt: { lt: staleBefore } },
    data: { status: "failed", errorText: reason, finishedAt: at },
  });
  if (stale.count > 0) await client.forkRun.updateMany({ where: { id: forkRunId, status: "running" }, data: { status: "failed", updatedAt: at } });
  return stale.count;
}

// ─── the model's answer as timeline rows ────────────────────────────────────────────────────────

export type AnswerEventRow = {
  kind: "message" | "reasoning" | "tool_call" | "import_issue";
  step: number;
  role: string | null;
  text: string | null;
  dataJson: string;
  rawJson: string | null;
  call?: {
    callKey: string;
    toolName: string;
    argumentsText: string;
    argumentsJson: string | null;
    argumentsError: string | null;
    declarationJson: string | null;
    outputSchemaJson: string | null;
    vendor: string;
    registrationSha256: string;
  };
};

export async function existingCallKeys(client: ModelClient, threadId: number): Promise<Set<string>> {
  const rows = await client.toolCall.findMany({ where: { threadId }, select: { callKey: true } });
  return new Set(rows.map((row) => row.callKey));
}

/** Appends the answer's events (and its calls, pending) to the fork's thread, in order. */
export async function appendAnswer(tx: ModelClient, threadId: number, groupId: string, rows: readonly AnswerEventRow[], source: string, at: Date): Promise<void> {
  for (const row of rows) {
    let toolCallId: number | null = null;
    if (row.call !== undefined) {
      const args = encodeStoredText(row.call.argumentsText);
      const call = await tx.toolCall.create({
        data: {
          threadId,
          groupId,
          callKey: row.call.callKey,
          toolName: row.call.toolName,
          argumentsText: args.stored,
          argumentsEscaped: args.escaped,
          argumentsJson: row.call.argumentsJson,
          argumentsError: row.call.argumentsError,
          declarationJson: row.call.declarationJson,
          outputSchemaJson: row.call.outputSchemaJson,
          vendor: row.call.vendor,
          step: row.step,
          status: "pending",
          requestedAt: at,
          registrationSha256: row.call.registrationSha256,
        },
        select: { id: true },
      });
      toolCallId = call.id;
    }
    const text = row.text === null ? null : encodeStoredText(row.text);
    await tx.event.create({
      data: {
        threadId,
        kind: row.kind,
        toolCallId,
        step: row.step,
        role: row.role,
        text: text?.stored ?? null,
        textEscaped: text?.escaped ?? false,
        dataJson: row.dataJson,
        rawJson: row.rawJson,
        source,
        occurredAt: at,
      },
      select: { id: true },
    });
  }
  await tx.thread.update({ where: { id: threadId }, data: { lastActivityAt: at }, select: { id: true } });
}

// ─── the fork's calls and their answers ─────────────────────────────────────────────────────────

export type ForkCallRow = {
  id: number;
  callKey: string;
  toolName: string;
  argumentsText: string | null;
  argumentsJson: string | null;
  status: string;
  step: number | null;
  resultCount: number;
  outputSchemaJson: string | null;
  /** The first result: its id, the head of its text, whether it is an error. */
  result: { id: number; head: string; complete: boolean; isError: boolean } | null;
  /** Source and data of the event that recorded the first result (recording / manual / callback). */
  answer: { source: string; dataJson: string | null } | null;
};

const HEAD_CHARS = 400;

/** The calls the run itself asked for (rows after the history copy), with heads of their first results. */
export async function findRunCalls(client: ModelClient, threadId: number, afterCallId: number): Promise<ForkCallRow[]> {
  const calls = await client.toolCall.findMany({
    where: { threadId, id: { gt: afterCallId } },
    orderBy: { id: "asc" },
    take: 2000,
    select: { id: true, callKey: true, toolName: true, argumentsText: true, argumentsEscaped: true, argumentsJson: true, status: true, step: true, resultCount: true, outputSchemaJson: true },
  });
  if (calls.length === 0) return [];
  const ids = calls.map((call) => call.id);
  // Heads only: a recorded result may be megabytes, and this runs on every poll of the fork page.
  const results = await client.$queryRaw<{ id: number | bigint; toolCallId: number | bigint; head: string; textEscaped: boolean | number | bigint; isError: boolean | number | bigint }[]>(
    sql`SELECT "id", "toolCallId", substr("text", 1, ${HEAD_CHARS + 64}) AS "head", "textEscaped", "isError" FROM "ToolResult" WHERE "ordinal" = 0 AND "toolCallId" IN (${join(ids)})`,
  );
  const answers = await client.event.findMany({
    where: { threadId, kind: "tool_result", toolCallId: { in: ids } },
    orderBy: { id: "asc" },
    select: { toolCallId: true, source: true, dataJson: true },
  });
  const resultOf = new Map(results.map((row) => [Number(row.toolCallId), row]));
  const answerOf = new Map<number, { source: string; dataJson: string | null }>();
  for (const answer of answers) if (answer.toolCallId !== null && !answerOf.has(answer.toolCallId)) answerOf.set(answer.toolCallId, { source: answer.source, dataJson: answer.dataJson });
  return calls.map(({ argumentsEscaped, ...call }) => {
    const result = resultOf.get(call.id);
    const complete = result !== undefined && result.head.length < HEAD_CHARS + 64;
    return {
      ...call,
      argumentsText: call.argumentsText === null ? null : decodeStoredText(call.argumentsText, argumentsEscaped),
      result: result === undefined ? null : { id: Number(result.id), head: decodeStoredHead(result.head, Boolean(result.textEscaped), complete), complete, isError: Boolean(result.isError) },
      answer: answerOf.get(call.id) ?? null,
    };
  });
}

export type RecordedCall = { id: number; callKey: string; toolName: string; argumentsText: string | null; argumentsJson: string | null; result: { id: number; text: string; displayAsJson: string | null; isError: boolean } | null };

/** The original's calls of these tools that have a result, in call order: candidates to answer a fork's call from the recording. */
export async function findRecordedCalls(client: ModelClient, threadId: number, toolNames: readonly string[], limit = 2000): Promise<RecordedCall[]> {
  if (toolNames.length === 0) return [];
  const rows = await client.toolCall.findMany({
    where: { threadId, toolName: { in: [...toolNames] }, resultCount: { gt: 0 } },
    orderBy: { id: "asc" },
    take: limit,
    select: {
      id: true,
      callKey: true,
      toolName: true,
      argumentsText: true,
      argumentsEscaped: true,
      argumentsJson: true,
      results: { where: { ordinal: 0 }, select: { id: true, text: true, textEscaped: true, displayAsJson: true, isError: true } },
    },
  });
  return rows.map(({ argumentsEscaped, results, ...row }) => {
    const first = results[0];
    return {
      ...row,
      argumentsText: row.argumentsText === null ? null : decodeStoredText(row.argumentsText, argumentsEscaped),
      result: first === undefined ? null : { id: first.id, text: decodeStoredText(first.text, first.textEscaped), displayAsJson: first.displayAsJson, isError: first.isError },
    };
  });
}

export type NewForkResult = {
  toolCallId: number;
  threadId: number;
  text: string;
  textSha256: string;
  contentSha256: string;
  displayAsJson: string | null;
  columns: Record<string, string | number | boolean | null> & { isError: boolean };
  source: string;
  dataJson: string;
  at: Date;
};

/**
 * Stores the first result of a pending fork call. Null when the call is not pending any more (answered meanwhile,
 * e.g. by a runtime through the callback): the (call, ordinal) key makes the loser of a race fail here.
 */
export async function writeForkResult(tx: ModelClient, result: NewForkResult): Promise<number | null> {
  const moved = await tx.toolCall.updateMany({
    where: { id: result.toolCallId, status: "pending", resultCount: 0 },
    data: { status: result.columns.isError ? "errored" : "completed", resultCount: 1, completedAt: result.at, lastResultAt: result.at },
  });
  if (moved.count !== 1) return null;
  const stored = encodeStoredText(result.text);
  const { columns } = result;
  const row = await tx.toolResult.create({
    data: {
      ...columns,
      toolCallId: result.toolCallId,
      ordinal: 0,
      text: stored.stored,
      textEscaped: stored.escaped,
      textSha256: result.textSha256,
      textBytes: Buffer.byteLength(result.text, "utf8"),
      contentSha256: result.contentSha256,
      displayAsJson: result.displayAsJson,
      receivedAt: result.at,
      displayKind: String(columns.displayKind),
      analysisJson: String(columns.analysisJson),
    },
    select: { id: true },
  });
  await tx.event.create({
    data: { threadId: result.threadId, kind: "tool_result", toolCallId: result.toolCallId, resultId: row.id, source: result.source, dataJson: result.dataJson, occurredAt: result.at },
    select: { id: true },
  });
  await tx.thread.update({ where: { id: result.threadId }, data: { lastActivityAt: result.at }, select: { id: true } });
  return row.id;
}

export async function findCallRowId(client: ModelClient, groupId: string, callKey: string): Promise<number | null> {
  return (await client.toolCall.findUnique({ where: { groupId_callKey: { groupId, callKey } }, select: { id: true } }))?.id ?? null;
}

/** Keys of the calls the fork copied as history (row ids up to `historyEndCallId`). */
export async function findHistoryCallKeys(client: ModelClient, threadId: number, historyEndCallId: number): Promise<Set<string>> {
  const rows = await client.toolCall.findMany({ where: { threadId, id: { lte: historyEndCallId } }, select: { callKey: true } });
  return new Set(rows.map((row) => row.callKey));
}
