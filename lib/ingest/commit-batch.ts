// Deciding and writing one group of callback deliveries inside one transaction (the group commit's body):
// routing each delivery to its call, the audit rows (refusals keep a bounded prefix of their body), results,
// timeline events and call updates. CallbackWriter (callback-writer.ts) calls it; service.ts feeds it.
/* eslint-disable max-lines -- grew past the cap when Prettier wrapped it at 120 columns; the write model rework splits it */
import "server-only";
import { evaluateResultAlerts, type ResultFacts } from "../alerts/evaluate.ts";
import { config, DEFAULT_REFUSED_BODY_BYTES } from "../config.ts";
import type { DriverConnection } from "../db/driver.ts";
import { AppError } from "../http/app-error.ts";
import { analyzeResult, type ResultAnalysis } from "../results/analyze.ts";
import type { ExplorerCallColumns } from "../results/call-columns.ts";
import { sha256Hex } from "../results/hash.ts";
import { encodeStoredText } from "../results/text-codec.ts";
import { fitsOneStatement, writeBatchStatement } from "./batch-statement-repository.ts";
import { decideDelivery, type CallView } from "./decide-delivery.ts";
import { acceptedOAuthBody, AUTH_REQUIRED, decideOAuth, OAUTH_EVENT, storedOAuthHash } from "./oauth.ts";
import type { DeliveryOutcome, RawDelivery } from "./raw-delivery.ts";
import {
  findCallsWithLatest,
  findLatestOAuth,
  writeCallbackBatch,
  type CallbackBatchWrite,
  type CallUpdate,
  type NewDelivery,
} from "./repository.ts";
import { writeRelayed, type RelayedItem, type RelayIntent, type RelayOutcome } from "./relay-batch.ts";
import { analysisColumns } from "./result-columns.ts";
import type { AcceptedResult, CallbackMessage, OAuthMessage } from "./schemas.ts";

export type CallbackReply = {
  status: number;
  body: unknown;
  outcome: DeliveryOutcome;
  retryAfterSeconds?: number;
  /** A relayed delivery: its outbox message (lib/relay answers the tool from it). */
  relay?: RelayOutcome;
};

export type RoutedItem = {
  kind: "routed";
  raw: RawDelivery;
  message: CallbackMessage;
  webhookId: string | null;
  analysis: ResultAnalysis;
  contentSha256: string;
  textSha256: string;
  bodySha256: string;
  /** In the path: the delivery is forwarded to a relay target through the outbox (relay-batch.ts). */
  relay?: RelayIntent;
  /** A person's answer from the dashboard ("user:ada@example.com"): marked on the audit row. */
  answeredBy?: string;
};
export type RejectedItem = {
  kind: "rejected";
  raw: RawDelivery;
  outcome: DeliveryOutcome;
  error: AppError;
  webhookId: string | null;
  /** The relay target it was posted to (refused before it could be forwarded). */
  relayTarget?: string;
};
export type OAuthItem = {
  kind: "oauth";
  raw: RawDelivery;
  message: OAuthMessage;
  webhookId: string | null;
  contentSha256: string;
  bodySha256: string;
};
export type QueueItem = RoutedItem | RejectedItem | OAuthItem;

export function contentHash(message: CallbackMessage): string {
  return sha256Hex(JSON.stringify([message.text, message.display_as ?? null, message.call_id ?? null]));
}

// Audit columns hold text derived from untrusted input (error messages quote the body, headers): make it
// storable on both databases (PostgreSQL rejects NUL) without hiding what it was.
export function auditText(text: string | null): string | null {
  if (text === null) return null;
  return text.replaceAll("\u0000", "\\u0000").toWellFormed();
}

/**
 * The audit columns every delivery shares. An accepted delivery keeps its whole body; a refused one (401,
 * 404, 409, 413, 415, 422, 400, 503) only a prefix (TOOLSCOPE_REFUSED_BODY_BYTES) with the full size and the
 * whole body's sha256 — untrusted senders cannot fill the disk through the audit log.
 */
