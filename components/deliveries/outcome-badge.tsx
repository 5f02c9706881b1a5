// A delivery's outcome and HTTP status as badges; the one place that maps outcomes to colours.
const OUTCOME_CLASS: Record<string, string> = {
  accepted: "badge-ok",
  duplicate: "badge-neutral",
  late: "badge-warn",
  conflict: "badge-bad",
  unknown_call: "badge-bad",
  unregistered: "badge-warn",
  call_id_mismatch: "badge-bad",
  invalid: "badge-bad",
  malformed_json: "badge-bad",
  unsupported_media_type: "badge-bad",
  too_large: "badge-bad",
  unauthorized: "badge-bad",
  failed: "badge-bad",
};

export function outcomeTone(outcome: string): "ok" | "warn" | "bad" | "neutral" {
  const cls = OUTCOME_CLASS[outcome] ?? "badge-neutral";
  return cls === "badge-ok" ? "ok" : cls === "badge-warn" ? "warn" : cls === "badge-bad" ? "bad" : "neutral";
}

export function OutcomeBadge({ outcome }: { outcome: string }) {
  return (
    <span className={`badge ${OUTCOME_CLASS[outcome] ?? "badge-neutral"}`} data-outcome={outcome}>
      {outcome.replaceAll("_", " ")}
    </span>
  );
}

export function HttpStatus({ status }: { status: number }) {
  const cls = status >= 500 ? "http-5xx" : status >= 400 ? "http-4xx" : "http-2xx";
  return <span className={`mono http-status ${cls}`}>{status}</span>;
}
