// What became of a callback delivery: the audit log's outcome values. Client-safe (no node imports), so
// pages and filters use the same list as ingestion.
export const DELIVERY_OUTCOMES = [
  "accepted",
  // An oauth message: the tool asked for the user's authorization instead of sending a result.
  "oauth",
  "duplicate",
  "late",
  "conflict",
  "unknown_call",
  // Relayed (POST /api/relay/{name}) for a call Toolscope does not know: stored and forwarded, the runtime decides.
  "unregistered",
  "call_id_mismatch",
  "invalid",
  "malformed_json",
  "unsupported_media_type",
  "too_large",
  "unauthorized",
  "failed",
] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];
