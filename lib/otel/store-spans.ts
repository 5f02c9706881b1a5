// Storing OTLP spans: spans first (deduplicated by trace and span id), then every trace that gained a span
// is mapped again from all its stored spans, together with the traces after it in its thread, and the rows
// it owns are reconciled with what the mapping says (plan-traces.ts, write-threads.ts) — in one
// transaction, so a sender is answered only after spans and threads are both durable, and a re-sent batch
// changes nothing. Several export requests can share the transaction (span-writer.ts: group commit).
//
// Timeline rows are ordered by id and live views poll "after id N", so rows are never renumbered needlessly:
// the longest unchanged prefix of a thread's OTel rows is kept, and only the rest is deleted and written again
// in the right order. Spans arriving in order (the usual case: exporters send spans as they end) only append.
import "server-only";
import { hash } from "node:crypto";
import type { DriverConnection } from "../db/driver.ts";
import type { Provider } from "../db/database-url.ts";
import { storableText } from "../results/text-codec.ts";
import { mapTrace } from "./map-trace.ts";
import { sortableNanos, type OtelSpan, type ReceivedSpan, type SpanOrigin } from "./otlp-types.ts";
import {
  candidateCallKeys,
  ownedKeys,
  planThreads,
  planTraces,
  type ThreadWork,
  type TraceWarning,
} from "./plan-traces.ts";
import { findCalls, insertNewSpans, insertScopes, type ExistingCall, type SpanRow } from "./repository.ts";
import { writeThreads, type MappedTrace } from "./write-threads.ts";

/** One export request's spans and when it arrived. */
export type SpanBatch = { spans: ReceivedSpan[]; receivedAt: Date };

export type StoreOutcome = { stored: number; duplicates: number; traces: number; warnings: TraceWarning[] };

function sha256(text: string): string {
  return hash("sha256", text, "hex");
}

type ScopeRow = { sha256: string; json: string; receivedAt: Date };

/** A request's rows, built before it queues for a transaction: one scope row per resource + scope, one row per span. */
export type PreparedSpans = {
  scopes: ScopeRow[];
  entries: { row: SpanRow; span: OtelSpan }[];
  duplicates: number;
  at: Date;
};

