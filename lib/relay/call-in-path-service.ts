// A call's way to the runtime, for the call page (polled while it may change): what went out and how each attempt
// ended, what was held and decided, approvals asked for it, the audit log of changes, and whether it can be answered.
import "server-only";
import { maskDto } from "../audit/mask.ts";
import { getDatabase } from "../db/client.ts";
import { AppError } from "../http/app-error.ts";
import { listCallOutbox } from "../outbox/service.ts";
import { findCallForAnswer, findThreadRelay } from "./answers-repository.ts";
import { getApprovalsPage } from "./approvals-service.ts";
import { getHeldPage } from "./holds-service.ts";
import { getInterventions } from "./rules-service.ts";
import type { CallInPath } from "./schemas.ts";
import { readRelayTargets } from "./targets.ts";

export async function getCallInPath(callRowId: number): Promise<CallInPath> {
  const db = await getDatabase();
  const call = await findCallForAnswer(db.client, callRowId);
  if (!call) throw new AppError("not_found", `No call ${callRowId}`);
  const [outbox, held, approvals, interventions, threadRelay] = await Promise.all([
    listCallOutbox(call.id),
    getHeldPage({ toolCallId: call.id }),
    getApprovalsPage({ groupId: call.groupId, callKey: call.callKey }),
    getInterventions({ toolCallId: call.id, limit: 100 }),
    findThreadRelay(db.client, call.groupId),
  ]);
  return maskDto({
    generatedAt: new Date().toISOString(),
    outbox,
    held: [...held.held, ...held.decided],
    approvals: [...approvals.pending, ...approvals.decided],
    interventions,
    threadRelay,
    relays: readRelayTargets().targets.map((target) => target.name),
    answerable: call.status === "pending" || call.subscription === "active",
  }).value;
}
