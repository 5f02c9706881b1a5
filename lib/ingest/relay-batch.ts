// The in-path part of a callback group (POST /api/relay/{name} and a person's answer, lib/relay): inside the same
// transaction that stores the delivery, the result is queued in the durable outbox — held at a breakpoint, or
// touched by a fault rule, as the rules stored at that moment say. A message exists exactly when its delivery was
// stored, before the sender is answered, so kill -9 at any moment loses nothing acknowledged.
import "server-only";
import type { DriverConnection } from "../db/driver.ts";
import { findBreakpoint, faultErrorText, strikingFaults, withText, type ResultFacts } from "../intercept/match.ts";
import {
  insertHolds,
  insertInterventions,
  loadActiveRules,
  type ActiveRules,
  type NewHold,
  type NewIntervention,
} from "../intercept/repository.ts";
import { enqueueOutbox, type NewOutboxMessage } from "../outbox/repository.ts";
import type { OutboxStatus } from "../outbox/schemas.ts";

import type { RELAY_MODES } from "./relay-modes.ts";

export type RelayMode = (typeof RELAY_MODES)[number];

/** What the relay service adds to a routed delivery: where it goes, and how. */
export type RelayIntent = {
  /** The configured relay target's name. */
  target: string;
  mode: RelayMode;
  /** The webhook-id it is forwarded under, the same on every attempt. */
  webhookId: string;
  /** pass-through: this process forwards it at once, so its message is created leased to this worker. */
  lease: { owner: string; until: Date } | null;
  /** relay: a tool's result (breakpoints and faults apply); answer: a person's (they do not). */
  kind: "relay" | "answer";
  /** Who wrote an answer ("user:ada@example.com"): on the audit row and the audit log. */
  answeredBy: string | null;
};

/** What became of a relayed delivery's outbox message; the relay service answers from it. */
export type RelayOutcome = {
  target: string;
  messageId: number;
  webhookId: string;
  /** Faults are not told to the tool (they test the agent): a faulted message reads as queued. */
  state: OutboxStatus;
  holdId: number | null;
  faulted: boolean;
};

export type RelayedItem = {
  intent: RelayIntent;
  body: Uint8Array;
  contentType: string;
  groupId: string;
  callKey: string;
  call: { id: number; toolName: string } | null;
  /** null: not a tool result (no breakpoint or fault applies). */
  facts: Omit<ResultFacts, "relay" | "groupId" | "toolName"> | null;
};

/** Queues each relayed item in the outbox (with its holds, faults and audit-log rows); outcomes in order. */
export async function writeRelayed(tx: DriverConnection, items: RelayedItem[], now: Date): Promise<RelayOutcome[]> {
  if (items.length === 0) return [];
  const intercepted = items.some((item) => item.intent.kind === "relay" && item.facts !== null);
  const rules: ActiveRules = intercepted ? await loadActiveRules(tx) : { breakpoints: [], faults: [] };
  const messages: NewOutboxMessage[] = [];
  const plans: ItemPlan[] = [];
  for (const item of items) {
    const plan = planItem(item, rules, now, messages.length);
    plans.push(plan);
    messages.push(...plan.copies);
  }
  const enqueued = await enqueueOutbox(tx, messages);
  const holds = plans.flatMap((plan) =>
    plan.hold ? [{ ...plan.hold, messageId: enqueued[plan.first]?.id ?? 0 }] : [],
  );
  const holdIds = await insertHolds(tx, holds);
  let holdIndex = 0;
  const outcomes = plans.map((plan, index) => {
    const message = enqueued[plan.first];
    if (!message) throw new Error("unreachable: a relayed item without its outbox message");
    const holdId = plan.hold ? (holdIds[holdIndex++] ?? null) : null;
    for (const note of plan.notes) Object.assign(note, { messageId: message.id, holdId });
    const target = items[index]?.intent.target ?? "";
    return {
      target,
      messageId: message.id,
      webhookId: message.webhookId,
      state: message.status,
      holdId,
      faulted: plan.faulted,
    };
  });
  await insertInterventions(
    tx,
    plans.flatMap((plan) => plan.notes),
  );
  return outcomes;
}

