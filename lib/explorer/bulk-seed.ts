// Fast synthetic data for scale tests and benchmarks (npm run seed:bulk, npm run bench:explorer, the insights
// regression test): threads, calls, their tool_call / tool_result events, one result and one delivery per finished
// call, written by set-based INSERT … SELECT over a generated series, so a million results take about a minute.
// Rows go through the real triggers (explorer columns, full-text index); texts are real envelopes whose stored
// analysis is what ingestion would have written for them. Not used by the product at run time.
import "server-only";
import { analyzeResult } from "../results/analyze.ts";
import { summarizeAnalysis } from "../ingest/result-columns.ts";
import type { Database } from "../db/client.ts";

export const BULK_TOOLS = [
  "search_docs",
  "deploy",
  "get_weather",
  "read_file",
  "run_sql",
  "send_email",
  "create_ticket",
  "fetch_url",
] as const;
export const BULK_VENDORS = ["anthropic", "openai-chat", "gemini"] as const;
/** Words the result texts carry: `word_<i % 997>` and `order_<i>` make rare and unique search terms. */
export const BULK_WORD_MODULUS = 997;

export type BulkSeedOptions = {
  /** Calls to write (one result each, except the ~2% left pending or timed out). */
  calls: number;
  callsPerThread: number;
  /** Prefix of group ids, so several seeds can share one database. */
  prefix: string;
  /** The first call's request time; each next call is 1 s later. */
  start: Date;
  /** Rows per statement (one transaction each). */
  chunk?: number;
  onProgress?: (done: number) => void;
};

// i is the call's number in the seed (0-based). Portable SQL fragments over i (integer arithmetic, CASE, ||).
const tool = `CASE i % 8 ${BULK_TOOLS.map((name, k) => `WHEN ${k} THEN '${name}'`).join(" ")} END`;
const vendor = `CASE i % 3 ${BULK_VENDORS.map((name, k) => `WHEN ${k} THEN '${name}'`).join(" ")} END`;
// status: i % 100 = 0..2 errored, 3 timed_out, 4 pending, else completed.
const status = `CASE WHEN i % 100 < 3 THEN 'errored' WHEN i % 100 = 3 THEN 'timed_out' WHEN i % 100 = 4 THEN 'pending' ELSE 'completed' END`;
const finished = `(i % 100 < 3 OR i % 100 > 4)`;
const failed = `(i % 100 < 3)`;
const latency = `((i * 7919) % 6000)`;
// Confidence spread over 0..1 in hundredths; the failures have 0.
const confidence = `(CASE WHEN ${failed} THEN 0 ELSE ((i * 37) % 101) / 100.0 END)`;
const nextAction = `CASE WHEN ${failed} THEN 'retry' WHEN ((i * 37) % 101) < 50 THEN 'ask_user' WHEN i % 50 = 7 THEN 'human_review' ELSE 'continue' END`;
const errorType = `CASE i % 3 WHEN 0 THEN 'timeout' WHEN 1 THEN 'permission_denied' ELSE 'rate_limited' END`;

function num(expr: string, provider: Database["provider"]): string {
  return provider === "postgresql" ? `CAST(${expr} AS TEXT)` : `CAST(${expr} AS TEXT)`;
}

function timeAt(provider: Database["provider"], startMs: number, offsetMsExpr: string): string {
  return provider === "postgresql"
    ? `(to_timestamp((${startMs} + ${offsetMsExpr}) / 1000.0) AT TIME ZONE 'UTC')`
    : `strftime('%Y-%m-%dT%H:%M:%f+00:00', (${startMs} + ${offsetMsExpr}) / 1000.0, 'unixepoch')`;
}

function series(provider: Database["provider"], from: number, to: number): string {
  return provider === "postgresql"
    ? `(SELECT generate_series(${from}, ${to - 1})::bigint AS i) s`
    : `(WITH RECURSIVE g(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM g WHERE i < ${to - 1}) SELECT i FROM g) s`;
}