export function baseDelivery(
  raw: RawDelivery,
  webhookId: string | null,
  refused = true,
): Omit<NewDelivery, "outcome" | "httpStatus" | "reason" | "result"> {
  const keep = refused ? (config().refusedBodyBytes ?? DEFAULT_REFUSED_BODY_BYTES) : Number.POSITIVE_INFINITY;
  const truncated = raw.tooLarge || raw.body.length > keep;
  return {
    receivedAt: raw.receivedAt,
    groupId: null,
    callKey: null,
    toolCallId: null,
    contentType: auditText(raw.contentType?.slice(0, 200) ?? null),
    bodyBytes: raw.receivedBytes,
    // Unknown for a body cut at the size limit: its rest was never read.
    bodySha256: raw.tooLarge ? null : sha256Hex(raw.body),
    rawBody: truncated ? raw.body.subarray(0, Math.min(keep, raw.body.length)) : raw.body,
    rawBodyTruncated: truncated,
    remoteAddress: auditText(raw.remoteAddress),
    webhookId: auditText(webhookId ?? raw.signature.id?.slice(0, 200) ?? null),
  };
}

export function rejectionDelivery(item: RejectedItem): NewDelivery {
  return {
    ...baseDelivery(item.raw, item.webhookId),
    relay: item.relayTarget ?? null,
    outcome: item.outcome,
    httpStatus: item.error.status,
    reason: auditText(item.error.message),
    result: null,
  };
}

function acceptedBody(
  message: CallbackMessage,
  result: { id: number; ordinal: number; textSha256: string; late: boolean },
): AcceptedResult {
  return {
    status: "accepted",
    group_id: message.group_id,
    id: message.id,
    result_id: result.id,
    ordinal: result.ordinal,
    text_sha256: result.textSha256,
    late: result.late,
  };
}

