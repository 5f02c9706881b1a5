// Standard Webhooks signatures (webhook-id, webhook-timestamp, webhook-signature: v1,<base64 HMAC-SHA256>)
// computed over the raw body bytes; verification accepts any of several secrets (key rotation).
import { createHmac, timingSafeEqual } from "node:crypto";

export const TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

/** A secret as Standard Webhooks writes it (`whsec_<base64>`), or any other string used as raw key bytes. */
export function secretKey(secret: string): Buffer {
  return secret.startsWith("whsec_")
    ? Buffer.from(secret.slice("whsec_".length), "base64")
    : Buffer.from(secret, "utf8");
}

export function signPayload(secret: string, webhookId: string, timestamp: number, body: Uint8Array | string): string {
  const hmac = createHmac("sha256", secretKey(secret));
  hmac.update(`${webhookId}.${timestamp}.`);
  hmac.update(body);
  return `v1,${hmac.digest("base64")}`;
}

export function signatureHeaders(
  secret: string,
  body: Uint8Array | string,
  options: { webhookId?: string; now?: Date } = {},
) {
  const webhookId = options.webhookId ?? `msg_${crypto.randomUUID()}`;
  const timestamp = Math.floor((options.now ?? new Date()).getTime() / 1000);
  return {
    "webhook-id": webhookId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signPayload(secret, webhookId, timestamp, body),
  };
}

export type SignatureCheck = { ok: true; webhookId: string } | { ok: false; reason: string };

export function verifySignature(options: {
  secrets: readonly string[];
  headers: { id: string | null; timestamp: string | null; signature: string | null };
  body: Uint8Array;
  now?: Date;
}): SignatureCheck {
  const { id, timestamp, signature } = options.headers;
  if (!id || !timestamp || !signature) {
    const missing = [!id && "webhook-id", !timestamp && "webhook-timestamp", !signature && "webhook-signature"].filter(
      Boolean,
    );
    return { ok: false, reason: `missing signature header(s): ${missing.join(", ")}` };
  }
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: "webhook-timestamp must be Unix seconds" };
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const skew = nowSeconds - Number(timestamp);
  if (Math.abs(skew) > TIMESTAMP_TOLERANCE_SECONDS) {
    return {
      ok: false,
      reason: `webhook-timestamp is ${Math.abs(skew)} s ${skew > 0 ? "old" : "in the future"} (tolerance ${TIMESTAMP_TOLERANCE_SECONDS} s)`,
    };
  }
  const candidates = signature
    .split(" ")
    .filter((part) => part.startsWith("v1,"))
    .map((part) => Buffer.from(part.slice(3), "base64"));
  if (candidates.length === 0) return { ok: false, reason: "webhook-signature has no v1 signature" };
  for (const secret of options.secrets) {
    const expected = Buffer.from(signPayload(secret, id, Number(timestamp), options.body).slice(3), "base64");
    // Compare every candidate with timingSafeEqual; lengths are public (always 32 bytes when well-formed).
    if (candidates.some((candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected))) {
      return { ok: true, webhookId: id };
    }
  }
  return { ok: false, reason: "no webhook-signature matches the body with any configured secret" };
}
