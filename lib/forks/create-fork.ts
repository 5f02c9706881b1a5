// Making a fork: the original's history at step N with the edits applied, written as a new thread linked to the
// original (the same writer as imports, so the fork replays exactly like any thread), then its first model turn.
import "server-only";
import { randomBytes } from "node:crypto";
import { maskDto } from "../audit/mask.ts";
import { getDatabase, type Database } from "../db/client.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { AppError } from "../http/app-error.ts";
import { analysisColumns } from "../ingest/result-columns.ts";
import { findModelTarget, readApiKey, type Environment } from "../models/targets.ts";
import type { ModelTarget } from "../models/schemas.ts";
import { analyzeResult } from "../results/analyze.ts";
import { sha256Hex } from "../results/hash.ts";
import { buildImport } from "../traces/build-import.ts";
import { FORK_EVENT, FORK_SOURCE, IMPORT_EVENT } from "../traces/event-kinds.ts";
import type { ThreadExport } from "../traces/export-format.ts";
import { getReplayTrace, type ReplayTrace } from "../traces/replay-thread.ts";
import { applyForkEdits, ForkEditError, type ForkHistory } from "./edits.ts";
import { forkStatus, turnView } from "./fork-view.ts";
import {
  findFirstResultDisplays,
  findForkRunById,
  findThreadId,
  listTurns,
  threadExists,
  writeForkThread,
  type ResultRewrite,
} from "./repository.ts";
import { startTurn, type StartedTurn } from "./run-turn.ts";
import type { CreateForkInput, ForkCreated } from "./schemas.ts";

export type ForkReply = { status: 201 | 202; body: ForkCreated; groupId: string };

function historyOf(trace: ReplayTrace, input: CreateForkInput): ForkHistory {
  let history: ForkHistory;
  try {
    history = applyForkEdits(trace.events, input.step, input.edits);
  } catch (error) {
    if (error instanceof ForkEditError) throw new AppError("invalid", error.message, { path: error.path });
    throw error;
  }
  if (history.events.length === 0)
    throw new AppError("invalid", "step: the fork's history would be empty; keep at least one event", { path: "step" });
  if (history.pendingCallIds.length > 0) {
    const ids = history.pendingCallIds.map((id) => `"${id}"`).join(", ");
    throw new AppError(
      "invalid",
      `step: ${ids} ${history.pendingCallIds.length === 1 ? "has" : "have"} no result in the first ${input.step} events, and a model API refuses a history with an unanswered call: fork at a later step, or give each a result with an edit {"call": "<id>", "text": "…"}`,
      { path: "step" },
    );
  }
  return history;
}

/** Results that show display segments: the original's (copied), or the edit's; analysed again with them. */
function resultRewrites(
  data: ThreadExport,
  history: ForkHistory,
  originalDisplays: Map<string, string>,
): ResultRewrite[] {
  const rewrites: ResultRewrite[] = [];
  for (const result of data.results) {
    if (result.ordinal !== 0) continue;
    const edited = history.displayAs.get(result.call_key);
    const displayAs = edited !== undefined ? edited : (parseDisplay(originalDisplays.get(result.call_key)) ?? null);
    if (displayAs === null) continue;
    const call = data.calls.find((candidate) => candidate.call_key === result.call_key);
    const outputSchema = call?.output_schema_json ? JSON.parse(call.output_schema_json) : undefined;
    const columns = analysisColumns(analyzeResult({ text: result.text, displayAs, outputSchema }));
    rewrites.push({
      callKey: result.call_key,
      columns: {
        ...columns,
        isError: columns.isError || result.is_error,
        displayAsJson: JSON.stringify(displayAs),
        contentSha256: sha256Hex(JSON.stringify([result.text, displayAs, null])),
      },
    });
  }
  return rewrites;
}

