// The alert history as a table: when, which rule, what it said, the calls behind it (links), its deliveries.
import Link from "next/link";
import type { AlertView } from "@/lib/alerts/schemas.ts";
import { callHref, threadHref } from "../ui/hrefs.ts";
import { TimeAgo } from "../ui/time-ago.tsx";

const DELIVERY_BADGE: Record<string, string> = { delivered: "badge-ok", dead: "badge-bad", dropped: "badge-neutral" };

export function AlertHistoryTable({ alerts }: { alerts: AlertView[] }) {
  return (
    <div className="card table-card table-wrap">
      <table className="table">
        <caption className="sr-only">Alerts sent, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Sent</th>
            <th scope="col">Alert</th>
            <th scope="col" className="num">
              Events
            </th>
            <th scope="col">Calls</th>
            <th scope="col">Deliveries</th>
          </tr>
        </thead>
        <tbody>
          {alerts.map((alert) => (
            <tr key={alert.id} data-testid="alert-row">
              <td>
                <TimeAgo iso={alert.firedAt} />
              </td>
              <td>
                <strong>{alert.title}</strong>
                <div className="small muted">
                  {alert.kind === "grouped" ? "grouped · " : alert.kind === "test" ? "test · " : ""}
                  {alert.ruleId !== null ? (
                    <Link href={`/alerts/history?rule=${alert.ruleId}`}>{alert.ruleName}</Link>
                  ) : (
                    alert.ruleName
                  )}{" "}
                  · {alert.event}
                </div>
              </td>
              <td className="num">{alert.count}</td>
              <td>
                {alert.calls.length === 0 ? (
                  <span className="muted">—</span>
                ) : (
                  <ul className="plain-list">
                    {alert.calls.map((call) => (
                      <li key={`${call.groupId}\u0000${call.callKey}`}>
                        <Link href={call.toolCallId !== null ? callHref(call.toolCallId) : threadHref(call.groupId)}>
                          {call.toolName ?? "call"} {call.callKey}
                        </Link>{" "}
                        <span className="small muted">{call.detail}</span>
                      </li>
                    ))}
                    {alert.count > alert.calls.length ? (
                      <li className="small muted">and {alert.count - alert.calls.length} more</li>
                    ) : null}
                  </ul>
                )}
              </td>
              <td>
                {alert.deliveries.map((delivery) => (
                  <div key={delivery.messageId} className="small">
                    {delivery.destination}:{" "}
                    <span className={`badge ${DELIVERY_BADGE[delivery.status] ?? "badge-pending"}`}>
                      {delivery.status}
                    </span>{" "}
                    {delivery.attempts > 0 ? `${delivery.attempts} attempt${delivery.attempts === 1 ? "" : "s"}` : ""}
                    {delivery.lastStatus !== null ? ` · HTTP ${delivery.lastStatus}` : ""}
                  </div>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
