"use client";
// Alert rules: the list (when each last fired and what it sent, send a test, switch on/off, remove) and a form for
// a new rule whose fields follow the chosen condition. Admin writes; rules apply to the next committed result.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { ALERT_EVENTS, type AlertEvent, type AlertRuleView, type NotifyDestinationView } from "@/lib/alerts/schemas.ts";
import { sendJson } from "@/components/ui/fetch-json.ts";
import { TimeAgo } from "../ui/time-ago.tsx";

const EVENT_LABELS: Record<AlertEvent, string> = {
  result_errored: "a result is an error",
  envelope_failed: "an envelope says success: false",
  low_confidence: "confidence below a line",
  next_action: "nextAction equals a value",
  slow_call: "a call is slow",
  error_rate: "a tool's error rate is high",
  call_timed_out: "a call timed out",
  pending_too_long: "a call is pending too long",
  waiting_for_person: "a held result or approval waits for a person",
  new_tool: "a tool never seen before",
};

const text = (data: FormData, name: string) => {
  const value = String(data.get(name) ?? "").trim();
  return value === "" ? undefined : value;
};
const number = (data: FormData, name: string) => {
  const value = text(data, name);
  return value === undefined ? undefined : Number(value);
};
const millis = (data: FormData, name: string) => {
  const value = number(data, name);
  return value === undefined ? undefined : Math.round(value * 1000);
};

function conditionOf(event: AlertEvent, data: FormData): Record<string, unknown> {
  const scope = { event, tool: text(data, "tool"), thread: text(data, "thread") };
  switch (event) {
    case "low_confidence":
      return { ...scope, below: number(data, "below") };
    case "next_action":
      return { ...scope, equals: text(data, "equals") };
    case "slow_call":
    case "pending_too_long":
    case "waiting_for_person":
      return { ...scope, above_ms: millis(data, "above_s") };
    case "error_rate":
      return {
        ...scope,
        above_percent: number(data, "above_percent"),
        window_ms: millis(data, "window_s"),
        min_count: number(data, "min_count"),
      };
    default:
      return scope;
  }
}

function ThresholdFields({ event }: { event: AlertEvent }) {
  if (event === "low_confidence")
    return (
      <label className="field">
        <span>Confidence below</span>
        <input className="input" name="below" type="number" min={0} max={1} step={0.05} defaultValue={0.5} required />
      </label>
    );
  if (event === "next_action")
    return (
      <label className="field">
        <span>nextAction equals</span>
        <input className="input" name="equals" defaultValue="human_review" required />
      </label>
    );
  if (event === "slow_call" || event === "pending_too_long" || event === "waiting_for_person")
    return (
      <label className="field">
        <span>{event === "slow_call" ? "Latency above (s)" : "Waiting longer than (s)"}</span>
        <input className="input" name="above_s" type="number" min={0.001} step="any" defaultValue={60} required />
      </label>
    );
  if (event === "error_rate")
    return (
      <>
        <label className="field">
          <span>Error rate above (%)</span>
          <input className="input" name="above_percent" type="number" min={0} max={100} defaultValue={20} required />
        </label>
        <label className="field">
          <span>Window (s)</span>
          <input className="input" name="window_s" type="number" min={10} defaultValue={300} required />
        </label>
        <label className="field">
          <span>At least (results)</span>
          <input className="input" name="min_count" type="number" min={1} defaultValue={10} required />
        </label>
      </>
    );
  return null;
}

function RuleItem({ rule, act }: { rule: AlertRuleView; act: (work: Promise<unknown>) => Promise<void> }) {
  return (
    <li data-testid="alert-rule">
      <strong>{rule.name}</strong>{" "}
      <span className={`badge ${rule.enabled ? "badge-warn" : "badge-neutral"}`}>{rule.enabled ? "on" : "off"}</span>{" "}
      <span className="small">
        {rule.description} → {rule.notify.join(", ")}; grouped over {Math.round(rule.cooldownMs / 1000)} s
        {rule.mutedUntil ? (
          <>
            ; muted until <TimeAgo iso={rule.mutedUntil} />
          </>
        ) : null}
      </span>{" "}
      <span className="small muted" data-testid="alert-rule-last">
        {rule.lastAlert ? (
          <>
            — last sent <TimeAgo iso={rule.lastAlert.firedAt} />:{" "}
            <Link href={`/alerts/history?alert=${rule.lastAlert.id}`}>{rule.lastAlert.title}</Link>
          </>
        ) : (
          "— never fired"
        )}
        {rule.heldCount > 0 ? `; ${rule.heldCount} more counted for the grouped message` : ""}
      </span>{" "}
      <button
        className="button button-small"
        type="button"
        onClick={() => void act(sendJson("POST", `/api/alert-rules/${rule.id}/test`))}
      >
        Send a test
      </button>{" "}
      <button
        className="button button-small"
        type="button"
        onClick={() => void act(sendJson("PATCH", `/api/alert-rules/${rule.id}`, { enabled: !rule.enabled }))}
      >
        {rule.enabled ? "Switch off" : "Switch on"}
      </button>{" "}
      <button
        className="button button-small"
        type="button"
        onClick={() => void act(sendJson("DELETE", `/api/alert-rules/${rule.id}`))}
      >
        Remove
      </button>
    </li>
  );
}

