// Reading forks: one fork's state for its page and GET /api/threads/{groupId}/fork (turns with streamed output and
// usage, the calls the model asked for with how each can be answered), and the forks of a thread.
import "server-only";
import { maskDto } from "../audit/mask.ts";
import { getDatabase, type Database } from "../db/client.ts";
import { AppError } from "../http/app-error.ts";
import { EMPTY_LIVE_OUTPUT, type LiveOutput, type ModelApi } from "../models/schemas.ts";
import { readModelTargets, type Environment } from "../models/targets.ts";
import { previewUntrustedText } from "../calls/untrusted-text.ts";
import { argumentsKey, matchRecording } from "./recording.ts";
import {
  failStaleTurns,
  findForkRun,
  findThreadId,
  listForksOf,
  listTurns,
  type ForkRunRow,
  type TurnRow,
} from "./repository.ts";
import {
  findHistoryCallKeys,
  findRecordedCalls,
  findRunCalls,
  type ForkCallRow,
  type RecordedCall,
} from "./answers-repository.ts";
import { STALE_TURN_MS } from "./run-turn.ts";
import { MODEL_APIS } from "../models/schemas.ts";
import { z } from "zod";
import {
  FORK_STATUSES,
  forkEditSchema,
  TURN_STATUSES,
  type ForkCallView,
  type ForkStatus,
  type ForkLinksView,
  type ForkSummary,
  type ForkView,
  type TurnView,
  type UsageView,
} from "./schemas.ts";

const PREVIEW = 240;
const storedEdits = z.array(forkEditSchema);

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function liveOf(json: string | null): LiveOutput {
  const value = parseJson(json);
  if (!isRecord(value)) return EMPTY_LIVE_OUTPUT;
  const calls = Array.isArray(value.calls)
    ? value.calls.filter(isRecord).map((call) => ({
        id: typeof call.id === "string" ? call.id : null,
        name: String(call.name ?? ""),
        arguments: String(call.arguments ?? ""),
      }))
    : [];
  return {
    text: typeof value.text === "string" ? value.text : "",
    reasoning: typeof value.reasoning === "string" ? value.reasoning : "",
    calls,
  };
}

export function forkStatus(value: string): ForkStatus {
  return FORK_STATUSES.find((status) => status === value) ?? "failed";
}

export function turnView(row: TurnRow): TurnView {
  const skipped = parseJson(row.skippedJson);
  return {
    ordinal: row.ordinal,
    status: TURN_STATUSES.find((status) => status === row.status) ?? "failed",
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    historyEvents: row.historyEvents,
    requestBytes: row.requestBytes,
    requestSha256: row.requestSha256,
    live: liveOf(row.liveJson),
    stopReason: row.stopReason,
    toolCalls: row.toolCalls,
    error: row.errorText === null ? null : { httpStatus: row.httpStatus, text: row.errorText },
    usage: {
      inputTokens: row.inputTokens,
      outputTokens: row.outputTokens,
      totalTokens: row.totalTokens,
      cachedInputTokens: row.cachedInputTokens,
      reasoningTokens: row.reasoningTokens,
    },
    skipped: Array.isArray(skipped)
      ? skipped.filter(isRecord).map((item) => ({ index: Number(item.index), reason: String(item.reason) }))
      : [],
  };
}

function totalUsage(turns: readonly TurnView[]): UsageView {
  const sum = (pick: (usage: UsageView) => number | null) =>
    turns.some((turn) => pick(turn.usage) !== null)
      ? turns.reduce((total, turn) => total + (pick(turn.usage) ?? 0), 0)
      : null;
  return {
    inputTokens: sum((usage) => usage.inputTokens),
    outputTokens: sum((usage) => usage.outputTokens),
    totalTokens: sum((usage) => usage.totalTokens),
    cachedInputTokens: sum((usage) => usage.cachedInputTokens),
    reasoningTokens: sum((usage) => usage.reasoningTokens),
  };
}

function answeredBy(call: ForkCallRow): ForkCallView["answeredBy"] {
  if (call.answer === null) return null;
  if (call.answer.source === "recording" || call.answer.source === "manual" || call.answer.source === "callback")
    return call.answer.source;
  return "history";
}

function recordedFrom(call: ForkCallRow): ForkCallView["recordedFrom"] {
  const data = parseJson(call.answer?.dataJson ?? null);
  const from = isRecord(data) && isRecord(data.recordedFrom) ? data.recordedFrom : null;
  if (from === null || typeof from.groupId !== "string" || typeof from.callKey !== "string") return null;
  return {
    groupId: from.groupId,
    callKey: from.callKey,
    callRowId: typeof from.callRowId === "number" ? from.callRowId : null,
  };
}

function preview(text: string, complete = true): string {
  return previewUntrustedText(text, PREVIEW, !complete).text;
}

/** The original's recorded candidates for the fork's calls, and the recorded calls answers already used. */
export async function recordingContext(
  db: Database,
  run: ForkRunRow,
  calls: readonly ForkCallRow[],
): Promise<{ candidates: RecordedCall[]; used: Set<string>; history: Set<string> }> {
  const used = new Set(calls.flatMap((call) => recordedFrom(call)?.callKey ?? []));
  if (run.forkOfId === null) return { candidates: [], used, history: new Set() };
  const names = [...new Set(calls.filter((call) => call.status === "pending").map((call) => call.toolName))];
  const [candidates, history] = await Promise.all([
    findRecordedCalls(db.client, run.forkOfId, names),
    findHistoryCallKeys(db.client, run.threadId, run.historyEndCallId),
  ]);
  return { candidates, used, history };
}

