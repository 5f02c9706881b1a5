// The ingestion benchmark's PostgreSQL baseline: plain node:http + pg (a pool of 16), the same zod
// validation, one durable transaction per callback (SELECT … FOR UPDATE, INSERT, UPDATE, COMMIT with the
// server's default synchronous_commit=on). Seeds BENCH_CALLS pending calls into BENCH_DATABASE_URL itself,
// then prints "ready <port>".
import { createHash } from "node:crypto";
import pg from "pg";
import { serveBaseline } from "./baseline-http.ts";

const url = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const calls = Number(process.env.BENCH_CALLS ?? 50_000);
const group = process.env.BENCH_GROUP ?? "bench";
const warmupGroup = process.env.BENCH_WARMUP_GROUP ?? "warmup";
const warmupCalls = Number(process.env.BENCH_WARMUP_CALLS ?? 0);
const pool = new pg.Pool({ connectionString: url, max: 16 });

await pool.query(`
  CREATE TABLE IF NOT EXISTS call (id SERIAL PRIMARY KEY, group_id TEXT NOT NULL, call_key TEXT NOT NULL, status TEXT NOT NULL, UNIQUE (group_id, call_key));
  CREATE TABLE IF NOT EXISTS result (id SERIAL PRIMARY KEY, call_id INTEGER NOT NULL UNIQUE REFERENCES call(id), text TEXT NOT NULL, sha256 TEXT NOT NULL, received_at TIMESTAMPTZ NOT NULL);
`);
await pool.query(
  `INSERT INTO call (group_id, call_key, status) SELECT $1, 'call_' || i, 'pending' FROM generate_series(0, $2 - 1) AS i ON CONFLICT DO NOTHING`,
  [group, calls],
);
// The benchmark's warm-up load goes to calls of its own group.
await pool.query(
  `INSERT INTO call (group_id, call_key, status) SELECT $1, 'call_' || i, 'pending' FROM generate_series(0, $2 - 1) AS i ON CONFLICT DO NOTHING`,
  [warmupGroup, warmupCalls],
);

async function accept(groupId: string, callKey: string, text: string): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const found = await client.query<{ id: number; status: string }>(
      "SELECT id, status FROM call WHERE group_id = $1 AND call_key = $2 FOR UPDATE",
      [groupId, callKey],
    );
    const call = found.rows[0];
    if (!call) {
      await client.query("ROLLBACK");
      return 404;
    }
    if (call.status !== "pending") {
      await client.query("ROLLBACK");
      return 409;
    }
    await client.query("INSERT INTO result (call_id, text, sha256, received_at) VALUES ($1, $2, $3, now())", [
      call.id,
      text,
      createHash("sha256").update(text).digest("hex"),
    ]);
    await client.query("UPDATE call SET status = 'completed' WHERE id = $1", [call.id]);
    await client.query("COMMIT");
    return 200;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

serveBaseline(accept, () => pool.end());
