// The OTLP benchmark's baseline: plain node:http, the same protobuf decoding (lib/otel), and every span
// inserted durably as a row (ids, times, status, the span as JSON) — one transaction per request, no mapping,
// no framework, no ORM. SQLite (better-sqlite3, WAL, synchronous=FULL) or PostgreSQL (pg) by BENCH_DATABASE_URL.
// Prints "ready <port>".
import http from "node:http";
import Database from "better-sqlite3";
import pg from "pg";
import { decodeProtobufExport } from "../../lib/otel/otlp-proto.ts";

const url = process.env.BENCH_DATABASE_URL ?? "file:/tmp/toolscope-otlp-baseline.db";
const TABLE = `CREATE TABLE IF NOT EXISTS span (id SERIAL_OR_INTEGER PRIMARY KEY, trace_id TEXT NOT NULL, span_id TEXT NOT NULL, parent_span_id TEXT,
  name TEXT NOT NULL, start_ns TEXT NOT NULL, end_ns TEXT NOT NULL, status_code INTEGER NOT NULL, span_json TEXT NOT NULL, received_at TEXT NOT NULL,
  UNIQUE (trace_id, span_id))`;

type Row = [string, string, string | null, string, string, string, number, string, string];
let store: (rows: Row[]) => Promise<void>;

if (url.startsWith("file:")) {
  const db = new Database(url.slice("file:".length));
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.exec(TABLE.replace("SERIAL_OR_INTEGER", "INTEGER"));
  const insert = db.prepare("INSERT OR IGNORE INTO span (trace_id, span_id, parent_span_id, name, start_ns, end_ns, status_code, span_json, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const insertAll = db.transaction((rows: Row[]) => {
    for (const row of rows) insert.run(...row);
  });
  store = async (rows) => insertAll(rows);
} else {
  const pool = new pg.Pool({ connectionString: url, max: 8 });
  await pool.query(TABLE.replace("SERIAL_OR_INTEGER", "SERIAL"));
  store = async (rows) => {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      for (let start = 0; start < rows.length; start += 500) {
        const chunk = rows.slice(start, start + 500);
        const params = chunk.flat();
        const placeholders = chunk.map((_, i) => `(${Array.from({ length: 9 }, (_, j) => `$${i * 9 + j + 1}`).join(", ")})`).join(", ");
        await client.query(`INSERT INTO span (trace_id, span_id, parent_span_id, name, start_ns, end_ns, status_code, span_json, received_at) VALUES ${placeholders} ON CONFLICT DO NOTHING`, params);
      }
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK");
      throw error;
    } finally {
      client.release();
    }
  };
}

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    void (async () => {
      try {
        const decoded = decodeProtobufExport(Buffer.concat(chunks));
        const at = new Date().toISOString();
        await store(decoded.spans.map(({ span }) => [span.traceId, span.spanId, span.parentSpanId, span.name, span.startNs, span.endNs, span.status.code, JSON.stringify(span), at]));
        res.writeHead(200, { "content-type": "application/x-protobuf" });
        res.end();
      } catch (error) {
        res.writeHead(500);
        res.end(String(error));
      }
    })();
  });
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const address = server.address();
  console.log(`ready ${typeof address === "object" && address ? address.port : 0}`);
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => server.close(() => process.exit(0)));
