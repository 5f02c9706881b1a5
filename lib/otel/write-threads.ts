// Writing a thread's re-mapped traces: calls updated in place by (group id, call key), the longest
// unchanged prefix of the thread's OTel timeline rows kept (ids stable for "after id N" polling) and the rest
// deleted and written again in order, then each trace's state (what it wrote) for the next reconciliation.
import "server-only";
import type { DriverConnection } from "../db/driver.ts";
import type { Provider } from "../db/database-url.ts";
import type { MappedCall, MappedItem, TraceMapping } from "./map-trace.ts";
import { ownedKeys, type ThreadWork, type TracePlan } from "./plan-traces.ts";
import {
  deleteCalls,
  deleteEmptyThreads,
  deleteEvents,
  deleteResults,
  findThreadIds,
  insertCalls,
  insertEvents,
  insertResults,
  insertThreads,
  touchThreads,
  updateCall,
  updateResult,
  upsertTraces,
  type ExistingCall,
} from "./repository.ts";
import { analyzedResult, callRow, eventRow, type TraceState } from "./rows.ts";
import { modelTurnRecord } from "../model-turns/records.ts";
import { insertModelTurns } from "../model-turns/repository.ts";

export type MappedTrace = { plan: TracePlan; mapping: TraceMapping };
export type ThreadWrite = { thread: ThreadWork; traces: MappedTrace[] };

export async function writeThreads(
  tx: DriverConnection,
  provider: Provider,
  writes: ThreadWrite[],
  callsByGroup: Map<string, Map<string, ExistingCall>>,
  at: Date,
): Promise<void> {
  const groupIds = writes.map((write) => write.thread.groupId);
  const threadIds = await findThreadIds(tx, provider, groupIds);
  const missing = writes.filter(
    (write) =>
      !threadIds.has(write.thread.groupId) &&
      write.traces.some((trace) => trace.mapping.items.length > 0 || trace.mapping.calls.length > 0),
  );
  for (const [groupId, id] of await insertThreads(
    tx,
    missing.map((write) => ({ groupId: write.thread.groupId, at: firstTime(write.traces) ?? at })),
  ))
    threadIds.set(groupId, id);

  const callIds = new Map<string, number>();
  const resultIds = new Map<string, number>();
  await writeCalls(tx, provider, writes, callsByGroup, threadIds, callIds, resultIds);

  const deletions: number[] = [];
  const inserts: { groupId: string; traceId: string; item: MappedItem }[] = [];
  const kept = new Map<string, Map<string, number>>();
  for (const write of writes) {
    const threadId = threadIds.get(write.thread.groupId);
    const current = currentItems(write.thread);
    const desired = write.traces.flatMap(({ plan, mapping }) =>
      mapping.items.map((item) => ({ traceId: plan.traceId, item })),
    );
    let prefix = 0;
    while (prefix < current.length && prefix < desired.length) {
      const was = current[prefix];
      const now = desired[prefix];
      if (!was || !now || was.traceId !== now.traceId || was.key !== now.item.key || was.digest !== now.item.digest)
        break;
      const traceKept = kept.get(was.traceId) ?? new Map<string, number>();
      traceKept.set(was.key, was.eventId);
      kept.set(was.traceId, traceKept);
      prefix += 1;
    }
    deletions.push(...current.slice(prefix).map((item) => item.eventId));
    if (threadId !== undefined)
      inserts.push(...desired.slice(prefix).map((entry) => ({ groupId: write.thread.groupId, ...entry })));
  }
  await deleteEvents(tx, deletions);
  const eventIds = await insertEvents(
    tx,
    provider,
    inserts.map(({ groupId, item }) => {
      const ref = item.callKey === null ? null : JSON.stringify([groupId, item.callKey]);
      return eventRow(
        item,
        threadIds.get(groupId) ?? 0,
        ref === null ? null : (callIds.get(ref) ?? null),
        item.kind === "tool_result" && ref !== null ? (resultIds.get(ref) ?? null) : null,
      );
    }),
  );
  inserts.forEach(({ traceId, item }, index) => {
    const traceKept = kept.get(traceId) ?? new Map<string, number>();
    traceKept.set(item.key, eventIds[index] ?? 0);
    kept.set(traceId, traceKept);
  });
  await writeTurns(tx, inserts, eventIds, threadIds);

  await upsertTraces(
    tx,
    provider,
    writes.flatMap(({ thread, traces }) =>
      traces.map(({ plan, mapping }) => {
        const eventsOf = kept.get(plan.traceId) ?? new Map<string, number>();
        const state: TraceState = {
          items: mapping.items.map((item) => ({
            key: item.key,
            digest: item.digest,
            eventId: eventsOf.get(item.key) ?? 0,
          })),
          // Adopted calls belong to the trace that requested them; this one never deletes them.
          calls: mapping.calls
            .filter((call) => !call.adopted)
            .map((call) => ({ key: call.callKey, digest: call.digest })),
          conversation: mapping.conversation,
          lastStep: mapping.lastStep,
          threadSource: plan.threadSource,
        };
        return {
          traceId: plan.traceId,
          groupId: thread.groupId,
          orderKey: plan.orderKey,
          stateJson: JSON.stringify(state),
          updatedAt: at,
        };
      }),
    ),
  );
  const ids = writes.flatMap((write) => threadIds.get(write.thread.groupId) ?? []);
  await touchThreads(tx, ids, at);
  await deleteEmptyThreads(
    tx,
    writes
      .filter((write) => write.thread.leaving.length > 0)
      .flatMap((write) => threadIds.get(write.thread.groupId) ?? []),
  );
}

