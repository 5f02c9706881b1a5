// What an alert sends: the documented webhook event (JSON, signed by the outbox with Standard Webhooks) or a Slack
// incoming-webhook message ({"text": …}, which Slack, Mattermost and many chat tools accept). Pure.
import type { AlertCallRef } from "./schemas.ts";

export type AlertMessage = {
  id: number;
  rule: { id: number | null; name: string; event: string; condition: string };
  kind: "first" | "grouped" | "test";
  firedAt: Date;
  count: number;
  title: string;
  calls: AlertCallRef[];
};

export const WEBHOOK_EVENT_TYPE = "toolscope.alert";

const callPath = (call: AlertCallRef) =>
  call.toolCallId !== null ? `/calls/${call.toolCallId}` : `/threads/${encodeURIComponent(call.groupId)}`;
const absolute = (base: string | null, path: string) => (base ? `${base}${path}` : null);

/** The webhook event: stable snake_case fields, links as paths and (with TOOLSCOPE_PUBLIC_URL) absolute URLs. */
export function webhookPayload(alert: AlertMessage, base: string | null) {
  const historyPath = `/alerts/history?alert=${alert.id}`;
  return {
    type: WEBHOOK_EVENT_TYPE,
    alert_id: alert.id,
    kind: alert.kind,
    fired_at: alert.firedAt.toISOString(),
    rule: { id: alert.rule.id, name: alert.rule.name, event: alert.rule.event, condition: alert.rule.condition },
    title: alert.title,
    count: alert.count,
    calls: alert.calls.map((call) => ({
      group_id: call.groupId,
      id: call.callKey,
      tool: call.toolName,
      detail: call.detail,
      path: callPath(call),
      url: absolute(base, callPath(call)),
    })),
    more_calls: Math.max(0, alert.count - alert.calls.length),
    path: historyPath,
    url: absolute(base, historyPath),
  };
}

/** Slack's mrkdwn treats &, < and > as markup: text from tools and rules is escaped, never a link or mention. */
export function slackEscape(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

const SLACK_CALL_LINES = 5;

export function slackMessage(alert: AlertMessage, base: string | null): { text: string } {
  const link = (path: string, label: string) => {
    const url = absolute(base, path);
    return url ? `<${url}|${slackEscape(label)}>` : `${slackEscape(label)} (${slackEscape(path)})`;
  };
  const lines = [
    `${alert.kind === "test" ? ":test_tube: *Test* — " : ":rotating_light: "}*${slackEscape(alert.title)}*`,
    `${slackEscape(alert.rule.condition)}${alert.kind === "grouped" ? " — grouped during the cooldown" : ""}`,
    ...alert.calls
      .slice(0, SLACK_CALL_LINES)
      .map(
        (call) =>
          `• ${link(callPath(call), `${call.toolName ?? "call"} ${call.callKey}`)} in ${slackEscape(call.groupId)}: ${slackEscape(call.detail)}`,
      ),
  ];
  const more = alert.count - Math.min(alert.calls.length, SLACK_CALL_LINES);
  if (more > 0) lines.push(`…and ${more} more`);
  lines.push(link(`/alerts/history?alert=${alert.id}`, "Alert history"));
  return { text: lines.join("\n") };
}
