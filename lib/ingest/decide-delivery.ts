// The routing rules of the callback protocol as a pure function: given the call a delivery names (as it
// stands after earlier deliveries of the same batch) decide accept / duplicate / conflict / reject.
import type { CallbackMessage } from "./schemas.ts";

export type CallView = {
  id: number;
  callId: string | null;
  status: string;
  subscription: string | null;
  deadlineAt: Date | null;
  resultCount: number;
  latest: { ordinal: number; contentSha256: string } | null;
};

export type Decision =
  | { kind: "unknown_call"; reason: string }
  | { kind: "call_id_mismatch"; reason: string }
  | { kind: "conflict"; reason: string }
  | { kind: "duplicate"; reason: string }
  | {
      kind: "accept";
      ordinal: number;
      late: boolean;
      /** The call passes its deadline with this delivery (it was still pending). */
      timesOutNow: boolean;
      status: string;
      subscription: string | null;
    };

export function decideDelivery(options: {
  message: CallbackMessage;
  call: CallView | null;
  contentSha256: string;
  isError: boolean;
  receivedAt: Date;
}): Decision {
  const { message, call, contentSha256, isError, receivedAt } = options;
  if (!call) {
    return { kind: "unknown_call", reason: `No registered call "${message.id}" in thread "${message.group_id}"` };
  }
  if (call.callId !== null && (message.call_id ?? null) !== call.callId) {
    return {
      kind: "call_id_mismatch",
      reason: `call_id must echo the registered "${call.callId}", got ${message.call_id == null ? "none" : `"${message.call_id}"`}`,
    };
  }
  if (call.latest && call.latest.contentSha256 === contentSha256) {
    return { kind: "duplicate", reason: `same content as result #${call.latest.ordinal}` };
  }
  if (call.status === "cancelled" || call.subscription === "cancelled") {
    return { kind: "conflict", reason: "the call was cancelled; its results are closed" };
  }
  const activeSubscription = call.subscription === "active";
  if (call.resultCount > 0 && !activeSubscription) {
    return { kind: "conflict", reason: "the call already has a different result; the first result is kept" };
  }
  const pastDeadline = call.deadlineAt !== null && call.deadlineAt.getTime() <= receivedAt.getTime();
  const timesOutNow = call.status === "pending" && pastDeadline;
  const late = call.status === "timed_out" || timesOutNow;
  const subscription = message.subscription === true || activeSubscription ? "active" : call.subscription;
  // A timed-out call stays timed out: the runtime gave up on it; the late result is kept and marked.
  const status = late ? "timed_out" : isError ? "errored" : "completed";
  return { kind: "accept", ordinal: call.resultCount, late, timesOutNow, status, subscription };
}
