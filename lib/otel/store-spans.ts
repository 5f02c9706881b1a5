// Storing an OTLP batch: spans first (deduplicated by trace and span id), then every trace that gained a span
// is mapped again from all its stored spans, together with the traces after it in its thread, and the rows
// it owns are reconciled with what the mapping says — in one transaction, so a sender is answered only after
// spans and threads are both durable, and a re-sent batch changes nothing.
//
// Timeline rows are ordered by id and live views poll "after id N", so rows are never renumbered needlessly:
// the longest unchanged prefix of a thread's OTel rows is kept, and only the rest is deleted and written again
// in the right order. Spans arriving in order (the usual case: exporters send spans as they end) only append.
import "server-only";
import { createHash } from "node:crypto";
import { getDatabase, type Database, type ModelClient } from "../db/client.ts";
import { ID_MAX } from "../ingest/schemas.ts";
import { isStorableAsIs } from "../results/text-codec.ts";
import { mapTrace, type MappedCall, type MappedItem, type TraceMapping } from "./map-trace.ts";
import { sortableNanos, type OtelSpan, type ReceivedSpan, type SpanOrigin } from "./otlp-types.ts";
import {
  deleteCalls,
  deleteEmptyThreads,
  deleteEvents,
  deleteResults,
  findCalls,
  findLastTraces,
  findSpansOfTraces,
  findSuffixTraces,
  findThreadIds,
  findTraces,
  insertCalls,
  insertEvents,
  insertNewSpans,
  insertResults,
  insertScopes,
  insertThreads,
  touchThreads,
  updateCall,
  updateResult,
  upsertTraces,
  type ExistingCall,
  type SpanRow,
  type TraceRow,
} from "./repository.ts";
import { analyzedResult, callRow, eventRow, parseTraceState, type TraceState } from "./rows.ts";
import { threadHint } from "./span-views.ts";

export type StoreOutcome = { stored: number; duplicates: number; traces: number; warnings: string[] };

type TracePlan = { traceId: string; spans: OtelSpan[]; groupId: string; threadSource: string; orderKey: string; old: (TraceRow & { state: TraceState }) | null };
type MappedTrace = { plan: TracePlan; mapping: TraceMapping };
type ThreadWork = { groupId: string; window: string; traces: TracePlan[]; previous: TraceState | null; leaving: (TraceRow & { state: TraceState })[] };

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The thread a trace belongs to: the strongest conversation hint on any of its spans, else the trace id. */
function threadOf(traceId: string, spans: OtelSpan[], warnings: string[]): { groupId: string; source: string } {
  let best: { groupId: string; source: string; rank: number; start: string } | null = null;
  for (const span of spans) {
    const hint = threadHint(span);
    if (hint === null) continue;
    const start = sortableNanos(span.startNs);
    if (best === null || hint.rank < best.rank || (hint.rank === best.rank && start < best.start)) best = { ...hint, start };
  }
  if (best === null) return { groupId: traceId, source: "trace_id" };
  if (best.groupId.length > ID_MAX || !isStorableAsIs(best.groupId)) {
    warnings.push(`trace ${traceId}: ${best.source} is not a storable thread id (over ${ID_MAX} characters, NUL or unpaired surrogates); the trace id names its thread`);
    return { groupId: traceId, source: "trace_id" };
  }
  return { groupId: best.groupId, source: best.source };
}

function orderKeyOf(traceId: string, spans: OtelSpan[]): string {
  let start: string | null = null;
  for (const span of spans) {
    const key = sortableNanos(span.startNs);
    if (start === null || key < start) start = key;
  }
  return `${start ?? sortableNanos("0")}:${traceId}`;
}

function parseSpans(rows: { traceId: string; spanJson: string }[]): Map<string, OtelSpan[]> {
  const byTrace = new Map<string, OtelSpan[]>();
  for (const row of rows) {
    const span: OtelSpan = JSON.parse(row.spanJson);
    byTrace.set(row.traceId, [...(byTrace.get(row.traceId) ?? []), span]);
  }
  return byTrace;
}

