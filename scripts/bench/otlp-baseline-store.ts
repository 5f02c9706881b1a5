// The OTLP benchmark's baseline store: every span inserted durably as a row (ids, times, status, the span as JSON),
// one transaction per request, no mapping, no framework, no ORM. SQLite (better-sqlite3, WAL, synchronous=FULL) or
// PostgreSQL (pg) by URL. Used by the baseline server (otlp-baseline-server.ts) and, in process, by
// bench:otlp-stages, so both measure the same work.
import Database from "better-sqlite3";
import pg from "pg";
import type { ReceivedSpan } from "../../lib/otel/otlp-types.ts";

const TABLE = `CREATE TABLE IF NOT EXISTS span (id SERIAL_OR_INTEGER PRIMARY KEY, trace_id TEXT NOT NULL, span_id TEXT NOT NULL, parent_span_id TEXT,
  name TEXT NOT NULL, start_ns TEXT NOT NULL, end_ns TEXT NOT NULL, status_code INTEGER NOT NULL, span_json TEXT NOT NULL, received_at TEXT NOT NULL,
  UNIQUE (trace_id, span_id))`;

type Row = [string, string, string | null, string, string, string, number, string, string];

export type BaselineStore = {
  /** Stores one request's spans in one transaction; resolves once it committed. */
  store(spans: ReceivedSpan[]): Promise<void>;
  count(): Promise<number>;
  close(): Promise<void>;
};

function rows(spans: ReceivedSpan[]): Row[] {
  const at = new Date().toISOString();
  return spans.map(({ span }) => [
    span.traceId,
    span.spanId,
    span.parentSpanId,
    span.name,
    span.startNs,
    span.endNs,
    span.status.code,
    JSON.stringify(span),
    at,
  ]);
}

export async function openBaselineStore(url: string): Promise<BaselineStore> {
  if (url.startsWith("file:")) {
    const db = new Database(url.slice("file:".length));
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = FULL");
    db.exec(TABLE.replace("SERIAL_OR_INTEGER", "INTEGER"));
    const insert = db.prepare(
      "INSERT OR IGNORE INTO span (trace_id, span_id, parent_span_id, name, start_ns, end_ns, status_code, span_json, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    const insertAll = db.transaction((batch: Row[]) => {
      for (const row of batch) insert.run(...row);
    });
    return {
      store: async (spans) => insertAll(rows(spans)),
      count: async () => Number(db.prepare("SELECT count(*) AS n FROM span").pluck().get()),
      close: async () => {
        db.close();
      },
    };
  }
  const pool = new pg.Pool({ connectionString: url, max: 8 });
  await pool.query(TABLE.replace("SERIAL_OR_INTEGER", "SERIAL"));
  return {
    store: async (spans) => {
      const batch = rows(spans);
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        for (let start = 0; start < batch.length; start += 500) {
          const chunk = batch.slice(start, start + 500);
          const placeholders = chunk
            .map((_, i) => `(${Array.from({ length: 9 }, (_, j) => `$${i * 9 + j + 1}`).join(", ")})`)
            .join(", ");
          await client.query(
            `INSERT INTO span (trace_id, span_id, parent_span_id, name, start_ns, end_ns, status_code, span_json, received_at) VALUES ${placeholders} ON CONFLICT DO NOTHING`,
            chunk.flat(),
          );
        }
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      } finally {
        client.release();
      }
    },
    count: async () => Number((await pool.query<{ n: string }>("SELECT count(*) AS n FROM span")).rows[0]?.n ?? 0),
    close: () => pool.end(),
  };
}
