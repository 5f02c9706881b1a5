// Accepting tool results (POST /api/callback): validate, route to the registered call, store durably, audit.
// Deliveries are committed in groups (see CallbackWriter): one transaction carries every delivery that
// arrived while the previous one was committing, and each sender is answered only after that commit.
import "server-only";
import { config } from "../config.ts";
import { getDatabase, type Database, type ModelClient } from "../db/client.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { AppError } from "../http/app-error.ts";
import { analyzeResult, type ResultAnalysis } from "../results/analyze.ts";
import { sha256Hex } from "../results/hash.ts";
import { encodeStoredText } from "../results/text-codec.ts";
import { decideDelivery, type CallView } from "./decide-delivery.ts";
import { acceptedOAuthBody, AUTH_REQUIRED, decideOAuth, OAUTH_EVENT, oauthContentHash, storedOAuthHash } from "./oauth.ts";
import { parseDelivery, type DeliveryOutcome, type RawDelivery } from "./raw-delivery.ts";
import {
  findCalls,
  findLatestOAuth,
  findLatestResults,
  insertDeliveries,
  writeCallbackBatch,
  type CallbackBatchWrite,
  type CallUpdate,
  type NewDelivery,
} from "./repository.ts";
import { analysisColumns } from "./result-columns.ts";
import type { AcceptedResult, CallbackMessage, OAuthMessage } from "./schemas.ts";

export type CallbackReply = { status: number; body: unknown; outcome: DeliveryOutcome };

/** How much of a rejected oversized body the audit log keeps. */
export const TOO_LARGE_AUDIT_PREFIX = 64 * 1024;

type RoutedItem = {
  kind: "routed";
  raw: RawDelivery;
  message: CallbackMessage;
  webhookId: string | null;
  analysis: ResultAnalysis;
  contentSha256: string;
  textSha256: string;
  bodySha256: string;
};
type RejectedItem = { kind: "rejected"; raw: RawDelivery; outcome: DeliveryOutcome; error: AppError; webhookId: string | null };
type OAuthItem = { kind: "oauth"; raw: RawDelivery; message: OAuthMessage; webhookId: string | null; contentSha256: string; bodySha256: string };
type QueueItem = RoutedItem | RejectedItem | OAuthItem;

function contentHash(message: CallbackMessage): string {
  return sha256Hex(JSON.stringify([message.text, message.display_as ?? null, message.call_id ?? null]));
}

// Audit columns hold text derived from untrusted input (error messages quote the body, headers): make it
// storable on both databases (PostgreSQL rejects NUL) without hiding what it was.
function auditText(text: string | null): string | null {
  if (text === null) return null;
  return text.replaceAll("\u0000", "\\u0000").toWellFormed();
}

function baseDelivery(raw: RawDelivery, webhookId: string | null): Omit<NewDelivery, "outcome" | "httpStatus" | "reason" | "result"> {
  const truncated = raw.tooLarge;
  return {
    receivedAt: raw.receivedAt,
    groupId: null,
    callKey: null,
    toolCallId: null,
    contentType: auditText(raw.contentType?.slice(0, 200) ?? null),
    bodyBytes: raw.receivedBytes,
    bodySha256: truncated ? null : sha256Hex(raw.body),
    rawBody: truncated ? raw.body.subarray(0, TOO_LARGE_AUDIT_PREFIX) : raw.body,
    rawBodyTruncated: truncated,
    remoteAddress: auditText(raw.remoteAddress),
    webhookId: auditText(webhookId ?? raw.signature.id?.slice(0, 200) ?? null),
  };
}

function rejectionDelivery(item: RejectedItem): NewDelivery {
  return { ...baseDelivery(item.raw, item.webhookId), outcome: item.outcome, httpStatus: item.error.status, reason: auditText(item.error.message), result: null };
}

function acceptedBody(message: CallbackMessage, result: { id: number; ordinal: number; textSha256: string; late: boolean }): AcceptedResult {
  return { status: "accepted", group_id: message.group_id, id: message.id, result_id: result.id, ordinal: result.ordinal, text_sha256: result.textSha256, late: result.late };
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
  outputSchemaJson: string | null;
  latest: { ref: ResultRef; ordinal: number; contentSha256: string; textSha256: string; late: boolean } | null;
};
type ReplyPlan =
  // A reply known before the commit: rejections, and oauth messages (which write no result).
  | { kind: "error"; reply: CallbackReply }
  | { kind: "result"; outcome: DeliveryOutcome; message: CallbackMessage; ref: ResultRef; ordinal: number; textSha256: string; late: boolean };

