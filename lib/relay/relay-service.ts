// POST /api/relay/{name}: the callback route's pipeline (validation, signature, idempotency, audit — lib/ingest)
// with the result forwarded to a configured runtime. Store-and-forward answers the tool once the result and its
// outbox message are committed; pass-through forwards at once and answers with the runtime's own status and body,
// recording both. A breakpoint's hold, a fault, or an unfinished earlier result of the same call turns a
// pass-through into a queued delivery (202): the outbox then delivers it in order.
import "server-only";
import { config } from "../config.ts";
import { AppError } from "../http/app-error.ts";
import { bytesReply, jsonReply, type Reply } from "../http/reply.ts";
import type { CallbackWriter } from "../ingest/callback-writer.ts";
import { contentHash, type CallbackReply } from "../ingest/commit-batch.ts";
import { parseDelivery, type RawDelivery } from "../ingest/raw-delivery.ts";
import type { RelayOutcome } from "../ingest/relay-batch.ts";
import { outboxDispatcher, wakeOutbox } from "../outbox/service.ts";
import { sendDelivery } from "../outbox/sender.ts";
import { newWebhookId } from "../outbox/sign.ts";
import { analyzeResult } from "../results/analyze.ts";
import { sha256Hex } from "../results/hash.ts";
import { callbackWriter } from "../ingest/service.ts";
import { findRelayTarget, resolveRelayDestination } from "./targets.ts";

function retryAfter(reply: CallbackReply): Record<string, string> {
  return reply.retryAfterSeconds ? { "retry-after": String(Math.ceil(reply.retryAfterSeconds)) } : {};
}

/** What the tool is told about its result's way on (a fault is never told: it tests the agent, not the tool). */
function relayBody(relay: RelayOutcome) {
  const state = relay.faulted ? "queued" : relay.state === "delivering" ? "forwarding" : relay.state;
  return { target: relay.target, webhook_id: relay.webhookId, state };
}

export async function relayToolResult(options: {
  raw: RawDelivery;
  targetName: string;
  writer?: CallbackWriter;
}): Promise<Reply> {
  const target = findRelayTarget(options.targetName);
  const writer = options.writer ?? callbackWriter();
  const { raw } = options;
  const settings = config();
  const parsed = parseDelivery(raw, { maxBodyBytes: settings.maxBodyBytes, secrets: settings.callbackSecrets });
  if (!parsed.ok) {
    const reply = await writer.submit({
      kind: "rejected",
      raw,
      outcome: parsed.outcome,
      error: parsed.error,
      webhookId: parsed.webhookId,
      relayTarget: target.name,
    });
    return jsonReply(reply.status, reply.body, retryAfter(reply));
  }
  const { message } = parsed;
  if (message.type !== "tool_result") {
    const error = new AppError(
      "invalid",
      "type: relay routes carry tool_result messages; send oauth messages to the runtime or to /api/callback",
      { path: "type" },
    );
    const reply = await writer.submit({
      kind: "rejected",
      raw,
      outcome: "invalid",
      error,
      webhookId: parsed.webhookId,
      relayTarget: target.name,
    });
    return jsonReply(reply.status, reply.body, retryAfter(reply));
  }
  const dispatcher = outboxDispatcher();
  const passThrough = target.mode === "pass-through" && dispatcher !== null;
  const destination = passThrough ? resolveRelayDestination(`relay:${target.name}`) : null;
  const now = new Date();
  const webhookId = newWebhookId();
  const reply = await writer.submit({
    kind: "routed",
    raw,
    message,
    webhookId: parsed.webhookId,
    analysis: analyzeResult({ text: message.text, displayAs: message.display_as }),
    contentSha256: contentHash(message),
    textSha256: sha256Hex(message.text),
    bodySha256: sha256Hex(raw.body),
    relay: {
      target: target.name,
      mode: target.mode,
      webhookId,
      lease:
        passThrough && destination && !("problem" in destination)
          ? { owner: dispatcher.owner, until: dispatcher.leaseUntil(now, destination.timeoutMs) }
          : null,
      kind: "relay",
      answeredBy: null,
    },
  });
  const relay = reply.relay;
  if (!relay) return jsonReply(reply.status, reply.body, retryAfter(reply));
  if (relay.state !== "delivering" || !dispatcher || !destination || "problem" in destination) {
    if (relay.state === "pending" || relay.state === "queued") wakeOutbox();
    const body = { ...(reply.body as object), relay: relayBody(relay) };
    // A pass-through the tool is not answered by the runtime: accepted for delivery, not delivered.
    return jsonReply(target.mode === "pass-through" ? 202 : reply.status, body);
  }
  // Pass-through: this process holds the message's lease and forwards it now.
  const outcome = await sendDelivery({
    destination,
    webhookId,
    contentType: raw.contentType ?? "application/json",
    body: raw.body,
  });
  void dispatcher
    .settle(
      {
        id: relay.messageId,
        kind: "relay",
        destination: destination.id,
        orderKey: JSON.stringify([target.name, message.group_id, message.id]),
        webhookId,
        contentType: raw.contentType ?? "application/json",
        body: raw.body,
        attempts: 0,
        retryBase: 0,
        budgetSince: now,
      },
      destination,
      outcome,
    )
    .catch(() => undefined);
  if (outcome.status === null) {
    const timedOut = /no answer within/.test(outcome.error ?? "");
    throw new AppError(
      timedOut ? "relay_timeout" : "relay_unreachable",
      `The runtime (relay "${target.name}") did not answer: ${outcome.error ?? "no answer"}. Toolscope stored the result and keeps delivering it (webhook-id ${webhookId}).`,
    );
  }
  const headers: Record<string, string> = { "x-toolscope-relay": target.name, "x-toolscope-webhook-id": webhookId };
  if (outcome.headers["content-type"]) headers["content-type"] = outcome.headers["content-type"];
  if (outcome.headers["retry-after"]) headers["retry-after"] = outcome.headers["retry-after"];
  return bytesReply(outcome.body, headers, outcome.status);
}
