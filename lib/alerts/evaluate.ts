// Result alerts, evaluated inside the transaction that commits the results (lib/ingest/commit-batch.ts): the
// enabled rules are read once per group, matched in memory against what the group stored, and only a rule that
// fires writes (its window, its alert, its outbox messages). Nothing is rescanned: an error-rate rule keeps its
// own small sliding window per tool on its row.
import "server-only";
import type { DriverConnection } from "../db/driver.ts";
import {
  addToWindow,
  callRef,
  inScope,
  matchResult,
  parseWindows,
  trimWindows,
  type ResultFacts,
} from "./conditions.ts";
import { fireRule, loadEnabledRules, saveWindows, type LoadedRule } from "./repository.ts";
import { RESULT_EVENTS, type AlertCallRef } from "./schemas.ts";

export type { ResultFacts };

/** Evaluates the enabled result rules against one group's stored results; returns the ids of alerts sent now. */
export async function evaluateResultAlerts(tx: DriverConnection, facts: ResultFacts[], now: Date): Promise<number[]> {
  if (facts.length === 0) return [];
  const rules = await loadEnabledRules(tx, RESULT_EVENTS);
  const fired: number[] = [];
  for (const rule of rules) {
    const matched =
      rule.when.event === "error_rate" ? await errorRateMatches(tx, rule, facts, now) : plain(rule, facts);
    if (matched.count === 0) continue;
    const id = await fireRule(tx, rule, { calls: matched.calls, count: matched.count, now });
    if (id !== null) fired.push(id);
  }
  return fired;
}

function plain(rule: LoadedRule, facts: ResultFacts[]): { calls: AlertCallRef[]; count: number } {
  const calls: AlertCallRef[] = [];
  for (const fact of facts) {
    const detail = matchResult(rule.when, fact);
    if (detail !== null) calls.push(callRef(fact, detail));
  }
  return { calls, count: calls.length };
}

/**
 * Adds the group's in-scope results to each tool's window; the errored results of a tool whose rate is now above
 * the line (with at least min_count results in the window) are what matched.
 */
async function errorRateMatches(
  tx: DriverConnection,
  rule: LoadedRule,
  facts: ResultFacts[],
  now: Date,
): Promise<{ calls: AlertCallRef[]; count: number }> {
  const when = rule.when;
  if (when.event !== "error_rate") return { calls: [], count: 0 };
  const byTool = new Map<string, { total: number; errored: ResultFacts[] }>();
  for (const fact of facts) {
    if (!inScope(when, fact.groupId, fact.toolName)) continue;
    const tool = byTool.get(fact.toolName) ?? { total: 0, errored: [] };
    tool.total += 1;
    if (fact.isError) tool.errored.push(fact);
    byTool.set(fact.toolName, tool);
  }
  if (byTool.size === 0) return { calls: [], count: 0 };
  const windows = parseWindows(rule.windowStateJson);
  const calls: AlertCallRef[] = [];
  let count = 0;
  for (const [tool, seen] of byTool) {
    const counted = addToWindow(windows[tool], {
      now: now.getTime(),
      windowMs: when.window_ms,
      total: seen.total,
      errors: seen.errored.length,
    });
    windows[tool] = counted.window;
    const percent = counted.total > 0 ? (counted.errors / counted.total) * 100 : 0;
    if (seen.errored.length === 0 || counted.total < when.min_count || percent <= when.above_percent) continue;
    const detail = `error rate ${percent.toFixed(0)} % of ${Math.round(counted.total)} results`;
    calls.push(...seen.errored.map((fact) => callRef(fact, detail)));
    count += seen.errored.length;
  }
  await saveWindows(tx, rule.id, JSON.stringify(trimWindows(windows)));
  // Later rules of this group see the window as it is now.
  rule.windowStateJson = JSON.stringify(windows);
  return { calls, count };
}
