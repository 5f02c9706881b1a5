// /settings/access – the access log: who revealed a masked value, exported a thread or read an exact raw copy, and when.
import type { Metadata } from "next";
import { listAccessRecords } from "@/lib/audit/service.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Access log" };

const ACTION_NAMES: Record<string, string> = {
  reveal: "revealed a masked value",
  export: "exported",
  raw: "read exact bytes",
};

export default async function AccessLogPage() {
  const records = await listAccessRecords({ limit: 200 });
  return (
    <>
      <div className="page-header">
        <div className="page-title">
          <h1>Access log</h1>
          <p className="page-description small muted">
            Pages carry credential-looking strings masked. Revealing one value, exporting a thread and reading a
            result&apos;s or a delivery&apos;s exact bytes are recorded here (the newest 200): who, when and which row —
            never the value itself; a reveal names the value by its kind, span and a sha256 prefix.
          </p>
        </div>
      </div>
      {records.length === 0 ? (
        <p className="card muted">Nothing revealed or read yet.</p>
      ) : (
        <div className="card table-card table-wrap">
          <table className="table" data-testid="access-log">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">Row</th>
                <th scope="col">Which value</th>
              </tr>
            </thead>
            <tbody>
              {records.map((record) => (
                <tr key={record.id} data-testid="access-record" data-action={record.action}>
                  <td className="mono small nowrap">{record.at}</td>
                  <td className="mono">{record.principal}</td>
                  <td>{ACTION_NAMES[record.action] ?? record.action}</td>
                  <td className="mono">{record.target}</td>
                  <td className="mono small">{record.detail ?? <span className="muted">—</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