function parseDisplay(json: string | undefined): unknown[] | null {
  if (json === undefined) return null;
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/** The import writer's records, turned into a fork's: its first event says where it came from, every row is "fork". */
function forkRecords(
  trace: ReplayTrace,
  history: ForkHistory,
  input: CreateForkInput,
  target: ModelTarget,
  groupId: string,
  now: Date,
): ThreadExport {
  const { data } = buildImport(
    { format: target.api, declarations: trace.declarations, events: history.events, issues: [] },
    {
      groupId,
      name: `Fork of ${trace.groupId} at step ${input.step} → ${target.name}`,
      inputSha256: sha256Hex(JSON.stringify([trace.groupId, input.step, input.edits])),
      importedAt: now,
    },
  );
  // `format` is the fork's own encoding (the target's); `historyFormat` the encoding the copied history and the
  // declarations were read from, so a replay puts vendor fields back only into that encoding and every other one,
  // the target's included, gets declarations and items in its own shape (a recording's raw items are never sent
  // as if they were the target's).
  const metadata = {
    format: target.api,
    historyFormat: trace.sourceFormat,
    declarations: trace.declarations,
    forkOf: trace.groupId,
    atStep: input.step,
    target: { name: target.name, api: target.api, model: target.model },
    edits: input.edits,
  };
  return {
    ...data,
    events: data.events.map((event) => ({
      ...event,
      source: FORK_SOURCE,
      ...(event.type === IMPORT_EVENT ? { type: FORK_EVENT, data_json: JSON.stringify(metadata) } : {}),
    })),
  };
}

async function replyFor(db: Database, forkRunId: number, started: StartedTurn, wait: boolean): Promise<ForkReply> {
  if (wait) await started.done;
  const run = await findForkRunById(db.client, forkRunId);
  if (run === null) throw new AppError("not_found", "The fork was deleted while its turn ran");
  const turn = (await listTurns(db.client, forkRunId)).find((row) => row.id === started.turnId);
  const body: ForkCreated = {
    group_id: run.groupId,
    fork_of: run.forkOfGroupId ?? "",
    at_step: run.forkAtStep ?? 0,
    model: run.target,
    api: run.api === "anthropic" || run.api === "gemini" || run.api === "openai-responses" ? run.api : "openai-chat",
    status: forkStatus(run.status),
    // The model's output leaves the server masked, as on the fork page (lib/audit/mask); the fork's replay reveals.
    turn: turn === undefined ? null : maskDto(turnView(turn)).value,
  };
  return { status: wait ? 201 : 202, body, groupId: run.groupId };
}

export async function createFork(options: {
  groupId: string;
  input: CreateForkInput;
  database?: Database;
  env?: Environment;
  now?: Date;
}): Promise<ForkReply> {
  const { input } = options;
  const db = options.database ?? (await getDatabase());
  const env = options.env ?? process.env;
  // Target and key first: nothing is written for a fork that could not be sent.
  const target = findModelTarget(input.model, env);
  const apiKey = readApiKey(target, env);
  const trace = await getReplayTrace({ groupId: options.groupId, database: db });
  const history = historyOf(trace, input);
  const now = options.now ?? new Date();
  const groupId = input.group_id ?? `fork-${randomBytes(6).toString("hex")}`;
  const originalId = await findThreadId(db.client, trace.groupId);
  if (originalId === null) throw new AppError("not_found", `No thread "${options.groupId}"`);
  const data = forkRecords(trace, history, input, target, groupId, now);
  const displays = await findFirstResultDisplays(
    db.client,
    originalId,
    data.calls.map((call) => call.call_key),
  );
  let created: { threadId: number; forkRunId: number };
  try {
    created = await db.transaction(async (tx) => {
      if (await threadExists(tx, groupId))
        throw new AppError("conflict", `Thread "${groupId}" already exists; pick another group_id`);
      return writeForkThread(tx, {
        data,
        forkOf: { id: originalId, groupId: trace.groupId, atStep: input.step },
        resultRewrites: resultRewrites(data, history, displays),
        run: {
          target: target.name,
          api: target.api,
          model: target.model,
          editsJson: JSON.stringify(input.edits),
          maxTurns: input.max_turns,
          historyEvents: history.events.length,
        },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError("conflict", `Thread "${groupId}" already exists; pick another group_id`);
    throw error;
  }
  const run = await findForkRunById(db.client, created.forkRunId);
  if (run === null) throw new Error("a fork run vanished right after it was written");
  const started = await startTurn({
    db,
    run,
    target,
    apiKey,
    ordinal: 1,
    completedTurns: 0,
    from: ["awaiting_results"],
  });
  return replyFor(db, created.forkRunId, started, input.wait);
}

export { replyFor };
