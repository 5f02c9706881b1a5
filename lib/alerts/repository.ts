// Alert rows on a transaction's driver connection, written where what they are about is written: the enabled
// rules, a rule's grouping window (one guarded UPDATE decides "send now" or "count it for the grouped message"),
// the Alert history row and its outbox messages (enqueued in the same transaction: kill -9 loses no alert).
import "server-only";
import type { DriverConnection } from "../db/driver.ts";
import { empty, join, raw, sql } from "../db/sql.ts";
import { enqueueOutbox } from "../outbox/repository.ts";
import { newWebhookId } from "../outbox/sign.ts";
import { alertTitle, conditionOf, describeCondition } from "./conditions.ts";
import { findNotifyDestination, publicBaseUrl } from "./destinations.ts";
import { slackMessage, webhookPayload, type AlertMessage } from "./payload.ts";
import { MAX_SAMPLE_CALLS, type AlertCallRef, type AlertCondition } from "./schemas.ts";

export type LoadedRule = {
  id: number;
  name: string;
  when: AlertCondition;
  notify: string[];
  cooldownMs: number;
  mutedUntil: Date | null;
  createdAt: Date;
  windowStateJson: string | null;
  sweptUntil: Date | null;
  sweptId: number | null;
};

export function instant(value: unknown): Date {
  if (value instanceof Date) return value;
  if (typeof value === "number" || typeof value === "bigint") return new Date(Number(value));
  return new Date(String(value));
}
const optionalInstant = (value: unknown) => (value === null || value === undefined ? null : instant(value));

function parseNotify(json: unknown): string[] {
  try {
    const value: unknown = JSON.parse(String(json));
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
  } catch {
    return [];
  }
}

/** The enabled rules of these events, in id order (a small table, read once per group commit or sweep). */
export async function loadEnabledRules(
  tx: DriverConnection,
  events: readonly string[],
  options: { lock?: boolean } = {},
): Promise<LoadedRule[]> {
  // The sweeper takes its rules' rows (PostgreSQL): two processes never sweep one rule's cursor at once.
  const lock = options.lock && tx.provider === "postgresql" ? raw("FOR UPDATE SKIP LOCKED") : empty;
  const rows = await tx.query<Record<string, unknown>[]>(
    sql`SELECT "id", "name", "event", "toolName", "groupPattern", "paramsJson", "notifyJson", "cooldownMs", "mutedUntil",
          "createdAt", "windowStateJson", "sweptUntil", "sweptId"
        FROM "AlertRule" WHERE "enabled" = ${true} AND "event" IN (${join(events.map((event) => sql`${event}`))}) ORDER BY "id" ${lock}`,
  );
  return rows.flatMap((row) => {
    const when = conditionOf({
      event: String(row.event),
      toolName: row.toolName === null ? null : String(row.toolName),
      groupPattern: row.groupPattern === null ? null : String(row.groupPattern),
      paramsJson: String(row.paramsJson),
    });
    if (!when) return [];
    return [
      {
        id: Number(row.id),
        name: String(row.name),
        when,
        notify: parseNotify(row.notifyJson),
        cooldownMs: Number(row.cooldownMs),
        mutedUntil: optionalInstant(row.mutedUntil),
        createdAt: instant(row.createdAt),
        windowStateJson: row.windowStateJson === null ? null : String(row.windowStateJson),
        sweptUntil: optionalInstant(row.sweptUntil),
        sweptId: row.sweptId === null || row.sweptId === undefined ? null : Number(row.sweptId),
      },
    ];
  });
}

/**
 * A rule matched `count` events (`calls`: a sample of them). Inside the rule's cooldown window they are counted for
 * the grouped message the sweeper sends when the window ends; otherwise an alert is sent now and opens a window.
 * Returns the new alert's id, or null (muted, or grouped).
 */
export async function fireRule(
  tx: DriverConnection,
  rule: Pick<LoadedRule, "id" | "name" | "when" | "notify" | "cooldownMs" | "mutedUntil">,
  options: { calls: AlertCallRef[]; count: number; now: Date },
): Promise<number | null> {
  const { now, count } = options;
  if (count <= 0 || (rule.mutedUntil && rule.mutedUntil > now)) return null;
  const sample = JSON.stringify(options.calls.slice(0, MAX_SAMPLE_CALLS));
  const grouped = await tx.execute(
    sql`UPDATE "AlertRule" SET "heldCount" = "heldCount" + ${count}, "heldSampleJson" = COALESCE("heldSampleJson", ${sample}),
          "flushAt" = "windowEndsAt" WHERE "id" = ${rule.id} AND "windowEndsAt" > ${now}`,
  );
  if (grouped > 0) return null;
  const alertId = await recordAlert(tx, { rule, kind: "first", calls: options.calls, count, now });
  await tx.execute(
    sql`UPDATE "AlertRule" SET "lastFiredAt" = ${now}, "lastAlertId" = ${alertId},
          "windowEndsAt" = ${rule.cooldownMs > 0 ? new Date(now.getTime() + rule.cooldownMs) : null} WHERE "id" = ${rule.id}`,
  );
  return alertId;
}

