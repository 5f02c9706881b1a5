// The threads list as a dense table: one row per thread with its counts; the group id links to the timeline.
import Link from "next/link";
import { TimeAgo } from "@/components/ui/time-ago.tsx";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import type { ThreadListItem } from "@/lib/threads/schemas.ts";
import { threadHref } from "@/components/ui/hrefs.ts";
import { CostCell, TokensCell } from "@/components/model-turns/usage-cells.tsx";

function Count({ value, tone, label }: { value: number; tone?: "bad" | "warn" | "pending"; label: string }) {
  if (value === 0)
    return (
      <span className="muted" aria-label={`no ${label}`}>
        –
      </span>
    );
  return tone ? (
    <span className={`badge badge-${tone === "bad" ? "bad" : tone === "warn" ? "warn" : "pending"}`}>
      {value.toLocaleString("en-US")}
    </span>
  ) : (
    <>{value.toLocaleString("en-US")}</>
  );
}

export function ThreadsTable({ threads }: { threads: ThreadListItem[] }) {
  return (
    <div className="card table-card">
      <table className="table threads-table" data-testid="threads-table">
        <thead>
          <tr>
            <th scope="col">Thread</th>
            <th scope="col">Tools</th>
            <th scope="col" className="num">
              Calls
            </th>
            <th scope="col" className="num">
              Pending
            </th>
            <th scope="col" className="num">
              Errors
            </th>
            <th scope="col" className="num">
              Timed out
            </th>
            <th scope="col" className="num">
              Results
            </th>
            <th scope="col" className="num">
              Tokens
            </th>
            <th scope="col" className="num">
              Cost
            </th>
            <th scope="col">Last activity</th>
          </tr>
        </thead>
        <tbody>
          {threads.map((thread) => (
            <tr key={thread.groupId} data-testid="thread-row">
              <td className="thread-cell">
                <Link href={threadHref(thread.groupId)} className="mono thread-link">
                  {presentUntrustedText(thread.groupId)}
                </Link>
                {thread.title || thread.vendor ? (
                  <div className="small muted">
                    {thread.title ? presentUntrustedText(thread.title) : null}
                    {thread.title && thread.vendor ? " · " : null}
                    {thread.vendor}
                  </div>
                ) : null}
              </td>
              <td>
                <div className="chips">
                  {thread.tools.map((tool) => (
                    <span key={tool} className="chip mono">
                      {presentUntrustedText(tool)}
                    </span>
                  ))}
                </div>
              </td>
              <td className="num">{thread.counts.calls.toLocaleString("en-US")}</td>
              <td className="num">
                <Count value={thread.counts.pending} tone="pending" label="pending calls" />
              </td>
              <td className="num">
                <Count value={thread.counts.errors} tone="bad" label="errors" />
              </td>
              <td className="num">
                <Count value={thread.counts.timedOut} tone="warn" label="timed-out calls" />
              </td>
              <td className="num">{thread.counts.results.toLocaleString("en-US")}</td>
              <td className="num">
                <TokensCell usage={thread.usage} />
              </td>
              <td className="num">
                <CostCell usage={thread.usage} />
              </td>
              <td className="nowrap">
                <TimeAgo iso={thread.lastActivityAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
