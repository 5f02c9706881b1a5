// The alerts sweeper: the conditions that become true with time (a deadline passes, a call or a person keeps
// waiting) or that any way in can cause (a new tool name), and the grouped messages whose cooldown ended. Each
// rule keeps a cursor, so a sweep reads only rows that became due since the last one, by index.
import "server-only";
import { getDatabase, type Database } from "../db/client.ts";
import type { DriverConnection } from "../db/driver.ts";
import { isTransientDatabaseError } from "../db/errors.ts";
import { wakeOutbox } from "../outbox/service.ts";
import { inScope } from "./conditions.ts";
import {
  findDueFlushes,
  fireRule,
  loadEnabledRules,
  recordAlert,
  saveCursor,
  setLastAlert,
  takeHeld,
  type LoadedRule,
} from "./repository.ts";
import { ALERT_EVENTS, SWEPT_EVENTS, type AlertCallRef } from "./schemas.ts";
import {
  findCallsAfter,
  findPendingCalls,
  findTimedOutCalls,
  findWaitingForPerson,
  toolSeenBefore,
  type DueRow,
} from "./sweep-repository.ts";

/** A result committed just before its deadline may still be in flight: deadlines are looked at this much later. */
const GRACE_MS = 1_000;
const LIMIT = 1_000;

/** One sweep; returns how many alerts it sent. */
export async function sweepAlerts(options: { database?: Database; now?: Date } = {}): Promise<number> {
  const db = options.database ?? (await getDatabase());
  const now = options.now ?? new Date();
  const sent = await db.driverTransaction(
    async (tx) => {
      let count = 0;
      for (const rule of await loadEnabledRules(tx, SWEPT_EVENTS, { lock: true }))
        if ((await sweepRule(tx, rule, now)) !== null) count += 1;
      return count + (await flushGrouped(tx, now));
    },
    { ordered: false },
  );
  if (sent > 0) wakeOutbox();
  return sent;
}

const at = (row: DueRow) => row.at.toISOString();
const ref = (row: DueRow, detail: string): AlertCallRef => ({
  groupId: row.groupId,
  callKey: row.callKey,
  toolCallId: row.toolCallId,
  toolName: row.toolName,
  detail,
});

/** What became due for one rule since its cursor; fires it (or counts it into its window) and moves the cursor. */
async function sweepRule(tx: DriverConnection, rule: LoadedRule, now: Date): Promise<number | null> {
  const { when } = rule;
  let calls: AlertCallRef[] = [];
  if (when.event === "new_tool") {
    const rows = await findCallsAfter(tx, { afterId: rule.sweptId ?? 0, limit: LIMIT });
    const firsts = new Map<string, (typeof rows)[number]>();
    for (const row of rows) if (row.toolName !== null && !firsts.has(row.toolName)) firsts.set(row.toolName, row);
    for (const [name, row] of firsts)
      if (inScope(when, row.groupId, name) && !(await toolSeenBefore(tx, name, row.id)))
        calls.push(ref(row, `first call of ${name}`));
    const last = rows[rows.length - 1];
    if (last) await saveCursor(tx, rule.id, { sweptId: last.id });
  } else {
    const threshold =
      when.event === "call_timed_out"
        ? GRACE_MS
        : when.event === "pending_too_long" || when.event === "waiting_for_person"
          ? when.above_ms
          : null;
    // (A result event: never loaded here.)
    if (threshold === null) return null;
    const upTo = new Date(now.getTime() - threshold);
    const after = rule.sweptUntil ?? (when.event === "call_timed_out" ? rule.createdAt : null);
    if (after !== null && after >= upTo) return null;
    const range = { after, upTo, limit: LIMIT };
    const rows =
      when.event === "call_timed_out"
        ? await findTimedOutCalls(tx, range)
        : when.event === "pending_too_long"
          ? await findPendingCalls(tx, range)
          : await findWaitingForPerson(tx, range);
    const label =
      when.event === "call_timed_out"
        ? "deadline passed"
        : when.event === "pending_too_long"
          ? "pending since"
          : "waiting since";
    calls = rows
      .filter((row) => inScope(when, row.groupId, row.toolName))
      .map((row) => ref(row, `${label} ${at(row)}`));
    // A full page: the rest is read from where it stopped, next sweep.
    const last = rows.length >= LIMIT ? rows[rows.length - 1] : undefined;
    await saveCursor(tx, rule.id, { sweptUntil: last ? last.at : upTo });
  }
  return fireRule(tx, rule, { calls, count: calls.length, now });
}

/** Sends the grouped message of every rule whose cooldown window ended with matches counted in it. */
async function flushGrouped(tx: DriverConnection, now: Date): Promise<number> {
  const due = await findDueFlushes(tx, now);
  if (due.length === 0) return 0;
  const rules = new Map((await loadEnabledRules(tx, ALERT_EVENTS)).map((rule) => [rule.id, rule]));
  let sent = 0;
  for (const flush of due) {
    const rule = rules.get(flush.id);
    if (!(await takeHeld(tx, { id: flush.id, flushAt: flush.flushAt, now, cooldownMs: rule?.cooldownMs ?? 0 })))
      continue;
    // A rule switched off or muted meanwhile: its counted matches are dropped with the window.
    if (!rule || (rule.mutedUntil && rule.mutedUntil > now) || flush.heldCount <= 0) continue;
    const calls = parseSample(flush.heldSampleJson);
    const id = await recordAlert(tx, { rule, kind: "grouped", calls, count: flush.heldCount, now });
    await setLastAlert(tx, rule.id, id);
    sent += 1;
  }
  return sent;
}

function parseSample(json: string | null): AlertCallRef[] {
  if (!json) return [];
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? (value as AlertCallRef[]) : [];
  } catch {
    return [];
  }
}

/** Runs the sweep every `intervalMs` until the returned function is called. */
export function startAlertsSweeper(intervalMs: number, database?: () => Promise<Database>): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    (database ? database() : getDatabase())
      .then((db) => sweepAlerts({ database: db }))
      .catch((error: unknown) => {
        if (isTransientDatabaseError(error))
          console.warn("[toolscope] alerts sweep skipped: the database is busy or unreachable");
        else console.error("[toolscope] alerts sweep failed", error);
      })
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