function resultText(provider: Database["provider"]): string {
  const c = num(confidence, provider);
  const ok = `'{"success":true,"data":{"order":"order_' || ${num("i", provider)} || '","note":"word_' || ${num(`i % ${BULK_WORD_MODULUS}`, provider)} || ' found"},"confidence":' || ${c} || ',"source":[{"type":"database","id":"orders"}],"nextAction":"' || ${nextAction} || '","error":null,"meta":{"toolName":"bulk","toolVersion":"1","traceId":"t' || ${num("i", provider)} || '","durationMs":' || ${num(latency, provider)} || ',"cached":false}}'`;
  const bad = `'{"success":false,"data":null,"confidence":0,"source":[],"nextAction":"retry","error":{"type":"' || ${errorType} || '","message":"upstream said no for order_' || ${num("i", provider)} || '","retryable":true},"meta":{"toolName":"bulk","toolVersion":"1","traceId":"t' || ${num("i", provider)} || '","durationMs":' || ${num(latency, provider)} || ',"cached":false}}'`;
  return `CASE WHEN ${failed} THEN ${bad} ELSE ${ok} END`;
}

function analysisJson(): { ok: string; bad: string } {
  const summary = (text: string) =>
    JSON.stringify(summarizeAnalysis(analyzeResult({ text, displayAs: null, outputSchema: null })));
  const meta = { toolName: "bulk", toolVersion: "1", traceId: "t", durationMs: 1, cached: false };
  return {
    ok: summary(
      JSON.stringify({
        success: true,
        data: {},
        confidence: 0.9,
        source: [{ type: "database", id: "orders" }],
        nextAction: "continue",
        error: null,
        meta,
      }),
    ),
    bad: summary(
      JSON.stringify({
        success: false,
        data: null,
        confidence: 0,
        source: [],
        nextAction: "retry",
        error: { type: "timeout", message: "m", retryable: true },
        meta,
      }),
    ),
  };
}

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