// eslint-disable-next-line max-lines-per-function -- the list and the form of one panel; mostly markup
export function AlertRulesPanel({
  rules,
  destinations,
}: {
  rules: AlertRuleView[];
  destinations: NotifyDestinationView[];
}) {
  const router = useRouter();
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [event, setEvent] = useState<AlertEvent>("result_errored");
  const act = async (work: Promise<unknown>) => {
    setProblem(null);
    setNotice(null);
    try {
      const answer = await work;
      if (typeof answer === "object" && answer !== null && "kind" in answer && answer.kind === "test")
        setNotice("Test message queued; see the alert history for its delivery.");
      router.refresh();
    } catch (failure) {
      setProblem(failure instanceof Error ? failure.message : "Could not save");
    }
  };
  const submit = (formEvent: FormEvent<HTMLFormElement>) => {
    formEvent.preventDefault();
    const form = formEvent.currentTarget;
    const data = new FormData(form);
    const cooldown = millis(data, "cooldown_s");
    const body = {
      name: text(data, "name"),
      when: conditionOf(event, data),
      notify: data.getAll("notify").map(String),
      cooldown_ms: cooldown,
    };
    void act(sendJson("POST", "/api/alert-rules", body).then(() => form.reset()));
  };
  return (
    <>
      {problem ? (
        <p className="notice notice-bad" role="alert">
          {problem}
        </p>
      ) : null}
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      <section className="card panel" aria-labelledby="alert-rules-list">
        <h2 id="alert-rules-list" className="section-title">
          Rules
        </h2>
        {rules.length === 0 ? (
          <p className="muted panel-empty">No rule yet.</p>
        ) : (
          <ul className="rule-list">
            {rules.map((rule) => (
              <RuleItem key={rule.id} rule={rule} act={act} />
            ))}
          </ul>
        )}
      </section>
      <form className="card panel rule-form" onSubmit={submit} aria-label="New alert rule">
        <h2 className="section-title">New alert rule</h2>
        <div className="key-form">
          <label className="field field-grow">
            <span>Name</span>
            <input className="input" name="name" required maxLength={200} />
          </label>
          <label className="field">
            <span>When</span>
            <select
              className="input"
              name="event"
              value={event}
              onChange={(change) => setEvent(change.target.value as AlertEvent)}
            >
              {ALERT_EVENTS.map((value) => (
                <option key={value} value={value}>
                  {EVENT_LABELS[value]}
                </option>
              ))}
            </select>
          </label>
          <ThresholdFields event={event} />
        </div>
        <div className="key-form">
          <label className="field">
            <span>Tool</span>
            <input className="input" name="tool" placeholder="any (or deploy, read_*)" />
          </label>
          <label className="field">
            <span>Thread</span>
            <input className="input" name="thread" placeholder="any (or agent-*)" />
          </label>
          <label className="field">
            <span>Group for (s)</span>
            <input className="input" name="cooldown_s" type="number" min={0} defaultValue={300} />
          </label>
          <fieldset className="field">
            <legend>Notify</legend>
            {destinations.length === 0 ? (
              <span className="small muted">No destination is configured (TOOLSCOPE_NOTIFY).</span>
            ) : (
              destinations.map((destination, index) => (
                <label key={destination.name} className="small">
                  <input type="checkbox" name="notify" value={destination.name} defaultChecked={index === 0} />{" "}
                  {destination.name} ({destination.format})
                </label>
              ))
            )}
          </fieldset>
        </div>
        <div className="field-actions">
          <button className="button button-primary" type="submit">
            Add alert rule
          </button>
        </div>
      </form>
    </>
  );
}
