// The ingestion benchmark's baseline: the bare limit for one durable commit per callback on this machine —
// plain node:http + better-sqlite3 (WAL, synchronous=FULL), the same zod validation, no framework, no ORM.
// Seeds BENCH_CALLS pending calls itself, then prints "ready <port>".
import http from "node:http";
import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import { callbackMessageSchema } from "../../lib/ingest/schemas.ts";

const file = process.env.BENCH_DB ?? "/tmp/toolscope-baseline.db";
const calls = Number(process.env.BENCH_CALLS ?? 50_000);
const group = process.env.BENCH_GROUP ?? "bench";
const db = new Database(file);
db.pragma("journal_mode = WAL");
db.pragma("synchronous = FULL");
db.exec(`
  CREATE TABLE IF NOT EXISTS call (id INTEGER PRIMARY KEY, group_id TEXT NOT NULL, call_key TEXT NOT NULL, status TEXT NOT NULL, UNIQUE (group_id, call_key));
  CREATE TABLE IF NOT EXISTS result (id INTEGER PRIMARY KEY, call_id INTEGER NOT NULL UNIQUE, text TEXT NOT NULL, sha256 TEXT NOT NULL, received_at TEXT NOT NULL);
`);
const seed = db.prepare("INSERT OR IGNORE INTO call (group_id, call_key, status) VALUES (?, ?, 'pending')");
db.transaction(() => {
  for (let i = 0; i < calls; i++) seed.run(group, `call_${i}`);
})();

const findCall = db.prepare("SELECT id, status FROM call WHERE group_id = ? AND call_key = ?");
const insertResult = db.prepare("INSERT INTO result (call_id, text, sha256, received_at) VALUES (?, ?, ?, ?)");
const complete = db.prepare("UPDATE call SET status = 'completed' WHERE id = ?");
const accept = db.transaction((callId: number, text: string) => {
  insertResult.run(callId, text, createHash("sha256").update(text).digest("hex"), new Date().toISOString());
  complete.run(callId);
});

function reply(res: http.ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
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
    const call = findCall.get(parsed.data.group_id, parsed.data.id) as { id: number; status: string } | undefined;
    if (!call) return reply(res, 404, { error: "unknown_call" });
    if (call.status !== "pending") return reply(res, 409, { error: "conflict" });
    accept(call.id, parsed.data.text);
    reply(res, 200, { status: "accepted" });
  });
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const address = server.address();
  console.log(`ready ${typeof address === "object" && address ? address.port : 0}`);
});
