// The ingestion benchmark's PostgreSQL baseline: plain node:http + pg (a pool of 16), the same zod
// validation, one durable transaction per callback (SELECT … FOR UPDATE, INSERT, UPDATE, COMMIT with the
// server's default synchronous_commit=on). Seeds BENCH_CALLS pending calls into BENCH_DATABASE_URL itself,
// then prints "ready <port>".
import http from "node:http";
import { createHash } from "node:crypto";
import pg from "pg";
import { callbackMessageSchema } from "../../lib/ingest/schemas.ts";

const url = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const calls = Number(process.env.BENCH_CALLS ?? 50_000);
const group = process.env.BENCH_GROUP ?? "bench";
const pool = new pg.Pool({ connectionString: url, max: 16 });

await pool.query(`
  CREATE TABLE IF NOT EXISTS call (id SERIAL PRIMARY KEY, group_id TEXT NOT NULL, call_key TEXT NOT NULL, status TEXT NOT NULL, UNIQUE (group_id, call_key));
  CREATE TABLE IF NOT EXISTS result (id SERIAL PRIMARY KEY, call_id INTEGER NOT NULL UNIQUE REFERENCES call(id), text TEXT NOT NULL, sha256 TEXT NOT NULL, received_at TIMESTAMPTZ NOT NULL);
`);
await pool.query(`INSERT INTO call (group_id, call_key, status) SELECT $1, 'call_' || i, 'pending' FROM generate_series(0, $2 - 1) AS i ON CONFLICT DO NOTHING`, [group, calls]);

function reply(res: http.ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

async function accept(groupId: string, callKey: string, text: string): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const found = await client.query<{ id: number; status: string }>("SELECT id, status FROM call WHERE group_id = $1 AND call_key = $2 FOR UPDATE", [groupId, callKey]);
    const call = found.rows[0];
    if (!call) {
      await client.query("ROLLBACK");
      return 404;
    }
    if (call.status !== "pending") {
      await client.query("ROLLBACK");
      return 409;
    }
    await client.query("INSERT INTO result (call_id, text, sha256, received_at) VALUES ($1, $2, $3, now())", [call.id, text, createHash("sha256").update(text).digest("hex")]);
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

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    let value: unknown;
    try {
      value = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return reply(res, 400, { error: "malformed" });
    }
    const parsed = callbackMessageSchema.safeParse(value);
    if (!parsed.success) return reply(res, 422, { error: "invalid" });
    accept(parsed.data.group_id, parsed.data.id, parsed.data.text).then(
      (status) => reply(res, status, status === 200 ? { status: "accepted" } : { error: status }),
      () => reply(res, 503, { error: "unavailable" }),
    );
  });
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const address = server.address();
  console.log(`ready ${typeof address === "object" && address ? address.port : 0}`);
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => server.close(() => void pool.end().then(() => process.exit(0))));