/** The rules whose cooldown window ended with matches counted in it: the grouped messages now due. */
export async function findDueFlushes(
  tx: DriverConnection,
  now: Date,
): Promise<{ id: number; heldCount: number; heldSampleJson: string | null; flushAt: Date }[]> {
  const rows = await tx.query<Record<string, unknown>[]>(
    sql`SELECT "id", "heldCount", "heldSampleJson", "flushAt" FROM "AlertRule" WHERE "flushAt" <= ${now} ORDER BY "flushAt" LIMIT 100`,
  );
  return rows.map((row) => ({
    id: Number(row.id),
    heldCount: Number(row.heldCount),
    heldSampleJson: row.heldSampleJson === null ? null : String(row.heldSampleJson),
    flushAt: instant(row.flushAt),
  }));
}

/** Takes a rule's counted matches (once: guarded by the flushAt read) and opens the next window. */
export async function takeHeld(
  tx: DriverConnection,
  options: { id: number; flushAt: Date; now: Date; cooldownMs: number },
): Promise<boolean> {
  const changed = await tx.execute(
    sql`UPDATE "AlertRule" SET "heldCount" = 0, "heldSampleJson" = NULL, "flushAt" = NULL, "lastFiredAt" = ${options.now},
          "windowEndsAt" = ${options.cooldownMs > 0 ? new Date(options.now.getTime() + options.cooldownMs) : null}
        WHERE "id" = ${options.id} AND "flushAt" = ${options.flushAt}`,
  );
  return changed > 0;
}

export async function setLastAlert(tx: DriverConnection, ruleId: number, alertId: number): Promise<void> {
  await tx.execute(sql`UPDATE "AlertRule" SET "lastAlertId" = ${alertId} WHERE "id" = ${ruleId}`);
}

export async function saveWindows(tx: DriverConnection, ruleId: number, json: string): Promise<void> {
  await tx.execute(sql`UPDATE "AlertRule" SET "windowStateJson" = ${json} WHERE "id" = ${ruleId}`);
}

export async function saveCursor(
  tx: DriverConnection,
  ruleId: number,
  cursor: { sweptUntil?: Date; sweptId?: number },
): Promise<void> {
  if (cursor.sweptUntil !== undefined)
    await tx.execute(sql`UPDATE "AlertRule" SET "sweptUntil" = ${cursor.sweptUntil} WHERE "id" = ${ruleId}`);
  if (cursor.sweptId !== undefined)
    await tx.execute(sql`UPDATE "AlertRule" SET "sweptId" = ${cursor.sweptId} WHERE "id" = ${ruleId}`);
}

/**
 * Stores an alert and queues one outbox message per destination ("notify:<name>", orderKey
 * "alert:<id>:<name>"), each in its destination's format. Returns the alert's id.
 */
export async function recordAlert(
  tx: DriverConnection,
  options: {
    rule: Pick<LoadedRule, "name" | "when" | "notify"> & { id: number | null };
    kind: AlertMessage["kind"];
    calls: AlertCallRef[];
    count: number;
    now: Date;
    title?: string;
  },
): Promise<number> {
  const { rule, now } = options;
  const title = options.title ?? alertTitle(rule.name, rule.when, options.count);
  const calls = options.calls.slice(0, MAX_SAMPLE_CALLS);
  const [inserted] = await tx.query<{ id: number | bigint }[]>(
    sql`INSERT INTO "Alert" ("ruleId", "ruleName", "event", "kind", "firedAt", "count", "title", "callsJson", "destinationsJson", "payloadJson")
        VALUES (${rule.id}, ${rule.name}, ${rule.when.event}, ${options.kind}, ${now}, ${options.count}, ${title},
          ${JSON.stringify(calls)}, ${JSON.stringify(rule.notify)}, ${"{}"}) RETURNING "id"`,
  );
  const id = Number(inserted?.id ?? 0);
  const message: AlertMessage = {
    id,
    rule: { id: rule.id, name: rule.name, event: rule.when.event, condition: describeCondition(rule.when) },
    kind: options.kind,
    firedAt: now,
    count: options.count,
    title,
    calls,
  };
  const base = publicBaseUrl();
  const payload = webhookPayload(message, base);
  await tx.execute(sql`UPDATE "Alert" SET "payloadJson" = ${JSON.stringify(payload)} WHERE "id" = ${id}`);
  await enqueueOutbox(
    tx,
    rule.notify.map((name) => {
      const format = findNotifyDestination(name)?.format ?? "webhook";
      const body = format === "slack" ? slackMessage(message, base) : payload;
      return {
        createdAt: now,
        kind: "alert",
        destination: `notify:${name}`,
        orderKey: `alert:${id}:${name}`,
        webhookId: newWebhookId(),
        contentType: "application/json",
        body: Buffer.from(JSON.stringify(body)),
        status: "pending",
        // (A sweep may be told another instant, as tests do; the message is due by the real clock.)
        nextAttemptAt: new Date(Math.min(now.getTime(), Date.now())),
        leaseOwner: null,
        leaseUntil: null,
        groupId: calls[0]?.groupId ?? null,
        callKey: null,
        toolCallId: null,
        fault: null,
      };
    }),
  );
  return id;
}

/** Max call id now: a new_tool rule starts watching after it. */
export async function maxCallId(tx: DriverConnection): Promise<number> {
  const [row] = await tx.query<{ id: number | bigint | null }[]>(sql`SELECT MAX("id") AS "id" FROM "ToolCall"`);
  return Number(row?.id ?? 0);
}
