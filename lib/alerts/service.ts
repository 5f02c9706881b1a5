// Alert rules and history as the API and pages use them: create, change, remove (admin), list with the last
// alert, a test message through the same outbox, and the history. Destinations are checked against
// TOOLSCOPE_NOTIFY when a rule names them: only configured URLs are ever contacted.
import "server-only";
import { getDatabase } from "../db/client.ts";
import { AppError } from "../http/app-error.ts";
import { wakeOutbox } from "../outbox/service.ts";
import { paramsOf } from "./conditions.ts";
import { listNotifyDestinations, readNotifyDestinations } from "./destinations.ts";
import { recordAlert, setLastAlert } from "./repository.ts";
import {
  createAlertRule,
  deleteAlertRule,
  findAlertRule,
  lastCallId,
  listAlertRules,
  listAlerts,
  updateAlertRule,
  type AlertRuleCursors,
  type AlertRuleData,
} from "./rules-repository.ts";
import {
  DEFAULT_COOLDOWN_MS,
  type AlertCondition,
  type AlertHistoryPage,
  type AlertHistoryQuery,
  type AlertRuleInput,
  type AlertRulePatch,
  type AlertRuleView,
  type AlertView,
  type NotifyDestinationsReply,
} from "./schemas.ts";

/** Every named destination must be configured now (422 naming the first that is not). */
function checkNotify(names: string[]): void {
  const { destinations, problem } = readNotifyDestinations();
  if (problem !== null)
    throw new AppError("unavailable", `Notify destinations are misconfigured on the server: ${problem}`, {
      retryAfterSeconds: 60,
    });
  names.forEach((name, index) => {
    if (destinations.some((destination) => destination.name === name)) return;
    const known = destinations.map((destination) => `"${destination.name}"`).join(", ");
    throw new AppError(
      "invalid",
      `notify[${index}]: no destination "${name}" is configured${known ? ` (configured: ${known})` : " (TOOLSCOPE_NOTIFY is empty)"}`,
      { path: `notify[${index}]` },
    );
  });
}

function conditionData(when: AlertCondition) {
  return {
    event: when.event,
    toolName: when.tool ?? null,
    groupPattern: when.thread ?? null,
    paramsJson: JSON.stringify(paramsOf(when)),
  };
}

/** Where a rule's watching starts: timeouts from now, new tools after the newest call; pending and waiting as they are. */
async function freshCursors(when: AlertCondition, now: Date): Promise<AlertRuleCursors> {
  const db = await getDatabase();
  return {
    sweptUntil: when.event === "call_timed_out" ? now : null,
    sweptId: when.event === "new_tool" ? await lastCallId(db.client) : null,
    windowStateJson: null,
  };
}

export async function getAlertRules(): Promise<AlertRuleView[]> {
  const db = await getDatabase();
  return listAlertRules(db.client);
}

export async function getAlertRule(id: number): Promise<AlertRuleView> {
  const db = await getDatabase();
  const rule = await findAlertRule(db.client, id);
  if (!rule) throw new AppError("not_found", `No alert rule ${id}`);
  return rule;
}

export async function addAlertRule(options: { input: AlertRuleInput; by: string }): Promise<AlertRuleView> {
  const { input } = options;
  checkNotify(input.notify);
  const db = await getDatabase();
  const at = new Date();
  const data: AlertRuleData = {
    name: input.name,
    enabled: input.enabled ?? true,
    ...conditionData(input.when),
    notifyJson: JSON.stringify(input.notify),
    cooldownMs: input.cooldown_ms ?? DEFAULT_COOLDOWN_MS,
    mutedUntil: input.muted_until ? new Date(input.muted_until) : null,
  };
  const id = await createAlertRule(db.client, { ...data, ...(await freshCursors(input.when, at)), by: options.by, at });
  return getAlertRule(id);
}

export async function changeAlertRule(options: {
  id: number;
  input: AlertRulePatch;
  by: string;
}): Promise<AlertRuleView> {
  const { input } = options;
  const current = await getAlertRule(options.id);
  if (input.notify) checkNotify(input.notify);
  const at = new Date();
  const data: Partial<AlertRuleData> = {};
  if (input.name !== undefined) data.name = input.name;
  if (input.enabled !== undefined) data.enabled = input.enabled;
  if (input.when !== undefined) Object.assign(data, conditionData(input.when));
  if (input.notify !== undefined) data.notifyJson = JSON.stringify(input.notify);
  if (input.cooldown_ms !== undefined) data.cooldownMs = input.cooldown_ms;
  if (input.muted_until !== undefined) data.mutedUntil = input.muted_until ? new Date(input.muted_until) : null;
  // A new condition, or a rule switched back on, watches from now: no flood of what happened meanwhile.
  const restart = input.when !== undefined || (input.enabled === true && !current.enabled);
  const cursors = restart ? await freshCursors(input.when ?? current.when, at) : {};
  const db = await getDatabase();
  if (!(await updateAlertRule(db.client, options.id, { ...data, ...cursors, by: options.by, at })))
    throw new AppError("not_found", `No alert rule ${options.id}`);
  return getAlertRule(options.id);
}

export async function removeAlertRule(id: number): Promise<void> {
  const db = await getDatabase();
  if (!(await deleteAlertRule(db.client, id))) throw new AppError("not_found", `No alert rule ${id}`);
}

/** Sends a test message of the rule to its destinations now, through the outbox (cooldown and mute do not apply). */
export async function sendTestAlert(options: { id: number; by: string }): Promise<AlertView> {
  const rule = await getAlertRule(options.id);
  checkNotify(rule.notify);
  const db = await getDatabase();
  const alertId = await db.driverTransaction(
    async (tx) => {
      const id = await recordAlert(tx, {
        rule: { id: rule.id, name: rule.name, when: rule.when, notify: rule.notify },
        kind: "test",
        calls: [],
        count: 0,
        now: new Date(),
        title: `Test of "${rule.name}" (sent by ${options.by})`,
      });
      await setLastAlert(tx, rule.id, id);
      return id;
    },
    { ordered: false },
  );
  wakeOutbox();
  return getAlert(alertId);
}

export async function getAlert(id: number): Promise<AlertView> {
  const db = await getDatabase();
  const [alert] = await listAlerts(db.client, { id, limit: 1 });
  if (!alert) throw new AppError("not_found", `No alert ${id}`);
  return alert;
}

export async function getAlertHistory(query: AlertHistoryQuery): Promise<AlertHistoryPage> {
  const db = await getDatabase();
  const limit = query.limit ?? 50;
  const items = await listAlerts(db.client, { ruleId: query.rule, before: query.before, limit });
  const last = items[items.length - 1];
  return { items, nextBefore: items.length === limit && last ? last.id : null };
}

export function getNotifyDestinations(): NotifyDestinationsReply {
  return listNotifyDestinations();
}
