// Answering a call the fork's model asked for: with the original's recorded result for the same tool and
// arguments (no tool runs; marked "from the recording"), or with a text typed by hand. A runtime answers through
// POST /api/callback instead, with the fork's group_id, exactly as for any thread.
import "server-only";
import { getDatabase, type Database } from "../db/client.ts";
import { AppError } from "../http/app-error.ts";
import { analysisColumns } from "../ingest/result-columns.ts";
import { analyzeResult } from "../results/analyze.ts";
import { sha256Hex } from "../results/hash.ts";
import { MANUAL_SOURCE, RECORDING_SOURCE } from "../traces/event-kinds.ts";
import { recordingContext } from "./fork-view.ts";
import { argumentsKey, matchRecording } from "./recording.ts";
import { findForkRun } from "./repository.ts";
import { findRunCalls, writeForkResult } from "./answers-repository.ts";
import type { AnswerCallInput, ForkAnswer } from "./schemas.ts";

function parseJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

type Answer = {
  text: string;
  displayAs: unknown[] | null;
  recordedIsError: boolean;
  source: string;
  data: Record<string, unknown>;
  recordedFrom: ForkAnswer["recorded_from"];
};

export async function answerForkCall(options: {
  groupId: string;
  callKey: string;
  input: AnswerCallInput;
  database?: Database;
  now?: Date;
}): Promise<ForkAnswer> {
  const db = options.database ?? (await getDatabase());
  const run = await findForkRun(db.client, options.groupId);
  if (run === null) throw new AppError("not_found", `Thread "${options.groupId}" is not a fork`);
  const calls = await findRunCalls(db.client, run.threadId, run.historyEndCallId);
  const call = calls.find((candidate) => candidate.callKey === options.callKey);
  if (call === undefined)
    throw new AppError("unknown_call", `The model of fork "${options.groupId}" asked for no call "${options.callKey}"`);
  if (call.status !== "pending")
    throw new AppError(
      "conflict",
      `Call "${options.callKey}" is already answered (${call.status}); the first result is kept`,
    );

  let answer: Answer;
  if ("from" in options.input) {
    const context = await recordingContext(db, run, calls);
    const match = matchRecording({
      toolName: call.toolName,
      argsKey: argumentsKey(call.argumentsJson, call.argumentsText),
      candidates: context.candidates,
      used: context.used,
      historyCallKeys: context.history,
    });
    if (match?.result == null) {
      throw new AppError(
        "conflict",
        `The original thread "${run.forkOfGroupId ?? ""}" has no recorded ${call.toolName} call with these arguments to answer from; answer by hand or from a runtime`,
      );
    }
    const display = parseJson(match.result.displayAsJson);
    const recordedFrom = {
      groupId: run.forkOfGroupId ?? "",
      callKey: match.callKey,
      callRowId: match.id,
      resultId: match.result.id,
    };
    answer = {
      text: match.result.text,
      displayAs: Array.isArray(display) ? display : null,
      recordedIsError: match.result.isError,
      source: RECORDING_SOURCE,
      data: { answer: "recording", recordedFrom },
      recordedFrom: { group_id: recordedFrom.groupId, id: recordedFrom.callKey },
    };
  } else {
    answer = {
      text: options.input.text,
      displayAs: options.input.display_as ?? null,
      recordedIsError: false,
      source: MANUAL_SOURCE,
      data: { answer: "manual" },
      recordedFrom: null,
    };
  }

  const columns = analysisColumns(
    analyzeResult({ text: answer.text, displayAs: answer.displayAs, outputSchema: parseJson(call.outputSchemaJson) }),
  );
  // A recorded result flagged by its vendor (Anthropic is_error) stays an error though its text may not say so.
  const isError = columns.isError || answer.recordedIsError;
  const resultId = await db.transaction((tx) =>
    writeForkResult(tx, {
      toolCallId: call.id,
      threadId: run.threadId,
      text: answer.text,
      textSha256: sha256Hex(answer.text),
      contentSha256: sha256Hex(JSON.stringify([answer.text, answer.displayAs, null])),
      displayAsJson: answer.displayAs === null ? null : JSON.stringify(answer.displayAs),
      columns: { ...columns, isError },
      source: answer.source,
      dataJson: JSON.stringify({ callId: call.callKey, isError, ...answer.data }),
      at: options.now ?? new Date(),
    }),
  );
  if (resultId === null)
    throw new AppError(
      "conflict",
      `Call "${options.callKey}" was answered meanwhile (by a runtime?); the first result is kept`,
    );
  return {
    group_id: run.groupId,
    id: call.callKey,
    result_id: resultId,
    answered_by: answer.source === RECORDING_SOURCE ? "recording" : "manual",
    recorded_from: answer.recordedFrom,
  };
}
