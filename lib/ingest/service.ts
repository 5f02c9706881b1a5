// Accepting tool results (POST /api/callback): validate, route to the registered call, store durably, audit.
// Deliveries are committed in groups (see CallbackWriter): one transaction carries every delivery that
// arrived while the previous one was committing, and each sender is answered only after that commit.
import "server-only";
import { config } from "../config.ts";
import { getDatabase } from "../db/client.ts";
import { analyzeResult } from "../results/analyze.ts";
import { sha256Hex } from "../results/hash.ts";
import { CallbackWriter } from "./callback-writer.ts";
import { contentHash, type CallbackReply } from "./commit-batch.ts";
import { oauthContentHash } from "./oauth.ts";
import { parseDelivery, type RawDelivery } from "./raw-delivery.ts";

export { CallbackWriter, type CallbackReply };

const globalForWriter = globalThis as typeof globalThis & { toolscopeCallbackWriter?: CallbackWriter };

/** The process's one group-commit writer: /api/callback, the relay routes and answers share its queue. */
export function callbackWriter(): CallbackWriter {
  globalForWriter.toolscopeCallbackWriter ??= new CallbackWriter(getDatabase);
  return globalForWriter.toolscopeCallbackWriter;
}

/** POST /api/callback: the whole protocol for one delivery. Resolves after the audit row (and result) are durable. */
export async function acceptToolResult(
  raw: RawDelivery,
  writer: CallbackWriter = callbackWriter(),
): Promise<CallbackReply> {
  const settings = config();
  const parsed = parseDelivery(raw, { maxBodyBytes: settings.maxBodyBytes, secrets: settings.callbackSecrets });
  if (!parsed.ok) {
    return writer.submit({
      kind: "rejected",
      raw,
      outcome: parsed.outcome,
      error: parsed.error,
      webhookId: parsed.webhookId,
    });
  }
  const { message } = parsed;
  if (message.type === "oauth") {
    return writer.submit({
      kind: "oauth",
      raw,
      message,
      webhookId: parsed.webhookId,
      contentSha256: oauthContentHash(message),
      bodySha256: sha256Hex(raw.body),
    });
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