/** Rows to insert, outside the transaction: one scope row per distinct resource + scope, one span row each. */
function prepare(received: ReceivedSpan[], receivedAt: Date) {
  const scopeShas = new Map<SpanOrigin, string>();
  const scopes = new Map<string, { sha256: string; json: string; receivedAt: Date }>();
  const spans = new Map<string, SpanRow>();
  const byTrace = new Map<string, OtelSpan[]>();
  let duplicates = 0;
  for (const { span, origin } of received) {
    const key = `${span.traceId}:${span.spanId}`;
    if (spans.has(key)) {
      duplicates += 1;
      continue;
    }
    let scopeSha256 = scopeShas.get(origin);
    if (scopeSha256 === undefined) {
      const json = JSON.stringify(origin);
      scopeSha256 = sha256(json);
      scopeShas.set(origin, scopeSha256);
      scopes.set(scopeSha256, { sha256: scopeSha256, json, receivedAt });
    }
    spans.set(key, {
      traceId: span.traceId,
      spanId: span.spanId,
      parentSpanId: span.parentSpanId,
      name: span.name.slice(0, 1000),
      startNs: sortableNanos(span.startNs),
      endNs: sortableNanos(span.endNs),
      statusCode: span.status.code,
      scopeSha256,
      spanJson: JSON.stringify(span),
      receivedAt,
    });
    byTrace.set(span.traceId, [...(byTrace.get(span.traceId) ?? []), span]);
  }
  return { scopes: [...scopes.values()], spans: [...spans.values()], byTrace, duplicates };
}

export async function storeSpans(options: { spans: ReceivedSpan[]; database?: Database; receivedAt?: Date }): Promise<StoreOutcome> {
  const db = options.database ?? (await getDatabase());
  const receivedAt = options.receivedAt ?? new Date();
  const prepared = prepare(options.spans, receivedAt);
  const warnings: string[] = [];
  const { stored, traces } = await db.transaction(
    async (tx) => {
      await insertScopes(tx, prepared.scopes);
      const newKeys = await insertNewSpans(tx, prepared.spans);
      const touched = [...new Set([...newKeys].map((key) => key.slice(0, key.indexOf(":"))))];
      if (touched.length > 0) await remapTraces(tx, touched, prepared.byTrace, receivedAt, warnings);
      return { stored: newKeys.size, traces: touched.length };
    },
    { timeout: 120_000 },
  );
  return { stored, duplicates: prepared.duplicates + prepared.spans.length - stored, traces, warnings };
}

async function planTraces(tx: ModelClient, touched: string[], fresh: Map<string, OtelSpan[]>, warnings: string[]): Promise<TracePlan[]> {
  const oldRows = new Map((await findTraces(tx, touched)).map((row) => [row.traceId, { ...row, state: parseTraceState(row.stateJson) }]));
  // A trace mapped before has spans from earlier requests: map it from all of them.
  const stored = parseSpans(await findSpansOfTraces(tx, touched.filter((traceId) => oldRows.has(traceId))));
  return touched.map((traceId) => {
    const spans = stored.get(traceId) ?? fresh.get(traceId) ?? [];
    const thread = threadOf(traceId, spans, warnings);
    return { traceId, spans, groupId: thread.groupId, threadSource: thread.source, orderKey: orderKeyOf(traceId, spans), old: oldRows.get(traceId) ?? null };
  });
}

