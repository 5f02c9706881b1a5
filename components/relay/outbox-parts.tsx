// Pieces of the outbox shown on several pages: a message's state (a fault loudly), its attempts.
import type { OutboxAttemptView, OutboxMessageView } from "@/lib/outbox/schemas.ts";

const TONE: Record<string, string> = {
  delivered: "badge-ok",
  held: "badge-warn",
  queued: "badge-pending",
  pending: "badge-pending",
  delivering: "badge-pending",
  dead: "badge-bad",
  dropped: "badge-bad",
};

export function OutboxStatusBadge({ message }: { message: Pick<OutboxMessageView, "status" | "fault"> }) {
  return (
    <>
      <span className={`badge ${TONE[message.status] ?? "badge-neutral"}`}>{message.status}</span>
      {message.fault ? (
        <>
          {" "}
          <span className="badge badge-bad" title="Injected on purpose by a fault rule" data-testid="fault-badge">
            FAULT: {message.fault}
          </span>
        </>
      ) : null}
    </>
  );
}

export function AttemptsTable({ attempts }: { attempts: OutboxAttemptView[] }) {
  if (attempts.length === 0) return <p className="small muted">No attempt yet.</p>;
  return (
    <table className="table small" data-testid="attempts-table">
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">When</th>
          <th scope="col">Answer</th>
          <th scope="col">Took</th>
          <th scope="col">Error / body</th>
        </tr>
      </thead>
      <tbody>
        {attempts.map((attempt) => (
          <tr key={attempt.id}>
            <td className="num">{attempt.number}</td>
            <td className="nowrap">{new Date(attempt.startedAt).toLocaleTimeString()}</td>
            <td>{attempt.httpStatus ?? "no answer"}</td>
            <td className="num">{attempt.durationMs} ms</td>
            <td className="mono truncate">{attempt.error ?? attempt.responseBody ?? ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
