// One model turn of a fork, as server-side work: render the fork's thread for the target's API, open the turn,
// stream the answer (progress written every few hundred ms for the page to poll; a heartbeat shows the turn is
// alive and carries Stop across processes), then store the answer as the fork's next rows, or the error verbatim.
// The turn outlives the HTTP request that started it: closing the browser tab does not stop it.
import "server-only";
import type { Database } from "../db/client.ts";
import { FormatError } from "../formats/format-error.ts";
import { isRecord } from "../formats/json-fields.ts";
import { AppError } from "../http/app-error.ts";
import { buildModelRequest, callModel, ProviderError } from "../models/client.ts";
import { EMPTY_LIVE_OUTPUT, type LiveOutput, type ModelAnswer, type ModelTarget } from "../models/schemas.ts";
import { maskKey, maskKeyStreaming } from "../models/targets.ts";
import { renderHistory, stringifyRequest } from "../replay/render-history.ts";
import { sha256Hex } from "../results/hash.ts";
import { storableText } from "../results/text-codec.ts";
import { MODEL_SOURCE } from "../traces/event-kinds.ts";
import { getReplayTrace } from "../traces/replay-thread.ts";
import { answerRows } from "./answer-rows.ts";
import {
  closeTurn,
  isCancelRequested,
  openTurn,
  writeTurnProgress,
  type ForkRunRow,
  type TurnOutcome,
} from "./repository.ts";
import { appendAnswer, existingCallKeys } from "./answers-repository.ts";

/** How often a running turn writes what arrived (the page polls it). */
export const PROGRESS_INTERVAL_MS = 250;
/** How often a running turn proves it is alive and looks for a Stop request from any process. */
export const HEARTBEAT_MS = 2_000;
/** A streaming turn without a heartbeat for this long belonged to a server that stopped. */
export const STALE_TURN_MS = 30_000;

// Turns running in this process, so Stop takes effect at once here (other processes see the flag at their next heartbeat).
const globalForTurns = globalThis as typeof globalThis & { toolscopeRunningTurns?: Map<number, AbortController> };
const running = (globalForTurns.toolscopeRunningTurns ??= new Map());

export function abortRunningTurn(forkRunId: number): boolean {
  const controller = running.get(forkRunId);
  controller?.abort();
  return controller !== undefined;
}

export type StartedTurn = { turnId: number; ordinal: number; done: Promise<void> };

type TurnOptions = {
  db: Database;
  run: ForkRunRow;
  target: ModelTarget;
  apiKey: string | null;
  ordinal: number;
  completedTurns: number;
  /** Run statuses a new turn may start from. */
  from: readonly string[];
};

/** A turn's output as shown; `streaming` (in progress, or cut off by a failure) also holds back a tail that may be the key's beginning. */
function liveJson(live: LiveOutput, key: string | null, streaming: boolean): string {
  if (!streaming) return maskKey(JSON.stringify(live), key);
  const mask = (text: string) => maskKeyStreaming(text, key);
  return JSON.stringify({
    text: mask(live.text),
    reasoning: mask(live.reasoning),
    calls: live.calls.map((call) => ({
      id: call.id === null ? null : mask(call.id),
      name: mask(call.name),
      arguments: mask(call.arguments),
    })),
  } satisfies LiveOutput);
}