export function prepareSpans(received: ReceivedSpan[], receivedAt: Date): PreparedSpans {
  const scopeShas = new Map<SpanOrigin, string>();
  const scopes = new Map<string, ScopeRow>();
  const seen = new Set<string>();
  const entries: PreparedSpans["entries"] = [];
  for (const { span, origin } of received) {
    const key = `${span.traceId}:${span.spanId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    let scopeSha256 = scopeShas.get(origin);
    if (scopeSha256 === undefined) {
      const json = JSON.stringify(origin);
      scopeSha256 = sha256(json);
      scopeShas.set(origin, scopeSha256);
      scopes.set(scopeSha256, { sha256: scopeSha256, json, receivedAt });
    }
    const row: SpanRow = {
      traceId: span.traceId,
      spanId: span.spanId,
      parentSpanId: span.parentSpanId,
      // The name column is for lists; spanJson keeps the name exactly. NUL spelled out, alike on both databases.
      name: storableText(span.name.slice(0, 1000)),
      startNs: sortableNanos(span.startNs),
      endNs: sortableNanos(span.endNs),
      statusCode: span.status.code,
      scopeSha256,
      spanJson: JSON.stringify(span),
      receivedAt,
    };
    entries.push({ row, span });
  }
  return { scopes: [...scopes.values()], entries, duplicates: received.length - entries.length, at: receivedAt };
}

/** Several requests' rows as one batch: a span sent by more than one of them is stored once. */
export function mergePrepared(batches: PreparedSpans[]): PreparedSpans {
  if (batches.length === 1 && batches[0]) return batches[0];
  const scopes = new Map<string, ScopeRow>();
  const seen = new Set<string>();
  const merged: PreparedSpans = { scopes: [], entries: [], duplicates: 0, at: new Date(0) };
  for (const batch of batches) {
    for (const scope of batch.scopes) if (!scopes.has(scope.sha256)) scopes.set(scope.sha256, scope);
    for (const entry of batch.entries) {
      const key = `${entry.row.traceId}:${entry.row.spanId}`;
      if (seen.has(key)) merged.duplicates += 1;
      else merged.entries.push(entry);
      seen.add(key);
    }
    merged.duplicates += batch.duplicates;
    if (batch.at > merged.at) merged.at = batch.at;
  }
  merged.scopes = [...scopes.values()];
  return merged;
}

/** Stores the batches' spans and re-maps the traces they touched, inside `tx`. */
export async function storeSpans(
  tx: DriverConnection,
  provider: Provider,
  prepared: PreparedSpans,
): Promise<StoreOutcome> {
  const warnings: TraceWarning[] = [];
  await insertScopes(tx, prepared.scopes);
  const newKeys = await insertNewSpans(
    tx,
    provider,
    prepared.entries.map((entry) => entry.row),
  );
  const byTrace = new Map<string, OtelSpan[]>();
  for (const { span } of prepared.entries) {
    const spans = byTrace.get(span.traceId);
    if (spans) spans.push(span);
    else byTrace.set(span.traceId, [span]);
  }
  const touched = [...new Set([...newKeys].map((key) => key.slice(0, key.indexOf(":"))))];
  if (touched.length > 0) await remapTraces(tx, provider, touched, byTrace, prepared.at, warnings);
  return {
    stored: newKeys.size,
    duplicates: prepared.duplicates + prepared.entries.length - newKeys.size,
    traces: touched.length,
    warnings,
  };
}

async function remapTraces(
  tx: DriverConnection,
  provider: Provider,
  touched: string[],
  fresh: Map<string, OtelSpan[]>,
  at: Date,
  warnings: TraceWarning[],
): Promise<void> {
  const plans = await planTraces(tx, provider, touched, fresh, warnings);
  const threads = await planThreads(tx, provider, plans);
  const existingCalls = await findCalls(
    tx,
    provider,
    threads.flatMap((thread) => candidateCallKeys(thread).map((key): [string, string] => [thread.groupId, key])),
  );
  const callsByGroup = new Map<string, Map<string, ExistingCall>>();
  for (const call of existingCalls) {
    const group = callsByGroup.get(call.groupId) ?? new Map<string, ExistingCall>();
    group.set(call.callKey, call);
    callsByGroup.set(call.groupId, group);
  }
  const mapped = threads.map((thread) => ({
    thread,
    traces: mapThread(thread, callsByGroup.get(thread.groupId) ?? new Map()),
  }));
  await writeThreads(tx, provider, mapped, callsByGroup, at);
}

/** Maps a thread's changed traces in order, each continuing the conversation and steps of the one before. */
function mapThread(thread: ThreadWork, existing: Map<string, ExistingCall>): MappedTrace[] {
  const owned = ownedKeys(thread);
  const claimed = new Set([...existing.keys()].filter((key) => !owned.has(key)));
  const open = new Set([...claimed].filter((key) => existing.get(key)?.resultId === null));
  let conversation = thread.previous?.conversation ?? [];
  let lastStep = thread.previous?.lastStep ?? null;
  return thread.traces.map((plan) => {
    const mapping = mapTrace(plan.traceId, plan.spans, {
      conversation,
      lastStep,
      claimedCallKeys: new Set(claimed),
      openCallKeys: new Set(open),
    });
    for (const call of mapping.calls) {
      claimed.add(call.callKey);
      if (call.result === null && !call.adopted) open.add(call.callKey);
      else open.delete(call.callKey);
    }
    conversation = mapping.conversation;
    lastStep = mapping.lastStep;
    return { plan, mapping };
  });
}