function firstTime(traces: MappedTrace[]): Date | null {
  let first: Date | null = null;
  for (const { mapping } of traces)
    for (const item of mapping.items) if (first === null || item.occurredAt < first) first = item.occurredAt;
  return first;
}

/** The thread's stored OTel rows for the traces being re-mapped (and those leaving it), in timeline order. */
function currentItems(thread: ThreadWork): { traceId: string; key: string; digest: string; eventId: number }[] {
  const rows = [
    ...thread.traces.filter((plan) => plan.old?.groupId === thread.groupId).map((plan) => plan.old),
    ...thread.leaving,
  ];
  return rows
    .flatMap((row) => (row === null ? [] : row.state.items.map((item) => ({ traceId: row.traceId, ...item }))))
    .sort((a, b) => a.eventId - b.eventId);
}

async function writeCalls(
  tx: DriverConnection,
  provider: Provider,
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
          requested.call = {
            ...requested.call,
            result: call.result,
            completedAt: call.completedAt,
            requestedAt: call.requestedAt,
            spanIds: [...requested.call.spanIds, ...call.spanIds],
            digest: call.digest,
          };
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
        await updateCall(tx, found.id, callRow(call, threadId, thread.groupId, result?.row ?? null));
        if (result && found.resultId !== null)
          await updateResult(tx, found.resultId, { ...result.row, toolCallId: found.id });
        else if (result)
          for (const [, id] of await insertResults(tx, provider, [{ ...result.row, toolCallId: found.id }]))
            resultIds.set(ref, id);
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
    provider,
    analysed.flatMap(({ groupId, call, result }) => {
      const threadId = threadIds.get(groupId);
      return threadId === undefined ? [] : [callRow(call, threadId, groupId, result?.row ?? null)];
    }),
  );
  for (const [ref, id] of created) callIds.set(ref, id);
  const results = analysed.flatMap(({ groupId, call, result }) => {
    const id = created.get(JSON.stringify([groupId, call.callKey]));
    return result === null || id === undefined ? [] : [{ ...result.row, toolCallId: id }];
  });
  const byCall = await insertResults(tx, provider, results);
  for (const { groupId, call } of analysed) {
    const ref = JSON.stringify([groupId, call.callKey]);
    const callId = callIds.get(ref);
    const resultId = callId === undefined ? undefined : byCall.get(callId);
    if (resultId !== undefined) resultIds.set(ref, resultId);
  }
}

/**
 * A model turn's figures go to the one model-turn store, tied to its row: a kept row keeps its turn, a deleted
 * row takes its turn with it (ModelTurn.eventId cascades).
 */
async function writeTurns(
  tx: DriverConnection,
  inserts: { groupId: string; item: MappedItem }[],
  eventIds: number[],
  threadIds: Map<string, number>,
): Promise<void> {
  await insertModelTurns(
    tx,
    inserts.flatMap(({ groupId, item }, index) => {
      const threadId = threadIds.get(groupId);
      const eventId = eventIds[index];
      if (!item.turn || threadId === undefined || eventId === undefined) return [];
      return [
        modelTurnRecord({
          threadId,
          eventId,
          source: "otel",
          ordinal: item.step ?? 0,
          figures: item.turn.figures,
          startedAt: item.turn.startedAt,
          finishedAt: item.turn.finishedAt,
          durationMs: item.turn.durationMs,
        }),
      ];
    }),
  );
}