/** Decides and writes one group of deliveries inside `tx`; returns each item's reply, in order. */
async function commitBatch(tx: ModelClient, items: QueueItem[]): Promise<CallbackReply[]> {
  const routed = items.filter((item): item is RoutedItem | OAuthItem => item.kind === "routed" || item.kind === "oauth");
  const calls = await findCalls(tx, routed.map((item) => ({ groupId: item.message.group_id, callKey: item.message.id })));
  const latest = new Map((await findLatestResults(tx, calls)).map((r) => [r.toolCallId, r]));
  const callsByKey = new Map<string, BatchCall>();
  for (const call of calls) {
    const last = latest.get(call.id);
    callsByKey.set(JSON.stringify([call.groupId, call.callKey]), {
      ...call,
      latest: last ? { ref: { existingId: last.id }, ordinal: last.ordinal, contentSha256: last.contentSha256, textSha256: last.textSha256, late: last.late } : null,
    });
  }

  const write: CallbackBatchWrite = { at: new Date(), results: [], deliveries: [], callUpdates: [], events: [], touchedThreads: [] };
  const updates = new Map<number, CallUpdate>();
  const plans: ReplyPlan[] = [];
  const oauthCalls = items.some((item) => item.kind === "oauth") ? await findLatestOAuth(tx, calls.map((call) => call.id)) : new Map<number, string | null>();

  for (const item of items) {
    if (item.kind === "oauth") {
      plans.push(planOAuth(item, callsByKey.get(JSON.stringify([item.message.group_id, item.message.id])) ?? null, oauthCalls, write, updates));
      continue;
    }
    if (item.kind === "rejected") {
      write.deliveries.push(rejectionDelivery(item));
      plans.push({ kind: "error", reply: { status: item.error.status, body: item.error.toBody(), outcome: item.outcome } });
      continue;
    }
    const { message, raw } = item;
    const call = callsByKey.get(JSON.stringify([message.group_id, message.id])) ?? null;
    // The output schema is known only now; results of calls without one keep the analysis made on arrival.
    const analysis = call?.outputSchemaJson
      ? analyzeResult({ text: message.text, displayAs: message.display_as, outputSchema: parseOutputSchema(call.outputSchemaJson) })
      : item.analysis;
    const decision = decideDelivery({ message, call, contentSha256: item.contentSha256, isError: analysis.isError, receivedAt: raw.receivedAt });
    const delivery = { ...baseDelivery(raw, item.webhookId), bodySha256: item.bodySha256, groupId: message.group_id, callKey: message.id, toolCallId: call?.id ?? null };

    if (decision.kind === "unknown_call" || decision.kind === "call_id_mismatch" || decision.kind === "conflict") {
      const error = new AppError(decision.kind, decision.reason);
      const kept = decision.kind === "conflict" && call?.latest ? call.latest.ref : null;
      write.deliveries.push({ ...delivery, outcome: decision.kind, httpStatus: error.status, reason: auditText(decision.reason), result: kept });
      plans.push({ kind: "error", reply: { status: error.status, body: error.toBody(), outcome: decision.kind } });
      continue;
    }
    if (!call) throw new Error("unreachable: a routed decision without a call");
    if (decision.kind === "duplicate") {
      const first = call.latest;
      if (!first) throw new Error("unreachable: a duplicate without a stored result");
      write.deliveries.push({ ...delivery, outcome: "duplicate", httpStatus: 200, reason: decision.reason, result: first.ref });
      plans.push({ kind: "result", outcome: "duplicate", message, ref: first.ref, ordinal: first.ordinal, textSha256: first.textSha256, late: first.late });
      continue;
    }

    const stored = encodeStoredText(message.text);
    const ref = { newIndex: write.results.length };
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
      ...analysisColumns(analysis),
    });
    const outcome: DeliveryOutcome = decision.late ? "late" : "accepted";
    write.deliveries.push({ ...delivery, outcome, httpStatus: 200, reason: decision.late ? "arrived after the call's deadline" : null, result: ref });
    write.events.push({ threadId: call.threadId, kind: "tool_result", toolCallId: call.id, resultIndex: ref.newIndex, occurredAt: raw.receivedAt });
    if (decision.timesOutNow && call.deadlineAt) {
      write.events.push({ threadId: call.threadId, kind: "timeout", toolCallId: call.id, resultIndex: null, occurredAt: call.deadlineAt });
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
    });
    // Later deliveries of this batch for the same call see this result as its latest.
    call.status = decision.status;
    call.subscription = decision.subscription;
    call.resultCount += 1;
    call.latest = { ref, ordinal: decision.ordinal, contentSha256: item.contentSha256, textSha256: item.textSha256, late: decision.late };
    plans.push({ kind: "result", outcome, message, ref, ordinal: decision.ordinal, textSha256: item.textSha256, late: decision.late });
  }
  write.callUpdates = [...updates.values()];

  const resultIds = await writeCallbackBatch(tx, write);
  return plans.map((plan) => {
    if (plan.kind === "error") return plan.reply;
    const id = "existingId" in plan.ref ? plan.ref.existingId : resultIds[plan.ref.newIndex];
    if (id === undefined) throw new Error("unreachable: an inserted result without an id");
    return { status: 200, outcome: plan.outcome, body: acceptedBody(plan.message, { id, ordinal: plan.ordinal, textSha256: plan.textSha256, late: plan.late }) };
  });
}

