// Driving a fork's loop: Continue sends the next turn (the whole fork thread as history), Stop aborts a running one.
import "server-only";
import { getDatabase, type Database } from "../db/client.ts";
import { AppError } from "../http/app-error.ts";
import { findModelTarget, readApiKey, type Environment } from "../models/targets.ts";
import { replyFor, type ForkReply } from "./create-fork.ts";
import { settleStaleTurns } from "./fork-view.ts";
import { findForkRun, listTurns, requestCancel } from "./repository.ts";
import { abortRunningTurn, startTurn } from "./run-turn.ts";

/** Run statuses Continue starts a turn from: a finished run is over, a running one is busy, a limit is a limit. */
const CONTINUABLE = ["awaiting_results", "failed", "cancelled"] as const;

export async function continueFork(options: {
  groupId: string;
  wait: boolean;
  database?: Database;
  env?: Environment;
  now?: Date;
}): Promise<ForkReply> {
  const db = options.database ?? (await getDatabase());
  const env = options.env ?? process.env;
  let run = await findForkRun(db.client, options.groupId);
  if (run === null) throw new AppError("not_found", `Thread "${options.groupId}" is not a fork`);
  if (await settleStaleTurns(db, run, options.now ?? new Date()))
    run = (await findForkRun(db.client, options.groupId)) ?? run;
  const turns = await listTurns(db.client, run.id);
  const completed = turns.filter((turn) => turn.status === "completed").length;
  if (run.status === "running") throw new AppError("conflict", "The model is still answering the previous turn");
  if (run.status === "finished")
    throw new AppError(
      "conflict",
      "The model answered without calling a tool: the run is over. Fork again to change the history",
    );
  if (completed >= run.maxTurns || run.status === "step_limit")
    throw new AppError("conflict", `The step limit (${run.maxTurns} model turns) is reached`);
  const target = findModelTarget(run.target, env);
  if (target.api !== run.api)
    throw new AppError(
      "conflict",
      `Model target "${run.target}" now speaks ${target.api}, not ${run.api} as when the fork was made; fork again`,
    );
  const apiKey = readApiKey(target, env);
  const ordinal = (turns.at(-1)?.ordinal ?? 0) + 1;
  const started = await startTurn({ db, run, target, apiKey, ordinal, completedTurns: completed, from: CONTINUABLE });
  return replyFor(db, run.id, started, options.wait);
}

/** Stops the running turn: at once in this process, at the next heartbeat (≤ 2 s) in another. */
export async function stopFork(options: {
  groupId: string;
  database?: Database;
}): Promise<{ group_id: string; stopping: boolean }> {
  const db = options.database ?? (await getDatabase());
  const run = await findForkRun(db.client, options.groupId);
  if (run === null) throw new AppError("not_found", `Thread "${options.groupId}" is not a fork`);
  if (!(await requestCancel(db.client, run.id))) throw new AppError("conflict", "No turn of this fork is running");
  abortRunningTurn(run.id);
  return { group_id: run.groupId, stopping: true };
}