/** Renders the fork's thread, opens the turn (refusing when the history has unanswered calls) and starts it. */
export async function startTurn(options: TurnOptions): Promise<StartedTurn> {
  const { db, run, target } = options;
  const trace = await getReplayTrace({ groupId: run.groupId, database: db });
  const rendered = renderHistory(trace.events, trace.events.length, target.api, trace.declarations, {
    sourceFormat: trace.sourceFormat,
  });
  if (rendered.pendingCallIds.length > 0) {
    throw new AppError(
      "conflict",
      `Calls without a result: ${rendered.pendingCallIds.join(", ")}. Answer each (from the recording, by hand, or through /api/callback) before the next turn.`,
    );
  }
  if (!isRecord(rendered.request)) throw new Error("the replay renderer returned a request that is not an object");
  const body = stringifyRequest(buildModelRequest(target, rendered.request).body);
  const at = new Date();
  const turnId = await db.transaction((tx) =>
    openTurn(tx, {
      forkRunId: run.id,
      ordinal: options.ordinal,
      from: options.from,
      historyEvents: trace.events.length,
      requestSha256: sha256Hex(body),
      requestBytes: Buffer.byteLength(body, "utf8"),
      skippedJson: rendered.skipped.length > 0 ? JSON.stringify(rendered.skipped) : null,
      at,
    }),
  );
  if (turnId === null)
    throw new AppError(
      "conflict",
      "The fork is not ready for a new turn (a turn is running, or the run has ended); reload it",
    );
  const lastStep = trace.events.at(-1)?.step ?? 0;
  const done = runTurn({
    ...options,
    turnId,
    history: rendered.request,
    step: lastStep,
    declarations: trace.declarations,
  }).catch((error: unknown) => {
    console.error(`[toolscope] fork ${run.groupId} turn ${options.ordinal} could not be closed`, error);
  });
  return { turnId, ordinal: options.ordinal, done };
}

function usageColumns({ usage }: ModelAnswer): TurnOutcome["usage"] {
  const { raw, ...counts } = usage;
  return { ...counts, usageJson: raw === null ? null : JSON.stringify(raw) };
}

type RunningTurn = TurnOptions & {
  turnId: number;
  history: Record<string, unknown>;
  step: number;
  declarations: Awaited<ReturnType<typeof getReplayTrace>>["declarations"];
};

// The turn's whole life: progress and heartbeat while the model streams, then the outcome (recordOutcome).
async function runTurn(turn: RunningTurn): Promise<void> {
  const { db, run, target, apiKey } = turn;
  const controller = new AbortController();
  running.set(run.id, controller);
  let live: LiveOutput = EMPTY_LIVE_OUTPUT;
  let written = "";
  let writing: Promise<void> = Promise.resolve();
  let lastWrite = 0;
  // Writes are chained so they land in order; a failed progress write is not fatal (the answer is what counts).
  const write = () => {
    const json = liveJson(live, apiKey, true);
    lastWrite = Date.now();
    writing = writing
      .then(async () => {
        const unchanged = json === written;
        written = json;
        await writeTurnProgress(db.client, turn.turnId, unchanged ? null : json, new Date());
      })
      .catch((error: unknown) =>
        console.warn(
          `[toolscope] fork ${run.groupId}: progress not written`,
          error instanceof Error ? error.message : error,
        ),
      );
  };
  const heartbeat = setInterval(() => {
    write();
    void isCancelRequested(db.client, run.id).then(
      (cancel) => (cancel ? controller.abort() : undefined),
      () => undefined,
    );
  }, HEARTBEAT_MS);

  let outcome: TurnOutcome;
  let runStatus = "failed";
  let answer: ModelAnswer | null = null;
  try {
    answer = await callModel({
      target,
      history: turn.history,
      apiKey,
      signal: controller.signal,
      // Only the latest progress is written: assembling it after every event cost time growing with the answer
      // per event (a provider streaming thousands of tool calls kept the event loop busy for the whole turn).
      progressEveryMs: PROGRESS_INTERVAL_MS,
      onProgress: (next) => {
        live = next;
        if (Date.now() - lastWrite >= PROGRESS_INTERVAL_MS) write();
      },
    });
    live = answer.live;
    outcome = {
      status: "completed",
      liveJson: liveJson(answer.live, apiKey, false),
      responseJson: maskKey(JSON.stringify(answer.response), apiKey),
      stopReason: answer.stopReason === null ? null : storableText(answer.stopReason),
      toolCalls: 0,
      httpStatus: null,
      errorText: null,
      usage: usageColumns(answer),
    };
  } catch (error) {
    const stopped = controller.signal.aborted;
    const failure =
      error instanceof ProviderError
        ? error
        : new ProviderError(
            `Internal error while talking to the model: ${error instanceof Error ? error.message : String(error)}`,
          );
    if (!(error instanceof ProviderError)) console.error(`[toolscope] fork ${run.groupId}: model turn failed`, error);
    runStatus = stopped ? "cancelled" : "failed";
    outcome = {
      status: stopped ? "cancelled" : "failed",
      liveJson: liveJson(live, apiKey, true),
      responseJson: null,
      stopReason: null,
      toolCalls: 0,
      httpStatus: failure.httpStatus,
      // Verbatim, but storable: a provider's body may hold NUL, which PostgreSQL refuses.
      errorText: storableText(maskKey(failure.text, apiKey)),
      usage: {
        inputTokens: null,
        outputTokens: null,
        totalTokens: null,
        cachedInputTokens: null,
        reasoningTokens: null,
        usageJson: null,
      },
    };
  } finally {
    clearInterval(heartbeat);
    running.delete(run.id);
    await writing;
  }

  await recordOutcome(turn, answer, outcome, runStatus);
}

