// The storage view's tables (server-rendered from a StorageReport DTO; no client code needed). Drawn with the
// theme's own pieces (.kv facts, .table in a scrolling .table-wrap) so both palettes style it: bare browser
// tables and an unstyled list ran cells together and ignored the dark palette's borders and header shade.
import { formatBytes, formatCount } from "@/components/ui/format.ts";
import type { StorageReport } from "@/lib/lifecycle/storage.ts";

function when(iso: string | null): string {
  return iso ? iso.replace("T", " ").replace(/\.\d+Z$/, " UTC") : "—";
}

// eslint-disable-next-line max-lines-per-function -- one report page: size, tables, retention and what goes next, as plain markup
export function StorageView({ report }: { report: StorageReport }) {
  const { database, retention, next } = report;
  const orphanRows = Object.entries(next.orphans).filter(([, n]) => n > 0);
  return (
    <>
      <div className="card">
        <h2>Database</h2>
        <dl className="kv">
          <dt>Kind</dt>
          <dd>
            {database.provider === "sqlite" ? "SQLite" : "PostgreSQL"}{" "}
            <span className="mono small">{database.url}</span>
          </dd>
          <dt>Size</dt>
          <dd data-testid="database-bytes">
            {formatBytes(database.bytes)}
            {database.freeBytes > 0 ? ` (${formatBytes(database.freeBytes)} free inside the file)` : ""}
          </dd>
          {database.provider === "sqlite" ? (
            <>
              <dt>Auto-vacuum</dt>
              <dd>
                {database.autoVacuum === "incremental"
                  ? "incremental: removed data gives its space back"
                  : `${database.autoVacuum}: run npm run toolscope -- prune --vacuum once to switch to incremental`}
              </dd>
            </>
          ) : null}
          <dt>Oldest thread activity</dt>
          <dd>{when(report.oldest.threadActivity)}</dd>
          <dt>Oldest delivery</dt>
          <dd>{when(report.oldest.delivery)}</dd>
          <dt>Oldest span</dt>
          <dd>{when(report.oldest.span)}</dd>
        </dl>
      </div>
      <div className="card">
        <h2>Retention</h2>
        <p data-testid="retention-settings">
          {retention.days === null && retention.maxBytes === null
            ? "Off: nothing is ever removed. Set TOOLSCOPE_RETENTION_DAYS and/or TOOLSCOPE_RETENTION_MAX_BYTES."
            : `${retention.days !== null ? `Threads inactive for ${retention.days} days are removed` : "No age limit"}; ${retention.maxBytes !== null ? `the oldest threads go when the data passes ${formatBytes(retention.maxBytes)}` : "no size limit"}. Sweep every ${Math.round(retention.sweepMs / 60_000)} min.`}
        </p>
        <h3>Removed next</h3>
        {next.threadCount === 0 && orphanRows.length === 0 ? (
          <p data-testid="retention-next">Nothing.</p>
        ) : (
          <>
            <p data-testid="retention-next">
              {formatCount(next.threadCount)} threads
              {orphanRows.map(([table, n]) => `, ${formatCount(n)} ${table} rows of no thread`).join("")}.
            </p>
            {next.threads.length > 0 ? (
              <div className="table-wrap">
                <table className="table" aria-label="Threads removed next">
                  <thead>
                    <tr>
                      <th scope="col">Thread</th>
                      <th scope="col">Last activity</th>
                      <th scope="col">Why</th>
                    </tr>
                  </thead>
                  <tbody>
                    {next.threads.map((thread) => (
                      <tr key={thread.groupId}>
                        <td className="mono">{thread.groupId}</td>
                        <td className="nowrap">{when(thread.lastActivityAt)}</td>
                        <td>{thread.reason === "age" ? "older than the age limit" : "over the size limit"}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : null}
          </>
        )}
        {report.lastSweep.at ? (
          <p className="small muted">
            Last sweep {when(report.lastSweep.at)}:{" "}
            {report.lastSweep.error
              ? `failed (${report.lastSweep.error}), retried next time`
              : `${formatCount(report.lastSweep.deletedRows ?? 0)} rows removed`}
            .
          </p>
        ) : null}
      </div>
      <div className="card">
        <h2>Rows per table</h2>
        <div className="table-wrap storage-rows">
          <table className="table" aria-label="Rows per table">
            <thead>
              <tr>
                <th scope="col">Table</th>
                <th scope="col" className="num">
                  Rows
                </th>
              </tr>
            </thead>
            <tbody>
              {report.tables.map((row) => (
                <tr key={row.table}>
                  <td className="mono">{row.table}</td>
                  <td className="num" data-testid={`rows-${row.table}`}>
                    {formatCount(row.rows)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </>
  );
}