/** An oauth message: decided like a result, stored as an `oauth` event; the call becomes auth_required. */
function planOAuth(item: OAuthItem, call: BatchCall | null, oauthCalls: Map<number, string | null>, write: CallbackBatchWrite, updates: Map<number, CallUpdate>): ReplyPlan {
  const { message, raw } = item;
  const latestSha = call === null ? null : storedOAuthHash(oauthCalls.get(call.id));
  const decision = decideOAuth({ message, call, latestOAuthSha256: latestSha, contentSha256: item.contentSha256 });
  const delivery = { ...baseDelivery(raw, item.webhookId), bodySha256: item.bodySha256, groupId: message.group_id, callKey: message.id, toolCallId: call?.id ?? null, result: null };
  if (decision.kind === "unknown_call" || decision.kind === "call_id_mismatch" || decision.kind === "conflict") {
    const error = new AppError(decision.kind, decision.reason);
    write.deliveries.push({ ...delivery, outcome: decision.kind, httpStatus: error.status, reason: auditText(decision.reason) });
    return { kind: "error", reply: { status: error.status, body: error.toBody(), outcome: decision.kind } };
  }
  const body = acceptedOAuthBody(message);
  if (decision.kind === "duplicate" || call === null) {
    write.deliveries.push({ ...delivery, outcome: "duplicate", httpStatus: 200, reason: decision.kind === "duplicate" ? decision.reason : null });
    return { kind: "error", reply: { status: 200, body, outcome: "duplicate" } };
  }
  const data = JSON.stringify({ auth_url: message.auth_url, call_id: message.call_id ?? null, content_sha256: item.contentSha256 });
  write.deliveries.push({ ...delivery, outcome: "oauth", httpStatus: 200, reason: "the tool asked for the user's authorization" });
  write.events.push({ threadId: call.threadId, kind: OAUTH_EVENT, toolCallId: call.id, resultIndex: null, occurredAt: raw.receivedAt, text: message.auth_url, dataJson: data });
  write.touchedThreads.push(call.threadId);
  updates.set(call.id, { toolCallId: call.id, status: AUTH_REQUIRED, subscription: call.subscription, addedResults: 0, complete: true, timedOutAt: null });
  oauthCalls.set(call.id, data);
  call.status = AUTH_REQUIRED;
  return { kind: "error", reply: { status: 200, body, outcome: "oauth" } };
}

/**
 * Group commit: deliveries queue up while a transaction is committing and go into the next one together.
 * SQLite commits one transaction at a time anyway; grouping turns N fsyncs into one. Every caller's promise
 * settles only after its transaction committed (or failed).
 */
export class CallbackWriter {
  private queue: { item: QueueItem; resolve: (reply: CallbackReply) => void }[] = [];
  private running = false;