async function seedChunk(
  database: Database,
  options: BulkSeedOptions,
  from: number,
  to: number,
  analysis: { ok: string; bad: string },
): Promise<void> {
  const p = database.provider;
  const per = options.callsPerThread;
  const startMs = options.start.getTime();
  const prefix = quote(options.prefix);
  const requested = timeAt(p, startMs, "i * 1000");
  const received = timeAt(p, startMs, `i * 1000 + ${latency}`);
  await database.transaction(
    async (tx) => {
      // Threads whose first call falls in this chunk.
      await tx.$executeRawUnsafe(`INSERT INTO "Thread" ("groupId", "title", "vendor", "createdAt", "lastActivityAt")
      SELECT ${prefix} || '_' || ${num(`i / ${per}`, p)}, 'bulk thread ' || ${num(`i / ${per}`, p)}, ${vendor}, ${requested}, ${timeAt(p, startMs, `(i + ${per}) * 1000`)}
      FROM ${series(p, from, to)} WHERE i % ${per} = 0`);
      if (p === "postgresql") await tx.$executeRawUnsafe(`ANALYZE "Thread"`);
      await tx.$executeRawUnsafe(`INSERT INTO "ToolCall" ("threadId", "groupId", "callKey", "callId", "toolName", "argumentsText", "argumentsJson", "vendor", "step", "status",
        "requestedAt", "completedAt", "deadlineAt", "timedOutAt", "resultCount", "lastResultAt", "registrationSha256")
      SELECT t."id", t."groupId", 'call_' || ${num("i", p)}, 'toolu_' || ${num("i", p)}, ${tool},
        '{"query":"word_' || ${num(`(i * 13) % ${BULK_WORD_MODULUS}`, p)} || ' order_' || ${num("i", p)} || '"}', NULL, ${vendor}, i % ${per}, ${status},
        ${requested}, CASE WHEN ${finished} THEN ${received} END, ${timeAt(p, startMs, "i * 1000 + 30000")},
        CASE WHEN i % 100 = 3 THEN ${timeAt(p, startMs, "i * 1000 + 30000")} END, CASE WHEN ${finished} THEN 1 ELSE 0 END,
        CASE WHEN ${finished} THEN ${received} END, 'bulk'
      FROM ${series(p, from, to)} JOIN "Thread" t ON t."groupId" = ${prefix} || '_' || ${num(`i / ${per}`, p)}`);
      // PostgreSQL plans the joins below from statistics; without fresh ones it nested-loops over a seq scan.
      if (p === "postgresql") await tx.$executeRawUnsafe(`ANALYZE "ToolCall"`);
      const callOf = `JOIN "ToolCall" c ON c."groupId" = ${prefix} || '_' || ${num(`i / ${per}`, p)} AND c."callKey" = 'call_' || ${num("i", p)}`;
      await tx.$executeRawUnsafe(`INSERT INTO "Event" ("threadId", "kind", "toolCallId", "step", "source", "occurredAt")
      SELECT c."threadId", 'tool_call', c."id", c."step", 'runtime', c."requestedAt" FROM ${series(p, from, to)} ${callOf}`);
      await tx.$executeRawUnsafe(`INSERT INTO "ToolResult" ("toolCallId", "ordinal", "text", "textSha256", "textBytes", "contentSha256", "displayKind", "receivedAt",
        "isError", "errorSource", "envelopeKind", "success", "confidence", "nextAction", "errorType", "errorMessage", "errorRetryable",
        "metaToolName", "metaToolVersion", "metaTraceId", "metaDurationMs", "metaCached", "analysisJson")
      SELECT c."id", 0, txt, 'bulk', length(txt), 'bulk_' || ${num("i", p)}, 'raw', ${received},
        ${failed}, CASE WHEN ${failed} THEN 'envelope' END, 'valid', NOT ${failed}, ${confidence}, ${nextAction},
        CASE WHEN ${failed} THEN ${errorType} END, CASE WHEN ${failed} THEN 'upstream said no' END, CASE WHEN ${failed} THEN TRUE END,
        'bulk', '1', 't' || ${num("i", p)}, ${latency}, FALSE, CASE WHEN ${failed} THEN ${quote(analysis.bad)} ELSE ${quote(analysis.ok)} END
      FROM (SELECT i, ${resultText(p)} AS txt FROM ${series(p, from, to)} WHERE ${finished}) s ${callOf}`);
      if (p === "postgresql") await tx.$executeRawUnsafe(`ANALYZE "ToolResult"`);
      const resultOf = `${callOf} JOIN "ToolResult" r ON r."toolCallId" = c."id" AND r."ordinal" = 0`;
      await tx.$executeRawUnsafe(`INSERT INTO "Event" ("threadId", "kind", "toolCallId", "resultId", "source", "occurredAt")
      SELECT c."threadId", 'tool_result', c."id", r."id", 'callback', r."receivedAt" FROM ${series(p, from, to)} ${resultOf} WHERE ${finished}`);
      await tx.$executeRawUnsafe(`INSERT INTO "Delivery" ("receivedAt", "outcome", "httpStatus", "groupId", "callKey", "toolCallId", "resultId", "contentType", "bodyBytes")
      SELECT r."receivedAt", 'accepted', 200, c."groupId", c."callKey", c."id", r."id", 'application/json', r."textBytes" + 80
      FROM ${series(p, from, to)} ${resultOf} WHERE ${finished}`);
    },
    { timeout: 600_000 },
  );
}

/** Writes `options.calls` calls (and their threads, events, results, deliveries). */
export async function seedBulk(database: Database, options: BulkSeedOptions): Promise<void> {
  const chunk = Math.max(
    options.callsPerThread,
    Math.floor((options.chunk ?? 50_000) / options.callsPerThread) * options.callsPerThread,
  );
  const analysis = analysisJson();
  for (let from = 0; from < options.calls; from += chunk) {
    await seedChunk(database, options, from, Math.min(options.calls, from + chunk), analysis);
    options.onProgress?.(Math.min(options.calls, from + chunk));
  }
}