/**
 * Closes the turn and, when the model answered, appends its events and calls to the fork's thread. When that
 * cannot be written (a database refusing what the model sent), the turn is still closed, failed with the reason:
 * left streaming, it would be reported 30 s later as interrupted by a stopped server, and Continue would resend it.
 */
async function recordOutcome(
  turn: RunningTurn,
  answer: ModelAnswer | null,
  outcome: TurnOutcome,
  runStatus: string,
): Promise<void> {
  try {
    await storeOutcome(turn, answer, outcome, runStatus);
  } catch (error) {
    if (answer === null) throw error;
    console.error(`[toolscope] fork ${turn.run.groupId} turn ${turn.ordinal}: the answer could not be stored`, error);
    const reason = error instanceof Error ? error.message.trim().split("\n").at(-1) || error.name : String(error);
    const failed: TurnOutcome = {
      ...outcome,
      status: "failed",
      errorText: storableText(`The answer could not be stored: ${maskKey(reason, turn.apiKey)}`),
    };
    await turn.db.transaction((tx) =>
      closeTurn(tx, {
        turnId: turn.turnId,
        forkRunId: turn.run.id,
        outcome: failed,
        runStatus: "failed",
        at: new Date(),
      }),
    );
  }
}

async function storeOutcome(
  turn: RunningTurn,
  answer: ModelAnswer | null,
  outcome: TurnOutcome,
  runStatus: string,
): Promise<void> {
  const { db, run, target } = turn;
  const at = new Date();
  await db.transaction(async (tx) => {
    if (answer === null) {
      await closeTurn(tx, { turnId: turn.turnId, forkRunId: run.id, outcome, runStatus, at });
      return;
    }
    let rows;
    try {
      rows = answerRows({
        api: target.api,
        response: answer.response,
        turn: turn.ordinal,
        step: turn.step,
        takenCallKeys: await existingCallKeys(tx, run.threadId),
        declarations: turn.declarations,
      });
    } catch (error) {
      if (!(error instanceof FormatError)) throw error;
      const failed: TurnOutcome = {
        ...outcome,
        status: "failed",
        errorText: `The answer could not be read as ${target.api}: ${error.message}`,
      };
      await closeTurn(tx, { turnId: turn.turnId, forkRunId: run.id, outcome: failed, runStatus: "failed", at });
      return;
    }
    const completed = turn.completedTurns + 1;
    const status = rows.toolCalls === 0 ? "finished" : completed >= run.maxTurns ? "step_limit" : "awaiting_results";
    // Closed first: a turn already closed as interrupted must not get its answer written after all.
    if (
      !(await closeTurn(tx, {
        turnId: turn.turnId,
        forkRunId: run.id,
        outcome: { ...outcome, toolCalls: rows.toolCalls },
        runStatus: status,
        at,
      }))
    )
      return;
    await appendAnswer(tx, run.threadId, run.groupId, rows.rows, MODEL_SOURCE, at);
  });
}