export function isApi(value: string): value is ModelApi {
  return MODEL_APIS.some((api) => api === value);
}

/** Marks turns whose server stopped mid-answer as failed, so nothing waits on them for ever. */
export async function settleStaleTurns(db: Database, run: ForkRunRow, now: Date): Promise<boolean> {
  if (run.status !== "running") return false;
  const reason = `Interrupted: the server running this turn stopped answering for ${STALE_TURN_MS / 1000} s (restarted or killed). Continue to send the turn again.`;
  return (await failStaleTurns(db.client, run.id, new Date(now.getTime() - STALE_TURN_MS), reason, now)) > 0;
}

function continueBlocked(
  run: ForkRunRow,
  completed: number,
  pending: readonly string[],
  configured: boolean,
): string | null {
  if (run.status === "running") return "The model is answering.";
  if (run.status === "finished")
    return "The model answered without calling a tool: the run is over. Fork again to change the history.";
  if (completed >= run.maxTurns) return `The step limit (${run.maxTurns} model turns) is reached.`;
  if (!configured) return `The model target "${run.target}" is no longer configured on this server.`;
  if (pending.length > 0)
    return `Answer ${pending.length === 1 ? "the pending call" : `the ${pending.length} pending calls`} first.`;
  return null;
}

export async function getFork(options: {
  groupId: string;
  database?: Database;
  env?: Environment;
  now?: Date;
}): Promise<ForkView> {
  const db = options.database ?? (await getDatabase());
  let run = await findForkRun(db.client, options.groupId);
  if (run === null) {
    const exists = (await findThreadId(db.client, options.groupId)) !== null;
    throw new AppError(
      "not_found",
      exists ? `Thread "${options.groupId}" is not a fork` : `No thread "${options.groupId}"`,
    );
  }
  if (await settleStaleTurns(db, run, options.now ?? new Date()))
    run = (await findForkRun(db.client, options.groupId)) ?? run;
  const [turnRows, callRows] = await Promise.all([
    listTurns(db.client, run.id),
    findRunCalls(db.client, run.threadId, run.historyEndCallId),
  ]);
  const turns = turnRows.map(turnView);
  const context = await recordingContext(db, run, callRows);
  const calls = callRows.map((call): ForkCallView => {
    const match =
      call.status === "pending"
        ? matchRecording({
            toolName: call.toolName,
            argsKey: argumentsKey(call.argumentsJson, call.argumentsText),
            candidates: context.candidates,
            used: context.used,
            historyCallKeys: context.history,
          })
        : null;
    return {
      callRowId: call.id,
      callKey: call.callKey,
      toolName: call.toolName,
      argumentsPreview: preview(call.argumentsText ?? ""),
      status: call.status,
      turn: call.step,
      answeredBy: answeredBy(call),
      recordedFrom: recordedFrom(call),
      resultPreview: call.result === null ? null : preview(call.result.head, call.result.complete),
      recording:
        match?.result == null
          ? null
          : {
              callKey: match.callKey,
              callRowId: match.id,
              resultId: match.result.id,
              preview: preview(match.result.text),
              isError: match.result.isError,
            },
    };
  });
  const pendingCallKeys = calls.filter((call) => call.status === "pending").map((call) => call.callKey);
  const completedTurns = turns.filter((turn) => turn.status === "completed").length;
  const configured = readModelTargets(options.env).targets.some((target) => target.name === run.target);
  const blocked = continueBlocked(run, completedTurns, pendingCallKeys, configured);
  const edits = storedEdits.safeParse(parseJson(run.editsJson));
  // Every string masked before it reaches the page or its poll (lib/audit/mask); the fork's replay reveals.
  return maskDto<ForkView>({
    groupId: run.groupId,
    forkOf: { groupId: run.forkOfGroupId ?? "", atStep: run.forkAtStep ?? 0, exists: run.forkOfId !== null },
    target: { name: run.target, api: isApi(run.api) ? run.api : "openai-chat", model: run.model, configured },
    status: forkStatus(run.status),
    maxTurns: run.maxTurns,
    completedTurns,
    historyEvents: run.historyEvents,
    edits: edits.success ? edits.data : [],
    turns,
    usage: totalUsage(turns),
    calls,
    pendingCallKeys,
    canContinue: blocked === null,
    continueBlocked: blocked,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
  }).value;
}

export type ForkLinks = ForkLinksView;

/** What a thread page shows about forks: the thread it was forked from, and the forks made from it. */
export async function getForkLinks(options: { groupId: string; database?: Database }): Promise<ForkLinks> {
  const db = options.database ?? (await getDatabase());
  const run = await findForkRun(db.client, options.groupId);
  const threadId = await findThreadId(db.client, options.groupId);
  const forks = threadId === null ? [] : await listForksOf(db.client, threadId);
  return {
    forkOf:
      run === null
        ? null
        : { groupId: run.forkOfGroupId ?? "", atStep: run.forkAtStep ?? 0, exists: run.forkOfId !== null },
    forks: forks.map((fork) => ({ ...fork, atStep: fork.atStep ?? 0, status: forkStatus(fork.status) })),
  };
}

export async function listForks(options: { groupId: string; database?: Database }): Promise<ForkSummary[]> {
  const db = options.database ?? (await getDatabase());
  const threadId = await findThreadId(db.client, options.groupId);
  if (threadId === null) throw new AppError("not_found", `No thread "${options.groupId}"`);
  return (await listForksOf(db.client, threadId)).map((fork) => ({
    ...fork,
    atStep: fork.atStep ?? 0,
    status: forkStatus(fork.status),
  }));
}
