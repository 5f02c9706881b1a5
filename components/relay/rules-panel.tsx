"use client";
// Breakpoint or fault rules: the list (switch on/off, remove) and a form for a new one. Admin writes; the relay
// reads the enabled rules inside each delivery's transaction, so a change applies to the next result.
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import type { BreakpointRuleView, FaultRuleView } from "@/lib/intercept/schemas.ts";
import { TimeAgo } from "../ui/time-ago.tsx";
import { sendJson } from "@/components/ui/fetch-json.ts";

type Kind = "breakpoints" | "faults";

function describeBreakpoint(rule: BreakpointRuleView): string {
  const parts = [
    rule.relay && `relay ${rule.relay}`,
    rule.toolName && `tool ${rule.toolName}`,
    rule.groupPattern && `thread ${rule.groupPattern}`,
    rule.textContains && `text contains “${rule.textContains}”`,
    rule.confidenceBelow !== null && `confidence < ${rule.confidenceBelow}`,
    rule.successFalse && "success: false",
    rule.errorOnly && "an error",
    rule.nextAction && `nextAction = ${rule.nextAction}`,
  ].filter(Boolean);
  return `${parts.length > 0 ? parts.join(", ") : "every relayed result"}; after ${Math.round(rule.timeoutMs / 1000)} s: ${rule.onTimeout === "error" ? "deliver an error" : "release"}`;
}

function describeFault(rule: FaultRuleView): string {
  const scope = [
    rule.relay && `relay ${rule.relay}`,
    rule.toolName && `tool ${rule.toolName}`,
    rule.groupPattern && `thread ${rule.groupPattern}`,
  ]
    .filter(Boolean)
    .join(", ");
  const what = rule.action === "delay" ? `delay ${rule.delayMs} ms` : rule.action;
  return `${what} ${Math.round(rule.probability * 100)} % of ${scope || "every relayed result"}`;
}

const text = (data: FormData, name: string) => {
  const value = String(data.get(name) ?? "").trim();
  return value === "" ? undefined : value;
};
const number = (data: FormData, name: string) => {
  const value = text(data, name);
  return value === undefined ? undefined : Number(value);
};

function bodyOf(kind: Kind, data: FormData): Record<string, unknown> {
  const scope = {
    name: text(data, "name"),
    relay: text(data, "relay"),
    tool: text(data, "tool"),
    thread: text(data, "thread"),
  };
  if (kind === "faults")
    return {
      ...scope,
      action: text(data, "action"),
      probability: (number(data, "percent") ?? 100) / 100,
      delay_ms: number(data, "delay_ms"),
      error_text: text(data, "error_text"),
    };
  const timeout = number(data, "timeout_s");
  return {
    ...scope,
    text_contains: text(data, "text_contains"),
    confidence_below: number(data, "confidence_below"),
    success_false: data.get("success_false") === "on",
    error: data.get("error") === "on",
    next_action: text(data, "next_action"),
    timeout_ms: timeout === undefined ? undefined : timeout * 1000,
    on_timeout: text(data, "on_timeout"),
  };
}

