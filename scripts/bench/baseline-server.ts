// The ingestion benchmark's baseline: the bare limit for one durable commit per callback on this machine —
// plain node:http + better-sqlite3 (WAL, synchronous=FULL), the same zod validation, no framework, no ORM.
// Seeds BENCH_CALLS pending calls itself, then prints "ready <port>".
import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import { serveBaseline } from "./baseline-http.ts";

const file = process.env.BENCH_DB ?? "/tmp/toolscope-baseline.db";
const calls = Number(process.env.BENCH_CALLS ?? 50_000);
const group = process.env.BENCH_GROUP ?? "bench";
const warmupGroup = process.env.BENCH_WARMUP_GROUP ?? "warmup";
const warmupCalls = Number(process.env.BENCH_WARMUP_CALLS ?? 0);
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
  // The benchmark's warm-up load goes to calls of its own group.
  for (let i = 0; i < warmupCalls; i++) seed.run(warmupGroup, `call_${i}`);
})();

const findCall = db.prepare("SELECT id, status FROM call WHERE group_id = ? AND call_key = ?");
const insertResult = db.prepare("INSERT INTO result (call_id, text, sha256, received_at) VALUES (?, ?, ?, ?)");
const complete = db.prepare("UPDATE call SET status = 'completed' WHERE id = ?");
const accept = db.transaction((callId: number, text: string) => {
  insertResult.run(callId, text, createHash("sha256").update(text).digest("hex"), new Date().toISOString());
  complete.run(callId);
});

serveBaseline((groupId, callKey, text) => {
  const call = findCall.get(groupId, callKey) as { id: number; status: string } | undefined;
  if (!call) return 404;
  if (call.status !== "pending") return 409;
  accept(call.id, text);
  return 200;
});
