// Which rules a committed result matches, and the error-rate windows. Pure: the rules are rows read inside the
// result's own transaction, the facts come from the result's analysis (lib/ingest/commit-batch.ts).
import { wildcardMatches } from "../intercept/match.ts";
import { alertConditionSchema, type AlertCallRef, type AlertCondition } from "./schemas.ts";

/** What a committed result tells the rules (never its text: messages leave the server). */
export type ResultFacts = {
  groupId: string;
  callKey: string;
  toolCallId: number;
  toolName: string;
  isError: boolean;
  success: boolean | null;
  confidence: number | null;
  nextAction: string | null;
  /** The first result's latency (meta.durationMs, else received − requested); null for later results. */
  latencyMs: number | null;
};

/** The condition a stored rule row spells as event, tool, thread and its params; null if it no longer parses. */
export function conditionOf(row: {
  event: string;
  toolName: string | null;
  groupPattern: string | null;
  paramsJson: string;
}): AlertCondition | null {
  let params: unknown;
  try {
    params = JSON.parse(row.paramsJson);
  } catch {
    return null;
  }
  const parsed = alertConditionSchema.safeParse({
    ...(typeof params === "object" && params !== null ? params : {}),
    event: row.event,
    tool: row.toolName ?? undefined,
    thread: row.groupPattern ?? undefined,
  });
  return parsed.success ? parsed.data : null;
}

/** A condition's own fields, as stored in paramsJson (event, tool and thread have columns). */
export function paramsOf(when: AlertCondition): Record<string, unknown> {
  const { event: _event, tool: _tool, thread: _thread, ...params } = when;
  return params;
}

export function inScope(when: AlertCondition, groupId: string, toolName: string | null): boolean {
  if (when.tool !== undefined && (toolName === null || !wildcardMatches(when.tool, toolName))) return false;
  return when.thread === undefined || wildcardMatches(when.thread, groupId);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

/** What about `facts` matches `when` (a result condition other than error_rate), or null. */
export function matchResult(when: AlertCondition, facts: ResultFacts): string | null {
  if (!inScope(when, facts.groupId, facts.toolName)) return null;
  switch (when.event) {
    case "result_errored":
      return facts.isError ? "the result is an error" : null;
    case "envelope_failed":
      return facts.success === false ? "envelope success: false" : null;
    case "low_confidence":
      return facts.confidence !== null && facts.confidence < when.below ? `confidence ${facts.confidence}` : null;
    case "next_action":
      return facts.nextAction === when.equals ? `nextAction ${facts.nextAction}` : null;
    case "slow_call":
      return facts.latencyMs !== null && facts.latencyMs > when.above_ms ? `latency ${seconds(facts.latencyMs)}` : null;
    default:
      return null;
  }
}

export function callRef(facts: ResultFacts, detail: string): AlertCallRef {
  return {
    groupId: facts.groupId,
    callKey: facts.callKey,
    toolCallId: facts.toolCallId,
    toolName: facts.toolName,
    detail,
  };
}

/** One tool's sliding window: this window's counts and the previous one's (weighted by how much still overlaps). */
export type ToolWindow = {
  start: number;
  total: number;
  errors: number;
  previousTotal: number;
  previousErrors: number;
};
export type ErrorWindows = Record<string, ToolWindow>;
const MAX_TOOLS_PER_RULE = 200;

export function parseWindows(json: string | null): ErrorWindows {
  if (!json) return {};
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === "object" && value !== null ? (value as ErrorWindows) : {};
  } catch {
    return {};
  }
}

/** Adds `total` results (`errors` of them errored) at `now` to a tool's window; returns the window and its rate. */
export function addToWindow(
  window: ToolWindow | undefined,
  options: { now: number; windowMs: number; total: number; errors: number },
): { window: ToolWindow; total: number; errors: number } {
  const { now, windowMs } = options;
  let current: ToolWindow = window ?? { start: now, total: 0, errors: 0, previousTotal: 0, previousErrors: 0 };
  const elapsed = now - current.start;
  if (elapsed >= 2 * windowMs) current = { start: now, total: 0, errors: 0, previousTotal: 0, previousErrors: 0 };
  else if (elapsed >= windowMs)
    current = {
      start: current.start + windowMs,
      total: 0,
      errors: 0,
      previousTotal: current.total,
      previousErrors: current.errors,
    };
  current = { ...current, total: current.total + options.total, errors: current.errors + options.errors };
  const overlap = Math.max(0, 1 - (now - current.start) / windowMs);
  return {
    window: current,
    total: current.total + current.previousTotal * overlap,
    errors: current.errors + current.previousErrors * overlap,
  };
}

/** Keeps the windows of the tools seen most recently (a rule without a tool filter could meet thousands). */
export function trimWindows(windows: ErrorWindows): ErrorWindows {
  const entries = Object.entries(windows);
  if (entries.length <= MAX_TOOLS_PER_RULE) return windows;
  entries.sort((a, b) => b[1].start - a[1].start);
  return Object.fromEntries(entries.slice(0, MAX_TOOLS_PER_RULE));
}

const NOUNS: Record<AlertCondition["event"], [string, string]> = {
  result_errored: ["result errored", "results errored"],
  envelope_failed: ["envelope said success: false", "envelopes said success: false"],
  low_confidence: ["result with low confidence", "results with low confidence"],
  next_action: ["result asked for a next action", "results asked for a next action"],
  slow_call: ["slow call", "slow calls"],
  error_rate: ["errored result above the error rate", "errored results above the error rate"],
  call_timed_out: ["call timed out", "calls timed out"],
  pending_too_long: ["call pending too long", "calls pending too long"],
  waiting_for_person: ["request waiting for a person", "requests waiting for a person"],
  new_tool: ["new tool", "new tools"],
};

/** "deploy failures: 3 results errored (tool deploy)". */
export function alertTitle(name: string, when: AlertCondition, count: number): string {
  const [one, many] = NOUNS[when.event];
  return `${name}: ${count} ${count === 1 ? one : many}${when.tool ? ` (tool ${when.tool})` : ""}`;
}

/** The condition as a person reads it on the rules page. */
export function describeCondition(when: AlertCondition): string {
  const scope = [when.tool && `tool ${when.tool}`, when.thread && `thread ${when.thread}`].filter(Boolean).join(", ");
  const what = (() => {
    switch (when.event) {
      case "result_errored":
        return "a result is an error";
      case "envelope_failed":
        return "an envelope says success: false";
      case "low_confidence":
        return `confidence below ${when.below}`;
      case "next_action":
        return `nextAction is ${when.equals}`;
      case "slow_call":
        return `latency above ${seconds(when.above_ms)}`;
      case "error_rate":
        return `error rate above ${when.above_percent} % over ${seconds(when.window_ms)} (at least ${when.min_count} results)`;
      case "call_timed_out":
        return "a call timed out";
      case "pending_too_long":
        return `a call pending longer than ${seconds(when.above_ms)}`;
      case "waiting_for_person":
        return `a held result or approval waiting longer than ${seconds(when.above_ms)}`;
      case "new_tool":
        return "a tool never seen before is called";
    }
  })();
  return scope ? `${what} (${scope})` : what;
}
