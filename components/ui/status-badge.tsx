// A call's status as a coloured badge; the one place that maps statuses to colours.
const STATUS_CLASS: Record<string, string> = {
  pending: "badge-pending",
  completed: "badge-ok",
  errored: "badge-bad",
  timed_out: "badge-warn",
  cancelled: "badge-neutral",
  // The tool sent an oauth message: the user must authorize before it can answer.
  auth_required: "badge-warn",
};

export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`badge ${STATUS_CLASS[status] ?? "badge-neutral"}`} data-status={status}>
      {status.replace("_", " ")}
    </span>
  );
}
