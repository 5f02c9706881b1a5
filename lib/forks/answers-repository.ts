// Prisma access for what a fork's model answered: its events and calls appended to the fork's thread, the run's
// calls with heads of their results, the original's recorded calls, and answers written to the fork's calls.
import "server-only";
import type { ModelClient } from "../db/client.ts";
import { join, sql } from "../db/sql.ts";
import { encodeStoredText, decodeStoredText } from "../results/text-codec.ts";
import { decodeStoredHead } from "../threads/stored-text-head.ts";

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
export async function appendAnswer(
  tx: ModelClient,
  threadId: number,
  groupId: string,
  rows: readonly AnswerEventRow[],
  source: string,
  at: Date,
): Promise<void> {
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
    select: {
      id: true,
      callKey: true,
      toolName: true,
      argumentsText: true,
      argumentsEscaped: true,
      argumentsJson: true,
      status: true,
      step: true,
      resultCount: true,
      outputSchemaJson: true,
    },
  });
  if (calls.length === 0) return [];
  const ids = calls.map((call) => call.id);
  // Heads only: a recorded result may be megabytes, and this runs on every poll of the fork page.
  const results = await client.$queryRaw<
    {
      id: number | bigint;
      toolCallId: number | bigint;
      head: string;
      textEscaped: boolean | number | bigint;
      isError: boolean | number | bigint;
    }[]
  >(
    sql`SELECT "id", "toolCallId", substr("text", 1, ${HEAD_CHARS + 64}) AS "head", "textEscaped", "isError" FROM "ToolResult" WHERE "ordinal" = 0 AND "toolCallId" IN (${join(ids)})`,
  );
  const answers = await client.event.findMany({
    where: { threadId, kind: "tool_result", toolCallId: { in: ids } },
    orderBy: { id: "asc" },
    select: { toolCallId: true, source: true, dataJson: true },
  });
  const resultOf = new Map(results.map((row) => [Number(row.toolCallId), row]));
  const answerOf = new Map<number, { source: string; dataJson: string | null }>();
  for (const answer of answers)
    if (answer.toolCallId !== null && !answerOf.has(answer.toolCallId))
      answerOf.set(answer.toolCallId, { source: answer.source, dataJson: answer.dataJson });
  return calls.map(({ argumentsEscaped, ...call }) => {
    const result = resultOf.get(call.id);
    const complete = result !== undefined && result.head.length < HEAD_CHARS + 64;
    return {
      ...call,
      argumentsText: call.argumentsText === null ? null : decodeStoredText(call.argumentsText, argumentsEscaped),
      result:
        result === undefined
          ? null
          : {
              id: Number(result.id),
              head: decodeStoredHead(result.head, Boolean(result.textEscaped), complete),
              complete,
              isError: Boolean(result.isError),
            },
      answer: answerOf.get(call.id) ?? null,
    };
  });
}

export type RecordedCall = {
  id: number;
  callKey: string;
  toolName: string;
  argumentsText: string | null;
  argumentsJson: string | null;
  result: { id: number; text: string; displayAsJson: string | null; isError: boolean } | null;
};

/** The original's calls of these tools that have a result, in call order: candidates to answer a fork's call from the recording. */
export async function findRecordedCalls(
  client: ModelClient,
  threadId: number,
  toolNames: readonly string[],
  limit = 2000,
): Promise<RecordedCall[]> {
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
      results: {
        where: { ordinal: 0 },
        select: { id: true, text: true, textEscaped: true, displayAsJson: true, isError: true },
      },
    },
  });
  return rows.map(({ argumentsEscaped, results, ...row }) => {
    const first = results[0];
    return {
      ...row,
      argumentsText: row.argumentsText === null ? null : decodeStoredText(row.argumentsText, argumentsEscaped),
      result:
        first === undefined
          ? null
          : {
              id: first.id,
              text: decodeStoredText(first.text, first.textEscaped),
              displayAsJson: first.displayAsJson,
              isError: first.isError,
            },
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
    data: {
      status: result.columns.isError ? "errored" : "completed",
      resultCount: 1,
      completedAt: result.at,
      lastResultAt: result.at,
    },
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
    data: {
      threadId: result.threadId,
      kind: "tool_result",
      toolCallId: result.toolCallId,
      resultId: row.id,
      source: result.source,
      dataJson: result.dataJson,
      occurredAt: result.at,
    },
    select: { id: true },
  });
  await tx.thread.update({ where: { id: result.threadId }, data: { lastActivityAt: result.at }, select: { id: true } });
  return row.id;
}

export async function findCallRowId(client: ModelClient, groupId: string, callKey: string): Promise<number | null> {
  return (
    (await client.toolCall.findUnique({ where: { groupId_callKey: { groupId, callKey } }, select: { id: true } }))
      ?.id ?? null
  );
}

/** Keys of the calls the fork copied as history (row ids up to `historyEndCallId`). */
export async function findHistoryCallKeys(
  client: ModelClient,
  threadId: number,
  historyEndCallId: number,
): Promise<Set<string>> {
  const rows = await client.toolCall.findMany({
    where: { threadId, id: { lte: historyEndCallId } },
    select: { callKey: true },
  });
  return new Set(rows.map((row) => row.callKey));
}