function parseOutputSchema(json: string | null): unknown {
  if (json === null) return undefined;
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

type ResultRef = { existingId: number } | { newIndex: number };
type BatchCall = Omit<CallView, "latest"> & {
  threadId: number;
  toolName: string;
  outputSchemaJson: string | null;
  requestedAt: Date;
  explorer: ExplorerCallColumns;
  latest: { ref: ResultRef; ordinal: number; contentSha256: string; textSha256: string; late: boolean } | null;
};
type ReplyPlan =
  // A reply known before the commit: rejections, and oauth messages (which write no result).
  | { kind: "error"; reply: CallbackReply }
  | {
      kind: "result";
      outcome: DeliveryOutcome;
      message: CallbackMessage;
      ref: ResultRef;
      ordinal: number;
      textSha256: string;
      late: boolean;
      /** Index into the group's relayed items. */
      relayed?: number;
    }
  // A relayed result for a call Toolscope does not know: stored as a delivery, forwarded all the same.
  | { kind: "unregistered"; message: CallbackMessage; relayed: number };

/** Decides and writes one group of deliveries inside `tx`; returns each item's reply, in order. */
// eslint-disable-next-line max-lines-per-function -- one group commit read top to bottom: route, decide, write, reply; its steps share the maps built at the top
export async function commitBatch(tx: DriverConnection, items: QueueItem[]): Promise<CallbackReply[]> {
  const routed = items.filter(
    (item): item is RoutedItem | OAuthItem => item.kind === "routed" || item.kind === "oauth",
  );
  const calls = await findCallsWithLatest(
    tx,
    routed.map((item) => ({ groupId: item.message.group_id, callKey: item.message.id })),
  );
  const callsByKey = new Map<string, BatchCall>();
  for (const { latest: last, ...call } of calls) {
    callsByKey.set(JSON.stringify([call.groupId, call.callKey]), {
      ...call,
      latest: last
        ? {
            ref: { existingId: last.id },
            ordinal: last.ordinal,
            contentSha256: last.contentSha256,
            textSha256: last.textSha256,
            late: last.late,
          }
        : null,
    });
  }

  const write: CallbackBatchWrite = {
    at: new Date(),
    results: [],
    deliveries: [],
    callUpdates: [],
    events: [],
    touchedThreads: [],
  };
  const updates = new Map<number, CallUpdate>();
  const plans: ReplyPlan[] = [];
  const relayed: RelayedItem[] = [];
  const alertFacts: ResultFacts[] = [];
  const oauthCalls = items.some((item) => item.kind === "oauth")
    ? await findLatestOAuth(
        tx,
        calls.map((call) => call.id),
      )
    : new Map<number, string | null>();

  for (const item of items) {
    if (item.kind === "oauth") {
      plans.push(
        planOAuth(
          item,
          callsByKey.get(JSON.stringify([item.message.group_id, item.message.id])) ?? null,
          oauthCalls,
          write,
          updates,
        ),
      );
      continue;
    }
    if (item.kind === "rejected") {
      write.deliveries.push(rejectionDelivery(item));
      plans.push({
        kind: "error",
        reply: { status: item.error.status, body: item.error.toBody(), outcome: item.outcome },
      });
      continue;
    }
    const { message, raw } = item;
    const call = callsByKey.get(JSON.stringify([message.group_id, message.id])) ?? null;
    // The output schema is known only now; results of calls without one keep the analysis made on arrival.
    const analysis = call?.outputSchemaJson
      ? analyzeResult({
          text: message.text,
          displayAs: message.display_as,
          outputSchema: parseOutputSchema(call.outputSchemaJson),
        })
      : item.analysis;
    const decision = decideDelivery({
      message,
      call,
      contentSha256: item.contentSha256,
      isError: analysis.isError,
      receivedAt: raw.receivedAt,
    });
    const refused =
      decision.kind === "unknown_call" || decision.kind === "call_id_mismatch" || decision.kind === "conflict";
    const delivery = {
      ...baseDelivery(raw, item.webhookId, refused && !(item.relay && decision.kind === "unknown_call")),
      bodySha256: item.bodySha256,
      groupId: message.group_id,
      callKey: message.id,
      toolCallId: call?.id ?? null,
      relay: item.relay?.target ?? null,
      relayWebhookId: null as string | null,
      answeredBy: item.answeredBy ?? item.relay?.answeredBy ?? null,
    };
    const relay = (callView: { id: number; toolName: string } | null): number => {
      if (!item.relay) throw new Error("unreachable: relayed without an intent");
      delivery.relayWebhookId = item.relay.webhookId;
      const columns = analysisColumns(analysis);
      relayed.push({
        intent: item.relay,
        body: raw.body,
        contentType: raw.contentType ?? "application/json",
        groupId: message.group_id,
        callKey: message.id,
        call: callView,
        facts: {
          text: message.text,
          isError: columns.isError,
          success: columns.success,
          confidence: columns.confidence,
          nextAction: columns.nextAction,
        },
      });
      return relayed.length - 1;
    };

    if (decision.kind === "unknown_call" && item.relay) {
      // The runtime may know calls Toolscope was never told about: it decides, Toolscope records.
      const index = relay(null);
      write.deliveries.push({
        ...delivery,
        outcome: "unregistered",
        httpStatus: 200,
        reason: `no registered call; forwarded to relay "${item.relay.target}" (the runtime decides)`,
        result: null,
      });
      plans.push({ kind: "unregistered", message, relayed: index });
      continue;
    }
    if (decision.kind === "unknown_call" || decision.kind === "call_id_mismatch" || decision.kind === "conflict") {
      const error = new AppError(decision.kind, decision.reason);
      const kept = decision.kind === "conflict" && call?.latest ? call.latest.ref : null;
      write.deliveries.push({
        ...delivery,
        outcome: decision.kind,
        httpStatus: error.status,
        reason: auditText(decision.reason),
        result: kept,
      });
      plans.push({ kind: "error", reply: { status: error.status, body: error.toBody(), outcome: decision.kind } });
      continue;
    }
    if (!call) throw new Error("unreachable: a routed decision without a call");
    if (decision.kind === "duplicate") {
      const first = call.latest;
      if (!first) throw new Error("unreachable: a duplicate without a stored result");
      write.deliveries.push({
        ...delivery,
        outcome: "duplicate",
        httpStatus: 200,
        reason: decision.reason,
        result: first.ref,
      });
      plans.push({
        kind: "result",
        outcome: "duplicate",
        message,
        ref: first.ref,
        ordinal: first.ordinal,
        textSha256: first.textSha256,
        late: first.late,
      });
      continue;
    }

    const relayedIndex = item.relay ? relay({ id: call.id, toolName: call.toolName }) : undefined;
    const stored = encodeStoredText(message.text);
    const ref = { newIndex: write.results.length };
    const columns = analysisColumns(analysis);
    alertFacts.push({
      groupId: message.group_id,
      callKey: message.id,
      toolCallId: call.id,
      toolName: call.toolName,
      isError: columns.isError,
      success: columns.success,
      confidence: columns.confidence,
      nextAction: columns.nextAction,
      // The call's latency is its first result's (as the explorer's column says).
      latencyMs:
        call.resultCount === 0
          ? (columns.metaDurationMs ?? raw.receivedAt.getTime() - call.requestedAt.getTime())
          : null,
    });
    write.results.push({
      toolCallId: call.id,
      ordinal: decision.ordinal,
      text: stored.stored,
      textEscaped: stored.escaped,
      textSha256: item.textSha256,
      textBytes: Buffer.byteLength(message.text, "utf8"),
      contentSha256: item.contentSha256,
      displayAsJson: message.display_as == null ? null : JSON.stringify(message.display_as),
      receivedAt: raw.receivedAt,
      late: decision.late,
      ...columns,
    });
    const outcome: DeliveryOutcome = decision.late ? "late" : "accepted";
    write.deliveries.push({
      ...delivery,
      outcome,
      httpStatus: 200,
      reason: decision.late ? "arrived after the call's deadline" : null,
      result: ref,
    });
    write.events.push({
      threadId: call.threadId,
      kind: "tool_result",
      toolCallId: call.id,
      resultIndex: ref.newIndex,
      occurredAt: raw.receivedAt,
    });
    if (decision.timesOutNow && call.deadlineAt) {
      write.events.push({
        threadId: call.threadId,
        kind: "timeout",
        toolCallId: call.id,
        resultIndex: null,
        occurredAt: call.deadlineAt,
      });
    }
    write.touchedThreads.push(call.threadId);
    const previous = updates.get(call.id);
    updates.set(call.id, {
      toolCallId: call.id,
      status: decision.status,
      subscription: decision.subscription,
      addedResults: (previous?.addedResults ?? 0) + 1,
      complete: previous?.complete ?? (call.resultCount === 0 && !decision.late),
      timedOutAt: previous?.timedOutAt ?? (decision.timesOutNow ? call.deadlineAt : null),
      before: previous?.before ?? {
        status: call.status,
        subscription: call.subscription,
        requestedAt: call.requestedAt,
        explorer: call.explorer,
      },
    });
    // Later deliveries of this batch for the same call see this result as its latest.
    call.status = decision.status;
    call.subscription = decision.subscription;
    call.resultCount += 1;
    call.latest = {
      ref,
      ordinal: decision.ordinal,
      contentSha256: item.contentSha256,
      textSha256: item.textSha256,
      late: decision.late,
    };
    plans.push({
      kind: "result",
      outcome,
      message,
      ref,
      ordinal: decision.ordinal,
      textSha256: item.textSha256,
      late: decision.late,
      relayed: relayedIndex,
    });
  }
  write.callUpdates = [...updates.values()];

  // PostgreSQL: the whole batch as one statement (one round trip instead of five), when its values fit in one.
  const resultIds =
    tx.provider === "postgresql" && fitsOneStatement(write)
      ? await writeBatchStatement(tx, write)
      : await writeCallbackBatch(tx, write);
  const relayOutcomes = await writeRelayed(tx, relayed, write.at);
  // Alert rules see what this group stored, in its own transaction (an alert exists exactly when its cause does).
  await evaluateResultAlerts(tx, alertFacts, write.at);
  return plans.map((plan) => {
    if (plan.kind === "error") return plan.reply;
    if (plan.kind === "unregistered") {
      const relay = relayOutcomes[plan.relayed];
      return {
        status: 200,
        outcome: "unregistered",
        body: { status: "unregistered", group_id: plan.message.group_id, id: plan.message.id },
        relay,
      };
    }
    const id = "existingId" in plan.ref ? plan.ref.existingId : resultIds[plan.ref.newIndex];
    if (id === undefined) throw new Error("unreachable: an inserted result without an id");
    return {
      status: 200,
      outcome: plan.outcome,
      body: acceptedBody(plan.message, { id, ordinal: plan.ordinal, textSha256: plan.textSha256, late: plan.late }),
      relay: plan.relayed === undefined ? undefined : relayOutcomes[plan.relayed],
    };
  });
}

/** An oauth message: decided like a result, stored as an `oauth` event; the call becomes auth_required. */
function planOAuth(
  item: OAuthItem,
  call: BatchCall | null,
  oauthCalls: Map<number, string | null>,
  write: CallbackBatchWrite,
  updates: Map<number, CallUpdate>,
): ReplyPlan {
  const { message, raw } = item;
  const latestSha = call === null ? null : storedOAuthHash(oauthCalls.get(call.id));
  const decision = decideOAuth({ message, call, latestOAuthSha256: latestSha, contentSha256: item.contentSha256 });
  const refused =
    decision.kind === "unknown_call" || decision.kind === "call_id_mismatch" || decision.kind === "conflict";
  const delivery = {
    ...baseDelivery(raw, item.webhookId, refused),
    bodySha256: item.bodySha256,
    groupId: message.group_id,
    callKey: message.id,
    toolCallId: call?.id ?? null,
    result: null,
  };
  if (decision.kind === "unknown_call" || decision.kind === "call_id_mismatch" || decision.kind === "conflict") {
    const error = new AppError(decision.kind, decision.reason);
    write.deliveries.push({
      ...delivery,
      outcome: decision.kind,
      httpStatus: error.status,
      reason: auditText(decision.reason),
    });
    return { kind: "error", reply: { status: error.status, body: error.toBody(), outcome: decision.kind } };
  }
  const body = acceptedOAuthBody(message);
  if (decision.kind === "duplicate" || call === null) {
    write.deliveries.push({
      ...delivery,
      outcome: "duplicate",
      httpStatus: 200,
      reason: decision.kind === "duplicate" ? decision.reason : null,
    });
    return { kind: "error", reply: { status: 200, body, outcome: "duplicate" } };
  }
  const data = JSON.stringify({
    auth_url: message.auth_url,
    call_id: message.call_id ?? null,
    content_sha256: item.contentSha256,
  });
  write.deliveries.push({
    ...delivery,
    outcome: "oauth",
    httpStatus: 200,
    reason: "the tool asked for the user's authorization",
  });
  write.events.push({
    threadId: call.threadId,
    kind: OAUTH_EVENT,
    toolCallId: call.id,
    resultIndex: null,
    occurredAt: raw.receivedAt,
    text: message.auth_url,
    dataJson: data,
  });
  write.touchedThreads.push(call.threadId);
  const previous = updates.get(call.id);
  updates.set(call.id, {
    toolCallId: call.id,
    status: AUTH_REQUIRED,
    subscription: call.subscription,
    addedResults: previous?.addedResults ?? 0,
    complete: true,
    timedOutAt: previous?.timedOutAt ?? null,
    before: previous?.before ?? {
      status: call.status,
      subscription: call.subscription,
      requestedAt: call.requestedAt,
      explorer: call.explorer,
    },
  });
  oauthCalls.set(call.id, data);
  call.status = AUTH_REQUIRED;
  return { kind: "error", reply: { status: 200, body, outcome: "oauth" } };
}

export function failedReply(cause?: AppError): CallbackReply {
  const error = new AppError(
    "unavailable",
    `The result could not be stored; nothing was kept. Retry the delivery.${cause ? ` (${cause.message})` : ""}`,
    {
      retryAfterSeconds: cause?.retryAfterSeconds,
    },
  );
  return { status: error.status, body: error.toBody(), outcome: "failed", retryAfterSeconds: error.retryAfterSeconds };
}
