// Standard Webhooks headers for an outgoing delivery: the same webhook-id on every attempt, a fresh timestamp and
// signature per attempt (v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">). The scheme lib/ingest verifies on
// the way in (webhook-signature.ts, a higher layer); this is its sending side, for the outbox.
import { createHmac } from "node:crypto";

function secretKey(secret: string): Buffer {
  return secret.startsWith("whsec_")
    ? Buffer.from(secret.slice("whsec_".length), "base64")
    : Buffer.from(secret, "utf8");
}

/** A new webhook-id: `msg_` and 26 random characters, as Standard Webhooks senders write them. */
export function newWebhookId(): string {
  return `msg_${crypto.randomUUID().replaceAll("-", "").slice(0, 26)}`;
}

export function webhookHeaders(options: {
  webhookId: string;
  body: Uint8Array;
  secret: string | null;
  now?: Date;
}): Record<string, string> {
  const timestamp = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const headers: Record<string, string> = {
    "webhook-id": options.webhookId,
    "webhook-timestamp": String(timestamp),
  };
  if (options.secret) {
    const hmac = createHmac("sha256", secretKey(options.secret));
    hmac.update(`${options.webhookId}.${timestamp}.`);
    hmac.update(options.body);
    headers["webhook-signature"] = `v1,${hmac.digest("base64")}`;
  }
  return headers;
}
