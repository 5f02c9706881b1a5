// Turns the bytes of one POST to /api/callback into a validated message or a precise rejection.
// Pure: no I/O. Both the lean Node handler and the Next route feed it.
import { AppError } from "../http/app-error.ts";
import { isJsonContentType, parseJsonBody, unsupportedEncoding } from "../http/body.ts";
import { formatIssuePath } from "../http/issue-path.ts";
import { callbackBodySchema, type CallbackBody } from "./schemas.ts";
import type { DeliveryOutcome } from "./outcomes.ts";
import { verifySignature } from "./webhook-signature.ts";

export { DELIVERY_OUTCOMES, type DeliveryOutcome } from "./outcomes.ts";

export type RawDelivery = {
  body: Buffer;
  /** The body was cut at the size limit; `body` holds the prefix kept for the audit log. */
  tooLarge: boolean;
  receivedBytes: number;
  contentType: string | null;
  /** The Content-Encoding header, if any: callbacks are read unencoded. */
  contentEncoding?: string | null;
  signature: { id: string | null; timestamp: string | null; signature: string | null };
  remoteAddress: string | null;
  receivedAt: Date;
  /** The sender already proved who it is (an API key or a signed-in user): no signature is required. */
  authenticated?: boolean;
};

export type ParsedDelivery =
  | { ok: true; message: CallbackBody; webhookId: string | null }
  | { ok: false; outcome: DeliveryOutcome; error: AppError; webhookId: string | null };

export function parseDelivery(
  raw: RawDelivery,
  options: { maxBodyBytes: number; secrets: readonly string[]; now?: Date },
): ParsedDelivery {
  if (raw.tooLarge) {
    return {
      ok: false,
      outcome: "too_large",
      webhookId: raw.signature.id,
      error: new AppError(
        "too_large",
        `Body exceeds the ${options.maxBodyBytes}-byte limit (TOOLSCOPE_MAX_BODY_BYTES)`,
      ),
    };
  }
  if (!isJsonContentType(raw.contentType)) {
    return {
      ok: false,
      outcome: "unsupported_media_type",
      webhookId: raw.signature.id,
      error: new AppError(
        "unsupported_media_type",
        `Content-Type must be application/json, got ${raw.contentType ? `"${raw.contentType}"` : "none"}`,
      ),
    };
  }
  const encoding = unsupportedEncoding(raw.contentEncoding ?? null);
  if (encoding) return { ok: false, outcome: "unsupported_media_type", webhookId: raw.signature.id, error: encoding };
  let webhookId: string | null = null;
  if (options.secrets.length > 0 && raw.authenticated !== true) {
    const check = verifySignature({
      secrets: options.secrets,
      headers: raw.signature,
      body: raw.body,
      now: options.now,
    });
    if (!check.ok)
      return {
        ok: false,
        outcome: "unauthorized",
        webhookId: raw.signature.id,
        error: new AppError("unauthorized", check.reason),
      };
    webhookId = check.webhookId;
  }
  const parsed = parseJsonBody(raw.body);
  if (!parsed.ok) return { ok: false, outcome: "malformed_json", webhookId, error: parsed.error };
  const result = callbackBodySchema.safeParse(parsed.value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const path = issue ? formatIssuePath(issue.path) : "";
    const message = issue
      ? `${path || "body"}: ${issue.message}`
      : "Body does not match the tool_result or oauth message";
    return {
      ok: false,
      outcome: "invalid",
      webhookId,
      error: new AppError("invalid", message, {
        path: path || undefined,
        details: result.error.issues.slice(0, 20).map((i) => ({ path: formatIssuePath(i.path), message: i.message })),
      }),
    };
  }
  return { ok: true, message: result.data, webhookId };
}