// eslint-disable-next-line max-lines-per-function -- one form with the fields of either kind of rule; mostly markup
export function RulesPanel({ kind, rules }: { kind: Kind; rules: (BreakpointRuleView | FaultRuleView)[] }) {
  const router = useRouter();
  const [problem, setProblem] = useState<string | null>(null);
  const act = async (work: Promise<unknown>) => {
    setProblem(null);
    try {
      await work;
      router.refresh();
    } catch (failure) {
      setProblem(failure instanceof Error ? failure.message : "Could not save");
    }
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    void act(sendJson("POST", `/api/${kind}`, bodyOf(kind, new FormData(form))).then(() => form.reset()));
  };
  return (
    <>
      {problem ? (
        <p className="notice notice-bad" role="alert">
          {problem}
        </p>
      ) : null}
      <section className="card panel" aria-labelledby={`${kind}-list`}>
        <h2 id={`${kind}-list`} className="section-title">
          Rules
        </h2>
        {rules.length === 0 ? (
          <p className="muted panel-empty">No rule yet.</p>
        ) : (
          <ul className="rule-list">
            {rules.map((rule) => (
              <li key={rule.id} data-testid={`${kind}-rule`}>
                <strong>{rule.name}</strong>{" "}
                <span
                  className={`badge ${rule.enabled ? (kind === "faults" ? "badge-bad" : "badge-warn") : "badge-neutral"}`}
                >
                  {rule.enabled ? "on" : "off"}
                </span>{" "}
                <span className="small">{"action" in rule ? describeFault(rule) : describeBreakpoint(rule)}</span>{" "}
                <span className="small muted">
                  — {rule.updatedBy} <TimeAgo iso={rule.updatedAt} />
                </span>{" "}
                <button
                  className="button button-small"
                  type="button"
                  onClick={() => void act(sendJson("PATCH", `/api/${kind}/${rule.id}`, { enabled: !rule.enabled }))}
                >
                  {rule.enabled ? "Switch off" : "Switch on"}
                </button>{" "}
                <button
                  className="button button-small"
                  type="button"
                  onClick={() => void act(sendJson("DELETE", `/api/${kind}/${rule.id}`))}
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <form
        className="card panel rule-form"
        onSubmit={submit}
        aria-label={kind === "faults" ? "New fault rule" : "New breakpoint"}
      >
        <h2 className="section-title">{kind === "faults" ? "New fault rule" : "New breakpoint"}</h2>
        <div className="key-form">
          <label className="field field-grow">
            <span>Name</span>
            <input className="input" name="name" required maxLength={200} />
          </label>
          <label className="field">
            <span>Tool</span>
            <input className="input" name="tool" placeholder="any (or deploy, read_*)" />
          </label>
          <label className="field">
            <span>Thread</span>
            <input className="input" name="thread" placeholder="any (or agent-*)" />
          </label>
          <label className="field">
            <span>Relay target</span>
            <input className="input" name="relay" placeholder="any" />
          </label>
        </div>
        {kind === "breakpoints" ? (
          <div className="key-form">
            <label className="field">
              <span>Text contains</span>
              <input className="input" name="text_contains" />
            </label>
            <label className="field">
              <span>Confidence below</span>
              <input className="input" name="confidence_below" type="number" min={0} max={1} step="any" />
            </label>
            <label className="field">
              <span>nextAction equals</span>
              <input className="input" name="next_action" />
            </label>
            <label className="field">
              <span>
                <input type="checkbox" name="success_false" /> success is false
              </span>
            </label>
            <label className="field">
              <span>
                <input type="checkbox" name="error" /> is an error
              </span>
            </label>
            <label className="field">
              <span>Timeout (s)</span>
              <input className="input" name="timeout_s" type="number" min={1} defaultValue={300} />
            </label>
            <label className="field">
              <span>On timeout</span>
              <select className="input" name="on_timeout" defaultValue="release">
                <option value="release">release as received</option>
                <option value="error">deliver an error</option>
              </select>
            </label>
          </div>
        ) : (
          <div className="key-form">
            <label className="field">
              <span>Action</span>
              <select className="input" name="action" defaultValue="error">
                <option value="error">turn into an error</option>
                <option value="drop">drop</option>
                <option value="duplicate">duplicate</option>
                <option value="delay">delay</option>
              </select>
            </label>
            <label className="field">
              <span>Share (%)</span>
              <input className="input" name="percent" type="number" min={0} max={100} defaultValue={100} />
            </label>
            <label className="field">
              <span>Delay (ms)</span>
              <input className="input" name="delay_ms" type="number" min={1} />
            </label>
            <label className="field field-grow">
              <span>Error text</span>
              <input className="input" name="error_text" placeholder="Error: injected fault …" />
            </label>
          </div>
        )}
        <div className="field-actions">
          <button className="button button-primary" type="submit">
            {kind === "faults" ? "Add fault rule" : "Add breakpoint"}
          </button>
        </div>
      </form>
    </>
  );
}
