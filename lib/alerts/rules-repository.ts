// Prisma access for the alert pages and API: rules (create, change, remove, list with their last alert) and the
// alert history with the outbox messages each alert queued. Plain DTOs out (ISO strings).
import "server-only";
import type { ModelClient } from "../db/client.ts";
import { conditionOf, describeCondition } from "./conditions.ts";
import type { AlertCallRef, AlertDeliveryView, AlertRuleView, AlertSummary, AlertView } from "./schemas.ts";

export type AlertRuleData = {
  name: string;
  enabled: boolean;
  event: string;
  toolName: string | null;
  groupPattern: string | null;
  paramsJson: string;
  notifyJson: string;
  cooldownMs: number;
  mutedUntil: Date | null;
};
/** What a changed condition resets: the sweeper's cursors and the error-rate windows start over. */
export type AlertRuleCursors = { sweptUntil: Date | null; sweptId: number | null; windowStateJson: null };

const RULE_SELECT = {
  id: true,
  name: true,
  enabled: true,
  event: true,
  toolName: true,
  groupPattern: true,
  paramsJson: true,
  notifyJson: true,
  cooldownMs: true,
  mutedUntil: true,
  createdAt: true,
  createdBy: true,
  updatedAt: true,
  updatedBy: true,
  lastFiredAt: true,
  lastAlertId: true,
  heldCount: true,
} as const;

const ALERT_SELECT = {
  id: true,
  ruleId: true,
  ruleName: true,
  event: true,
  kind: true,
  firedAt: true,
  count: true,
  title: true,
  callsJson: true,
  destinationsJson: true,
} as const;

function parseList<T>(json: string): T[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    return [];
  }
}

type RuleRow = {
  id: number;
  name: string;
  enabled: boolean;
  event: string;
  toolName: string | null;
  groupPattern: string | null;
  paramsJson: string;
  notifyJson: string;
  cooldownMs: number;
  mutedUntil: Date | null;
  createdAt: Date;
  createdBy: string;
  updatedAt: Date;
  updatedBy: string;
  lastFiredAt: Date | null;
  lastAlertId: number | null;
  heldCount: number;
};

const summary = (row: { id: number; kind: string; firedAt: Date; count: number; title: string }): AlertSummary => ({
  id: row.id,
  kind: row.kind,
  firedAt: row.firedAt.toISOString(),
  count: row.count,
  title: row.title,
});

function ruleView(row: RuleRow, last: AlertSummary | null): AlertRuleView {
  const when = conditionOf(row);
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled,
    // A row written by this code always parses; an unreadable one says so (and is never evaluated).
    when: when ?? { event: "result_errored" },
    description: when ? describeCondition(when) : `unreadable condition (${row.event})`,
    notify: parseList<string>(row.notifyJson),
    cooldownMs: row.cooldownMs,
    mutedUntil: row.mutedUntil?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: row.updatedBy,
    lastFiredAt: row.lastFiredAt?.toISOString() ?? null,
    lastAlert: last,
    heldCount: row.heldCount,
  };
}

async function withLastAlerts(db: ModelClient, rows: RuleRow[]): Promise<AlertRuleView[]> {
  const ids = rows.flatMap((row) => (row.lastAlertId === null ? [] : [row.lastAlertId]));
  const alerts =
    ids.length === 0
      ? []
      : await db.alert.findMany({
          where: { id: { in: ids } },
          select: { id: true, kind: true, firedAt: true, count: true, title: true },
        });
  const byId = new Map(alerts.map((alert) => [alert.id, summary(alert)]));
  return rows.map((row) => ruleView(row, row.lastAlertId === null ? null : (byId.get(row.lastAlertId) ?? null)));
}

export async function listAlertRules(db: ModelClient): Promise<AlertRuleView[]> {
  return withLastAlerts(db, await db.alertRule.findMany({ select: RULE_SELECT, orderBy: { id: "asc" } }));
}

export async function findAlertRule(db: ModelClient, id: number): Promise<AlertRuleView | null> {
  const row = await db.alertRule.findUnique({ where: { id }, select: RULE_SELECT });
  return row ? ((await withLastAlerts(db, [row]))[0] ?? null) : null;
}

export async function createAlertRule(
  db: ModelClient,
  data: AlertRuleData & AlertRuleCursors & { by: string; at: Date },
): Promise<number> {
  const { by, at, ...rest } = data;
  const row = await db.alertRule.create({
    data: { ...rest, createdBy: by, updatedBy: by, createdAt: at, updatedAt: at },
    select: { id: true },
  });
  return row.id;
}

export async function updateAlertRule(
  db: ModelClient,
  id: number,
  data: Partial<AlertRuleData> & Partial<AlertRuleCursors> & { by: string; at: Date },
): Promise<boolean> {
  const { by, at, ...rest } = data;
  const { count } = await db.alertRule.updateMany({ where: { id }, data: { ...rest, updatedBy: by, updatedAt: at } });
  return count > 0;
}

export async function deleteAlertRule(db: ModelClient, id: number): Promise<boolean> {
  return (await db.alertRule.deleteMany({ where: { id } })).count > 0;
}

/** The largest call id now: a new_tool rule watches the calls after it. */
export async function lastCallId(db: ModelClient): Promise<number> {
  const row = await db.toolCall.findFirst({ select: { id: true }, orderBy: { id: "desc" } });
  return row?.id ?? 0;
}

/** Alerts newest first (by rule, before an id), each with the outbox messages it queued. */
export async function listAlerts(
  db: ModelClient,
  options: { ruleId?: number; id?: number; before?: number; limit: number },
): Promise<AlertView[]> {
  const rows = await db.alert.findMany({
    where: {
      ...(options.ruleId !== undefined ? { ruleId: options.ruleId } : {}),
      ...(options.id !== undefined ? { id: options.id } : {}),
      ...(options.before !== undefined ? { id: { lt: options.before } } : {}),
    },
    select: ALERT_SELECT,
    orderBy: { id: "desc" },
    take: options.limit,
  });
  const keys = rows.flatMap((row) => parseList<string>(row.destinationsJson).map((name) => `alert:${row.id}:${name}`));
  const messages =
    keys.length === 0
      ? []
      : await db.outboxMessage.findMany({
          where: { orderKey: { in: keys } },
          select: {
            id: true,
            orderKey: true,
            destination: true,
            status: true,
            attempts: true,
            lastStatus: true,
            lastError: true,
          },
          orderBy: { id: "asc" },
        });
  const byKey = new Map<string, AlertDeliveryView[]>();
  for (const message of messages) {
    const list = byKey.get(message.orderKey) ?? [];
    list.push({
      destination: message.destination.slice("notify:".length),
      messageId: message.id,
      status: message.status,
      attempts: message.attempts,
      lastStatus: message.lastStatus,
      lastError: message.lastError,
    });
    byKey.set(message.orderKey, list);
  }
  return rows.map((row) => {
    const destinations = parseList<string>(row.destinationsJson);
    return {
      ...summary(row),
      ruleId: row.ruleId,
      ruleName: row.ruleName,
      event: row.event,
      calls: parseList<AlertCallRef>(row.callsJson),
      destinations,
      deliveries: destinations.flatMap((name) => byKey.get(`alert:${row.id}:${name}`) ?? []),
    };
  });
}