  constructor(
    private readonly database: () => Promise<Database>,
    private readonly maxBatch = 256,
  ) {}

  submit(item: QueueItem): Promise<CallbackReply> {
    return new Promise((resolve) => {
      this.queue.push({ item, resolve });
      if (!this.running) {
        this.running = true;
        // Start on the next macrotask: the SQLite driver is synchronous, so a transaction started right
        // here would run as one unbroken chain of microtasks and no other request could join its batch.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        const replies = await this.commit(batch.map((entry) => entry.item));
        batch.forEach((entry, index) => entry.resolve(replies[index] ?? failedReply()));
        // Let requests that arrived during the commit reach the queue before deciding it is empty.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      this.running = false;
    }
  }

  private async commit(items: QueueItem[]): Promise<CallbackReply[]> {
    let db: Database;
    try {
      db = await this.database();
    } catch (error) {
      console.error("[toolscope] database unavailable", error);
      return items.map(() => failedReply());
    }
    try {
      return await db.transaction((tx) => commitBatch(tx, items));
    } catch {
      // One bad item, or a race with another process on the same call (its result committed between our
      // read and our insert: a unique-key violation), must not fail its neighbours: retry each alone.
      const replies: CallbackReply[] = [];
      for (const item of items) replies.push(await this.commitAlone(db, item));
      return replies;
    }
  }

  /** One delivery in its own transaction; a lost race is retried, and then sees the winner's result. */
  private async commitAlone(db: Database, item: QueueItem): Promise<CallbackReply> {
    for (let attempt = 1; ; attempt++) {
      try {
        const [reply] = await db.transaction((tx) => commitBatch(tx, [item]));
        return reply ?? failedReply();
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= 3) return this.recordFailure(db, item, error);
      }
    }
  }

  private async recordFailure(db: Database, item: QueueItem, error: unknown): Promise<CallbackReply> {
    console.error("[toolscope] could not store a delivery", error);
    {
      const delivery = item.kind === "rejected" ? rejectionDelivery(item) : { ...baseDelivery(item.raw, item.webhookId), result: null };
      try {
        await db.transaction((tx) =>
          insertDeliveries(tx, [{ ...delivery, outcome: "failed", httpStatus: 503, reason: `storage failed: ${error instanceof Error ? error.message.slice(0, 300) : "unknown"}` }]),
        );
      } catch (auditError) {
        console.error("[toolscope] could not audit a failed delivery", auditError);
      }
    }
    return failedReply();
  }
}

function failedReply(): CallbackReply {
  const error = new AppError("unavailable", "The result could not be stored; nothing was kept. Retry the delivery.");
  return { status: error.status, body: error.toBody(), outcome: "failed" };
}

const globalForWriter = globalThis as typeof globalThis & { toolscopeCallbackWriter?: CallbackWriter };

function callbackWriter(): CallbackWriter {
  globalForWriter.toolscopeCallbackWriter ??= new CallbackWriter(getDatabase);
  return globalForWriter.toolscopeCallbackWriter;
}

/** POST /api/callback: the whole protocol for one delivery. Resolves after the audit row (and result) are durable. */
export async function acceptToolResult(raw: RawDelivery, writer: CallbackWriter = callbackWriter()): Promise<CallbackReply> {
  const settings = config();
  const parsed = parseDelivery(raw, { maxBodyBytes: settings.maxBodyBytes, secrets: settings.callbackSecrets });
  if (!parsed.ok) {
    return writer.submit({ kind: "rejected", raw, outcome: parsed.outcome, error: parsed.error, webhookId: parsed.webhookId });
  }
  const { message } = parsed;
  if (message.type === "oauth") {
    return writer.submit({ kind: "oauth", raw, message, webhookId: parsed.webhookId, contentSha256: oauthContentHash(message), bodySha256: sha256Hex(raw.body) });
  }
  return writer.submit({
    kind: "routed",
    raw,
    message,
    webhookId: parsed.webhookId,
    analysis: analyzeResult({ text: message.text, displayAs: message.display_as }),
    contentSha256: contentHash(message),
    textSha256: sha256Hex(message.text),
    bodySha256: sha256Hex(raw.body),
  });
}