/** Which threads change, and from where on (the earliest old or new position of a trace that changed). */
async function planThreads(tx: ModelClient, plans: TracePlan[]): Promise<ThreadWork[]> {
  const work = new Map<string, ThreadWork>();
  const threadFor = (groupId: string, key: string) => {
    const existing = work.get(groupId);
    if (existing) {
      if (key < existing.window) existing.window = key;
      return existing;
    }
    const created: ThreadWork = { groupId, window: key, traces: [], previous: null, leaving: [] };
    work.set(groupId, created);
    return created;
  };
  for (const plan of plans) {
    threadFor(plan.groupId, plan.old?.groupId === plan.groupId && plan.old.orderKey < plan.orderKey ? plan.old.orderKey : plan.orderKey);
    if (plan.old && plan.old.groupId !== plan.groupId) threadFor(plan.old.groupId, plan.old.orderKey).leaving.push(plan.old);
  }
  const touchedIds = new Set(plans.map((plan) => plan.traceId));
  const lastByGroup = new Map((await findLastTraces(tx, [...work.keys()])).map((row) => [row.groupId, row]));
  const untouched: TraceRow[] = [];
  for (const thread of work.values()) {
    const last = lastByGroup.get(thread.groupId);
    let suffix: TraceRow[] = [];
    if (last && (last.orderKey >= thread.window || touchedIds.has(last.traceId))) {
      const found = await findSuffixTraces(tx, thread.groupId, thread.window);
      suffix = found.suffix;
      thread.previous = found.previous === null ? null : parseTraceState(found.previous.stateJson);
    } else if (last) {
      thread.previous = parseTraceState(last.stateJson);
    }
    untouched.push(...suffix.filter((row) => !touchedIds.has(row.traceId)));
    thread.traces = plans.filter((plan) => plan.groupId === thread.groupId);
    for (const row of suffix) {
      if (touchedIds.has(row.traceId)) continue;
      thread.traces.push({ traceId: row.traceId, spans: [], groupId: row.groupId, threadSource: "", orderKey: row.orderKey, old: { ...row, state: parseTraceState(row.stateJson) } });
    }
    thread.traces.sort((a, b) => compareKeys(a.orderKey, b.orderKey));
  }
  // Traces after a changed one are mapped again too (their history depends on it): read their spans.
  const spans = parseSpans(await findSpansOfTraces(tx, untouched.map((row) => row.traceId)));
  for (const thread of work.values()) {
    for (const plan of thread.traces) {
      if (plan.spans.length === 0) {
        plan.spans = spans.get(plan.traceId) ?? [];
        plan.threadSource = plan.old?.state.threadSource ?? "";
      }
    }
  }
  return [...work.values()];
}

function jsonString(literal: string | undefined): string | null {
  try {
    const value: unknown = JSON.parse(literal ?? "");
    return typeof value === "string" ? value : null;
  } catch {
    return null;
  }
}

/** Ids a trace's spans mention as tool calls, and the keys it owned: what the thread's existing calls are looked up by. */
function candidateCallKeys(thread: ThreadWork): string[] {
  const keys = new Set<string>();
  for (const plan of [...thread.traces, ...thread.leaving.map((row) => ({ spans: [] as OtelSpan[], old: row }))]) {
    for (const call of plan.old?.state.calls ?? []) keys.add(call.key);
    for (const span of plan.spans) {
      for (const [name, value] of Object.entries(span.attributes)) {
        if ((name === "gen_ai.tool.call.id" || name === "ai.toolCall.id" || name === "tool_call.id") && typeof value === "string") keys.add(value);
        if (typeof value === "string" && (name.endsWith("messages") || name === "ai.response.toolCalls" || name === "ai.prompt.messages")) {
          for (const match of value.matchAll(/"(?:id|toolCallId)"\s*:\s*("(?:[^"\\]|\\.)*")/g)) {
            const id = jsonString(match[1]);
            if (id !== null) keys.add(id);
          }
        }
        if (name.endsWith(".tool_call.id") && typeof value === "string") keys.add(value);
      }
    }
  }
  return [...keys];
}

async function remapTraces(tx: ModelClient, touched: string[], fresh: Map<string, OtelSpan[]>, at: Date, warnings: string[]): Promise<void> {
  const plans = await planTraces(tx, touched, fresh, warnings);
  const threads = await planThreads(tx, plans);
  const existingCalls = await findCalls(
    tx,
    threads.map((thread) => thread.groupId),
    [...new Set(threads.flatMap(candidateCallKeys))],
  );
  const callsByGroup = new Map<string, Map<string, ExistingCall>>();
  for (const call of existingCalls) {
    const group = callsByGroup.get(call.groupId) ?? new Map<string, ExistingCall>();
    group.set(call.callKey, call);
    callsByGroup.set(call.groupId, group);
  }
  const mapped = threads.map((thread) => ({ thread, traces: mapThread(thread, callsByGroup.get(thread.groupId) ?? new Map()) }));
  await writeThreads(tx, mapped, callsByGroup, at);
}

function ownedKeys(thread: ThreadWork): Set<string> {
  const owned = new Set<string>();
  for (const plan of thread.traces) if (plan.old?.groupId === thread.groupId) for (const call of plan.old.state.calls) owned.add(call.key);
  for (const row of thread.leaving) for (const call of row.state.calls) owned.add(call.key);
  return owned;
}

