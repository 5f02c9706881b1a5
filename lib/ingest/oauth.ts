// The callback protocol's oauth message (seed: "every invocation MUST eventually produce either a tool_result or an
// oauth message"): routed like a result, it settles the call as `auth_required`, is stored as an `oauth` timeline
// event holding the URL, and answered like a result — a repeat with the same URL is a no-op answering alike.
import { sha256Hex } from "../results/hash.ts";
import type { CallView } from "./decide-delivery.ts";
import type { AcceptedOAuth, OAuthMessage } from "./schemas.ts";

/** Status of a call whose tool asked for authorization instead of sending a result. */
export const AUTH_REQUIRED = "auth_required";
/** Event kind of a stored oauth message (text: the auth URL). */
export const OAUTH_EVENT = "oauth";

export type OAuthDecision =
  | { kind: "unknown_call" | "call_id_mismatch" | "conflict"; reason: string }
  | { kind: "duplicate"; reason: string }
  | { kind: "accept" };

/** The duplicate key of an oauth message, like a result's: what it says, and the call_id it echoes. */
export function oauthContentHash(message: OAuthMessage): string {
  return sha256Hex(JSON.stringify(["oauth", message.auth_url, message.call_id ?? null]));
}

/**
 * Routing as for a tool_result (unknown call → 404, call_id must echo → 422), then: a call that already has a
 * result, or was cancelled, conflicts; the same oauth message again is a duplicate; a call awaiting authorization
 * may be sent a new URL (the tool started a fresh flow).
 */
export function decideOAuth(options: {
  message: OAuthMessage;
  call: CallView | null;
  latestOAuthSha256: string | null;
  contentSha256: string;
}): OAuthDecision {
  const { message, call, latestOAuthSha256, contentSha256 } = options;
  if (!call)
    return { kind: "unknown_call", reason: `No registered call "${message.id}" in thread "${message.group_id}"` };
  if (call.callId !== null && (message.call_id ?? null) !== call.callId) {
    return {
      kind: "call_id_mismatch",
      reason: `call_id must echo the registered "${call.callId}", got ${message.call_id == null ? "none" : `"${message.call_id}"`}`,
    };
  }
  if (latestOAuthSha256 === contentSha256) return { kind: "duplicate", reason: "same oauth message as before" };
  if (call.status === "cancelled" || call.subscription === "cancelled")
    return { kind: "conflict", reason: "the call was cancelled; it takes no more messages" };
  if (call.resultCount > 0)
    return { kind: "conflict", reason: "the call already has a result; an oauth message no longer applies" };
  return { kind: "accept" };
}

/** The content hash kept in a stored oauth event's data, or null when the data is unreadable. */
export function storedOAuthHash(dataJson: string | null | undefined): string | null {
  if (dataJson === null || dataJson === undefined) return null;
  try {
    const data: unknown = JSON.parse(dataJson);
    return typeof data === "object" &&
      data !== null &&
      "content_sha256" in data &&
      typeof data.content_sha256 === "string"
      ? data.content_sha256
      : null;
  } catch {
    return null;
  }
}

export function acceptedOAuthBody(message: OAuthMessage): AcceptedOAuth {
  return { status: "accepted", type: "oauth", group_id: message.group_id, id: message.id, auth_url: message.auth_url };
}
