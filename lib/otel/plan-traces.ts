// Which traces a batch changes and what must be mapped again: each touched trace's thread and order key
// (from all its stored spans), and per thread the window from the earliest changed position on — the
// touched traces, the later traces of the thread (their history depends on the earlier ones) and those
// leaving it — with the conversation state of the trace just before the window.
import "server-only";
import type { DriverConnection } from "../db/driver.ts";
import type { Provider } from "../db/database-url.ts";
import { identifierProblem, isDotSegment } from "../ingest/schemas.ts";
import { sortableNanos, type OtelSpan } from "./otlp-types.ts";
import { findLastTraces, findSpansOfTraces, findSuffixTraces, findTraces, type TraceRow } from "./repository.ts";
import { parseTraceState, type TraceState } from "./rows.ts";
import { isToolSpan, threadHint } from "./span-views.ts";

/** A note for the sender about one trace (returned as partial_success to the request that carried it). */
export type TraceWarning = { traceId: string; message: string };

export type TracePlan = {
  traceId: string;
  spans: OtelSpan[];
  groupId: string;
  threadSource: string;
  orderKey: string;
  old: (TraceRow & { state: TraceState }) | null;
};
export type ThreadWork = {
  groupId: string;
  window: string;
  traces: TracePlan[];
  previous: TraceState | null;
  leaving: (TraceRow & { state: TraceState })[];
};

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The thread a trace belongs to: the strongest conversation hint on any of its spans, else the trace id. */
function threadOf(traceId: string, spans: OtelSpan[], warnings: TraceWarning[]): { groupId: string; source: string } {
  let best: { groupId: string; source: string; rank: number; start: string } | null = null;
  for (const span of spans) {
    const hint = threadHint(span);
    if (hint === null) continue;
    const start = sortableNanos(span.startNs);
    if (best === null || hint.rank < best.rank || (hint.rank === best.rank && start < best.start))
      best = { ...hint, start };
  }
  if (best === null) return { groupId: traceId, source: "trace_id" };
  const problem = isDotSegment(best.groupId) ? '"." / ".." (no URL can address it)' : identifierProblem(best.groupId);
  if (problem !== null) {
    warnings.push({
      traceId,
      message: `trace ${traceId}: ${best.source} is not a storable thread id (${problem}); the trace id names its thread`,
    });
    return { groupId: traceId, source: "trace_id" };
  }
  return { groupId: best.groupId, source: best.source };
}

/**
 * A trace's place in its thread: its first start time, then — at equal times (SDKs stamp milliseconds) — a
 * trace of tool executions only after one with model calls (a model requests the tools it calls), then the id.
 */
function orderKeyOf(traceId: string, spans: OtelSpan[]): string {
  let start: string | null = null;
  for (const span of spans) {
    const key = sortableNanos(span.startNs);
    if (start === null || key < start) start = key;
  }
  const toolsOnly = spans.length > 0 && spans.every(isToolSpan);
  return `${start ?? sortableNanos("0")}:${toolsOnly ? 1 : 0}:${traceId}`;
}

function parseSpans(rows: { traceId: string; spanJson: string }[]): Map<string, OtelSpan[]> {
  const byTrace = new Map<string, OtelSpan[]>();
  for (const row of rows) {
    const span: OtelSpan = JSON.parse(row.spanJson);
    const spans = byTrace.get(row.traceId);
    if (spans) spans.push(span);
    else byTrace.set(row.traceId, [span]);
  }
  return byTrace;
}

export async function planTraces(
  tx: DriverConnection,
  provider: Provider,
  touched: string[],
  fresh: Map<string, OtelSpan[]>,
  warnings: TraceWarning[],
): Promise<TracePlan[]> {
  const oldRows = new Map(
    (await findTraces(tx, provider, touched)).map((row) => [
      row.traceId,
      { ...row, state: parseTraceState(row.stateJson) },
    ]),
  );
  // A trace mapped before has spans from earlier requests: map it from all of them.
  const stored = parseSpans(
    await findSpansOfTraces(
      tx,
      provider,
      touched.filter((traceId) => oldRows.has(traceId)),
    ),
  );
  return touched.map((traceId) => {
    const spans = stored.get(traceId) ?? fresh.get(traceId) ?? [];
    const thread = threadOf(traceId, spans, warnings);
    return {
      traceId,
      spans,
      groupId: thread.groupId,
      threadSource: thread.source,
      orderKey: orderKeyOf(traceId, spans),
      old: oldRows.get(traceId) ?? null,
    };
  });
}

/** Which threads change, and from where on (the earliest old or new position of a trace that changed). */
export async function planThreads(tx: DriverConnection, provider: Provider, plans: TracePlan[]): Promise<ThreadWork[]> {
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
    threadFor(
      plan.groupId,
      plan.old?.groupId === plan.groupId && plan.old.orderKey < plan.orderKey ? plan.old.orderKey : plan.orderKey,
    );
    if (plan.old && plan.old.groupId !== plan.groupId)
      threadFor(plan.old.groupId, plan.old.orderKey).leaving.push(plan.old);
  }
  const touchedIds = new Set(plans.map((plan) => plan.traceId));
  const lastByGroup = new Map((await findLastTraces(tx, provider, [...work.keys()])).map((row) => [row.groupId, row]));
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
      thread.traces.push({
        traceId: row.traceId,
        spans: [],
        groupId: row.groupId,
        threadSource: "",
        orderKey: row.orderKey,
        old: { ...row, state: parseTraceState(row.stateJson) },
      });
    }
    thread.traces.sort((a, b) => compareKeys(a.orderKey, b.orderKey));
  }
  // Traces after a changed one are mapped again too (their history depends on it): read their spans.
  const spans = parseSpans(
    await findSpansOfTraces(
      tx,
      provider,
      untouched.map((row) => row.traceId),
    ),
  );
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
export function candidateCallKeys(thread: ThreadWork): string[] {
  const keys = new Set<string>();
  for (const plan of [...thread.traces, ...thread.leaving.map((row) => ({ spans: [] as OtelSpan[], old: row }))]) {
    for (const call of plan.old?.state.calls ?? []) keys.add(call.key);
    for (const span of plan.spans) {
      for (const [name, value] of Object.entries(span.attributes)) {
        if (
          (name === "gen_ai.tool.call.id" || name === "ai.toolCall.id" || name === "tool_call.id") &&
          typeof value === "string"
        )
          keys.add(value);
        if (
          typeof value === "string" &&
          (name.endsWith("messages") || name === "ai.response.toolCalls" || name === "ai.prompt.messages")
        ) {
          for (const match of value.matchAll(/"(?:id|toolCallId)"\s*:\s*("(?:[^"\\]|\\.)*")/g)) {
            const id = jsonString(match[1]);
            if (id !== null) keys.add(id);
          }
        }
        if (name.endsWith(".tool_call.id") && typeof value === "string") keys.add(value);
      }
    }
  }
  // An id no call key can be (NUL, a lone surrogate, kilobytes: map-trace keys such a call by its hash) names no
  // stored call; looked up, PostgreSQL's jsonb refused the whole list (a 503 the exporter retried for ever).
  return [...keys].filter((key) => identifierProblem(key) === null);
}

export function ownedKeys(thread: ThreadWork): Set<string> {
  const owned = new Set<string>();
  for (const plan of thread.traces)
    if (plan.old?.groupId === thread.groupId) for (const call of plan.old.state.calls) owned.add(call.key);
  for (const row of thread.leaving) for (const call of row.state.calls) owned.add(call.key);
  return owned;
}