/** Maps a thread's changed traces in order, each continuing the conversation and steps of the one before. */
function mapThread(thread: ThreadWork, existing: Map<string, ExistingCall>): MappedTrace[] {
  const owned = ownedKeys(thread);
  const claimed = new Set([...existing.keys()].filter((key) => !owned.has(key)));
  const open = new Set([...claimed].filter((key) => existing.get(key)?.resultId === null));
  let conversation = thread.previous?.conversation ?? [];
  let lastStep = thread.previous?.lastStep ?? null;
  return thread.traces.map((plan) => {
    const mapping = mapTrace(plan.traceId, plan.spans, { conversation, lastStep, claimedCallKeys: new Set(claimed), openCallKeys: new Set(open) });
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

type ThreadWrite = { thread: ThreadWork; traces: MappedTrace[] };

async function writeThreads(tx: ModelClient, writes: ThreadWrite[], callsByGroup: Map<string, Map<string, ExistingCall>>, at: Date): Promise<void> {
  const groupIds = writes.map((write) => write.thread.groupId);
  const threadIds = await findThreadIds(tx, groupIds);
  const missing = writes.filter((write) => !threadIds.has(write.thread.groupId) && write.traces.some((trace) => trace.mapping.items.length > 0 || trace.mapping.calls.length > 0));
  for (const [groupId, id] of await insertThreads(tx, missing.map((write) => ({ groupId: write.thread.groupId, at: firstTime(write.traces) ?? at })))) threadIds.set(groupId, id);

  const callIds = new Map<string, number>();
  const resultIds = new Map<string, number>();
  await writeCalls(tx, writes, callsByGroup, threadIds, callIds, resultIds);

  const deletions: number[] = [];
  const inserts: { groupId: string; traceId: string; item: MappedItem }[] = [];
  const kept = new Map<string, Map<string, number>>();
  for (const write of writes) {
    const threadId = threadIds.get(write.thread.groupId);
    const current = currentItems(write.thread);
    const desired = write.traces.flatMap(({ plan, mapping }) => mapping.items.map((item) => ({ traceId: plan.traceId, item })));
    let prefix = 0;
    while (prefix < current.length && prefix < desired.length) {
      const was = current[prefix];
      const now = desired[prefix];
      if (!was || !now || was.traceId !== now.traceId || was.key !== now.item.key || was.digest !== now.item.digest) break;
      const traceKept = kept.get(was.traceId) ?? new Map<string, number>();
      traceKept.set(was.key, was.eventId);
      kept.set(was.traceId, traceKept);
      prefix += 1;
    }
    deletions.push(...current.slice(prefix).map((item) => item.eventId));
    if (threadId !== undefined) inserts.push(...desired.slice(prefix).map((entry) => ({ groupId: write.thread.groupId, ...entry })));
  }
  await deleteEvents(tx, deletions);
  const eventIds = await insertEvents(
    tx,
    inserts.map(({ groupId, item }) => {
      const ref = item.callKey === null ? null : JSON.stringify([groupId, item.callKey]);
      return eventRow(item, threadIds.get(groupId) ?? 0, ref === null ? null : (callIds.get(ref) ?? null), item.kind === "tool_result" && ref !== null ? (resultIds.get(ref) ?? null) : null);
    }),
  );
  inserts.forEach(({ traceId, item }, index) => {
    const traceKept = kept.get(traceId) ?? new Map<string, number>();
    traceKept.set(item.key, eventIds[index] ?? 0);
    kept.set(traceId, traceKept);
  });

  await upsertTraces(
    tx,
    writes.flatMap(({ thread, traces }) =>
      traces.map(({ plan, mapping }) => {
        const eventsOf = kept.get(plan.traceId) ?? new Map<string, number>();
        const state: TraceState = {
          items: mapping.items.map((item) => ({ key: item.key, digest: item.digest, eventId: eventsOf.get(item.key) ?? 0 })),
          // Adopted calls belong to the trace that requested them; this one never deletes them.
          calls: mapping.calls.filter((call) => !call.adopted).map((call) => ({ key: call.callKey, digest: call.digest })),
          conversation: mapping.conversation,
          lastStep: mapping.lastStep,
          threadSource: plan.threadSource,
        };
        return { traceId: plan.traceId, groupId: thread.groupId, orderKey: plan.orderKey, stateJson: JSON.stringify(state), updatedAt: at };
      }),
    ),
  );
  const ids = writes.flatMap((write) => threadIds.get(write.thread.groupId) ?? []);
  await touchThreads(tx, ids, at);
  await deleteEmptyThreads(tx, writes.filter((write) => write.thread.leaving.length > 0).flatMap((write) => threadIds.get(write.thread.groupId) ?? []));
}

function firstTime(traces: MappedTrace[]): Date | null {
  let first: Date | null = null;
  for (const { mapping } of traces) for (const item of mapping.items) if (first === null || item.occurredAt < first) first = item.occurredAt;
  return first;
}

/** The thread's stored OTel rows for the traces being re-mapped (and those leaving it), in timeline order. */
function currentItems(thread: ThreadWork): { traceId: string; key: string; digest: string; eventId: number }[] {
  const rows = [...thread.traces.filter((plan) => plan.old?.groupId === thread.groupId).map((plan) => plan.old), ...thread.leaving];
  return rows
    .flatMap((row) => (row === null ? [] : row.state.items.map((item) => ({ traceId: row.traceId, ...item }))))
    .sort((a, b) => a.eventId - b.eventId);
}

async function writeCalls(
  tx: ModelClient,
  writes: ThreadWrite[],
  callsByGroup: Map<string, Map<string, ExistingCall>>,
  threadIds: Map<string, number>,
  callIds: Map<string, number>,
  resultIds: Map<string, number>,
): Promise<void> {
  const inserts: { groupId: string; call: MappedCall }[] = [];
  const removeCalls: number[] = [];
  const removeResults: number[] = [];
  for (const { thread, traces } of writes) {
    const existing = callsByGroup.get(thread.groupId) ?? new Map<string, ExistingCall>();
    const threadId = threadIds.get(thread.groupId);
    const desired = new Set<string>();
    const pending = new Map<string, { groupId: string; call: MappedCall }>();
    for (const { mapping } of traces) {
      for (const call of mapping.calls) {
        const ref = JSON.stringify([thread.groupId, call.callKey]);
        const requested = pending.get(call.callKey);
        if (call.adopted && requested) {
          // Requested by an earlier trace of this batch, executed in this one: one row with both halves.
          requested.call = { ...requested.call, result: call.result, completedAt: call.completedAt, requestedAt: call.requestedAt, spanIds: [...requested.call.spanIds, ...call.spanIds], digest: call.digest };
          continue;
        }
        if (!call.adopted) desired.add(call.callKey);
        const found = existing.get(call.callKey);
        if (!found) {
          const insert = { groupId: thread.groupId, call };
          pending.set(call.callKey, insert);
          inserts.push(insert);
          continue;
        }
        callIds.set(ref, found.id);
        if (found.resultId !== null) resultIds.set(ref, found.resultId);
        if (found.registrationSha256 === call.digest || threadId === undefined) continue;
        const result = analyzedResult(call);
        await updateCall(tx, found.id, callRow(call, threadId, thread.groupId, result?.isError ?? null));
        if (result && found.resultId !== null) await updateResult(tx, found.resultId, { ...result.row, toolCallId: found.id });
        else if (result) for (const [, id] of await insertResults(tx, [{ ...result.row, toolCallId: found.id }])) resultIds.set(ref, id);
        else if (found.resultId !== null) {
          removeResults.push(found.resultId);
          resultIds.delete(ref);
        }
      }
    }
    for (const key of ownedKeys(thread)) {
      const found = existing.get(key);
      if (found && !desired.has(key)) removeCalls.push(found.id);
    }
  }
  await deleteResults(tx, removeResults);
  await deleteCalls(tx, removeCalls);
  const analysed = inserts.map((entry) => ({ ...entry, result: analyzedResult(entry.call) }));
  const created = await insertCalls(
    tx,
    analysed.flatMap(({ groupId, call, result }) => {
      const threadId = threadIds.get(groupId);
      return threadId === undefined ? [] : [callRow(call, threadId, groupId, result?.isError ?? null)];
    }),
  );
  for (const [ref, id] of created) callIds.set(ref, id);
  const results = analysed.flatMap(({ groupId, call, result }) => {
    const id = created.get(JSON.stringify([groupId, call.callKey]));
    return result === null || id === undefined ? [] : [{ ...result.row, toolCallId: id }];
  });
  const byCall = await insertResults(tx, results);
  for (const { groupId, call } of analysed) {
    const ref = JSON.stringify([groupId, call.callKey]);
    const callId = callIds.get(ref);
    const resultId = callId === undefined ? undefined : byCall.get(callId);
    if (resultId !== undefined) resultIds.set(ref, resultId);
  }
}