type ItemPlan = {
  copies: NewOutboxMessage[];
  first: number;
  hold: NewHold | null;
  notes: NewIntervention[];
  faulted: boolean;
};

/** One relayed item's outbox message(s) — held, faulted or plain — its hold and its audit-log rows. */
function planItem(item: RelayedItem, rules: ActiveRules, now: Date, first: number): ItemPlan {
  const facts: ResultFacts | null =
    item.intent.kind === "relay" && item.facts !== null
      ? { ...item.facts, relay: item.intent.target, groupId: item.groupId, toolName: item.call?.toolName ?? null }
      : null;
  const breakpoint = facts ? findBreakpoint(rules.breakpoints, facts) : null;
  const faults = facts && !breakpoint ? strikingFaults(rules.faults, facts) : [];
  const base: NewOutboxMessage = {
    createdAt: now,
    kind: item.intent.kind,
    destination: `relay:${item.intent.target}`,
    // One call's results go out in order, whichever way each came in.
    orderKey: JSON.stringify([item.intent.target, item.groupId, item.callKey]),
    webhookId: item.intent.webhookId,
    contentType: item.contentType,
    body: item.body,
    status: breakpoint ? "held" : item.intent.lease && faults.length === 0 ? "delivering" : "pending",
    nextAttemptAt: now,
    leaseOwner: item.intent.lease?.owner ?? null,
    leaseUntil: item.intent.lease?.until ?? null,
    groupId: item.groupId,
    callKey: item.callKey,
    toolCallId: item.call?.id ?? null,
    fault: null,
  };
  const about = { groupId: item.groupId, callKey: item.callKey, toolCallId: item.call?.id ?? null };
  const notes: NewIntervention[] = [];
  const copies: NewOutboxMessage[] = [base];
  for (const fault of faults) {
    const label = `${fault.action} (fault rule "${fault.name}")`;
    base.fault = base.fault ? `${base.fault}; ${label}` : label;
    if (fault.action === "drop") base.status = "dropped";
    if (fault.action === "delay") base.nextAttemptAt = new Date(now.getTime() + (fault.delayMs ?? 1000));
    if (fault.action === "error") base.body = withText(base.body, faultErrorText(fault), null);
    if (fault.action === "duplicate") copies.push({ ...base, status: "pending" });
    notes.push({
      ...about,
      at: now,
      actor: `fault:${fault.name}`,
      action: `fault_${fault.action}`,
      messageId: null,
      holdId: null,
      approvalId: null,
      detail: { rule: fault.id, probability: fault.probability, delayMs: fault.delayMs ?? undefined },
    });
  }
  // A duplicate repeats the message as it finally is (after an error or a delay of the same result).
  for (const copy of copies.slice(1))
    Object.assign(copy, { ...base, status: base.status === "dropped" ? "dropped" : "pending" });
  if (breakpoint)
    notes.push({
      ...about,
      at: now,
      actor: `rule:${breakpoint.name}`,
      action: "hold",
      messageId: null,
      holdId: null,
      approvalId: null,
      detail: { rule: breakpoint.id, timeoutMs: breakpoint.timeoutMs, onTimeout: breakpoint.onTimeout },
    });
  if (item.intent.kind === "answer")
    notes.push({
      ...about,
      at: now,
      actor: item.intent.answeredBy ?? "unknown",
      action: "answer",
      messageId: null,
      holdId: null,
      approvalId: null,
      detail: { relay: item.intent.target },
    });
  return {
    copies,
    first,
    faulted: faults.length > 0,
    notes,
    hold: breakpoint
      ? {
          messageId: 0,
          ruleId: breakpoint.id,
          ruleName: breakpoint.name,
          relay: item.intent.target,
          groupId: item.groupId,
          callKey: item.callKey,
          toolCallId: item.call?.id ?? null,
          toolName: item.call?.toolName ?? null,
          heldAt: now,
          timeoutAt: new Date(now.getTime() + breakpoint.timeoutMs),
          onTimeout: breakpoint.onTimeout,
          originalBody: item.body,
        }
      : null,
  };
}
