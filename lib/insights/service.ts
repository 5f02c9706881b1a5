// Insights for /insights and GET /api/insights: how confident results are, what tools asked for next,
// which tools fail and how, which tools are slow. Bands come from lib/results confidenceBand.
import "server-only";
import { getDatabase, type Database } from "../db/client.ts";
import { confidenceBand, NEXT_ACTIONS } from "../results/envelope.ts";
import { BAND_ADVICE } from "../results/verdict.ts";
import { percentile } from "./percentile.ts";
import {
  findFinishedCalls,
  readInsightsTallies,
  type ErrorGroup,
  type FinishedCall,
  type InsightsTallies,
} from "./repository.ts";
import type { ConfidenceBucket, ConfidenceDistribution, InsightsData, ToolDuration, ToolErrors } from "./schemas.ts";

export const DURATION_SAMPLE_LIMIT = 5000;
export const SLOWEST_TOOLS = 12;
const BUCKETS = 10;
/** The error type shown for calls whose deadline passed with no result (they have no result to carry a type). */
export const DEADLINE_PASSED = "deadline passed";

function confidenceDistribution(
  tallies: Pick<InsightsTallies, "confidenceTenths" | "confidenceOutOfRange">,
): ConfidenceDistribution {
  // Bucket edges are tenths, so the seed's band edges (0.5, 0.8) are bucket edges and each bucket has one band.
  const buckets: ConfidenceBucket[] = Array.from({ length: BUCKETS }, (_, i) => ({
    from: i / BUCKETS,
    to: (i + 1) / BUCKETS,
    count: tallies.confidenceTenths[i] ?? 0,
    band: confidenceBand(i / BUCKETS).band,
  }));
  const outOfRange = tallies.confidenceOutOfRange;
  // The advice is the verdict's (lib/results/verdict), word for word, so the call page and Insights say the same.
  const bands = (["high", "medium", "low"] as const).map((band) => ({
    band,
    count: buckets.filter((b) => b.band === band).reduce((sum, b) => sum + b.count, 0),
    suggestion: BAND_ADVICE[band],
  }));
  // Every stored confidence is finite (lib/ingest/result-columns), so these two ranges hold them all.
  const total = buckets.reduce((sum, b) => sum + b.count, 0) + outOfRange;
  return { buckets, outOfRange, total, bands };
}

/** What kind of error a result was: the envelope's error.type, else the signal that made it an error. */
export function errorTypeOf(group: Pick<ErrorGroup, "errorType" | "errorSource">): string {
  if (group.errorType) return group.errorType;
  if (group.errorSource === "mcp") return "MCP isError";
  if (group.errorSource === "error_prefix") return '"Error: " text';
  if (group.errorSource === "envelope") return "envelope failure (no type)";
  return "error";
}

export function summarizeErrors(
  groups: ErrorGroup[],
  timedOut: Map<string, number>,
): { errorsByTool: ToolErrors[]; errorTypes: string[] } {
  const byTool = new Map<string, Map<string, number>>();
  const add = (tool: string, type: string, count: number) => {
    const types = byTool.get(tool) ?? new Map<string, number>();
    types.set(type, (types.get(type) ?? 0) + count);
    byTool.set(tool, types);
  };
  for (const group of groups) add(group.toolName, errorTypeOf(group), group.count);
  for (const [tool, count] of timedOut) add(tool, DEADLINE_PASSED, count);
  const typeTotals = new Map<string, number>();
  for (const types of byTool.values())
    for (const [type, count] of types) typeTotals.set(type, (typeTotals.get(type) ?? 0) + count);
  const errorTypes = [...typeTotals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([type]) => type);
  const errorsByTool = [...byTool]
    .map(([toolName, types]) => ({
      toolName,
      total: [...types.values()].reduce((sum, n) => sum + n, 0),
      types: errorTypes.flatMap((type) => {
        const count = types.get(type);
        return count ? [{ type, count }] : [];
      }),
    }))
    .sort((a, b) => b.total - a.total || a.toolName.localeCompare(b.toolName));
  return { errorsByTool, errorTypes };
}

/** A call's duration: the tool's own meta.durationMs when it reported one, else first result − request time. */
export function durationOf(call: FinishedCall): number | null {
  if (call.metaDurationMs !== null && Number.isFinite(call.metaDurationMs) && call.metaDurationMs >= 0)
    return call.metaDurationMs;
  const ms = call.finishedAt.getTime() - call.requestedAt.getTime();
  // A runtime clock ahead of ours (occurred_at in our future) would give a negative duration: not a measurement.
  return ms >= 0 ? ms : null;
}

export function summarizeDurations(calls: FinishedCall[], limit: number): ToolDuration[] {
  const byTool = new Map<string, { durations: number[]; fromMeta: number }>();
  for (const call of calls) {
    const ms = durationOf(call);
    if (ms === null) continue;
    const entry = byTool.get(call.toolName) ?? { durations: [], fromMeta: 0 };
    entry.durations.push(ms);
    if (call.metaDurationMs !== null && ms === call.metaDurationMs) entry.fromMeta += 1;
    byTool.set(call.toolName, entry);
  }
  return [...byTool]
    .map(([toolName, { durations, fromMeta }]) => {
      const sorted = durations.sort((a, b) => a - b);
      return {
        toolName,
        samples: sorted.length,
        p50Ms: percentile(sorted, 50),
        p95Ms: percentile(sorted, 95),
        maxMs: sorted[sorted.length - 1] ?? 0,
        fromMeta,
      };
    })
    .sort((a, b) => b.p95Ms - a.p95Ms || b.p50Ms - a.p50Ms || a.toolName.localeCompare(b.toolName))
    .slice(0, limit);
}

export async function getInsights(options: { database?: Database; now?: Date } = {}): Promise<InsightsData> {
  const database = options.database ?? (await getDatabase());
  // Two reads: the tallies (a few dozen rows) and the newest finished calls (bounded by the primary key).
  const [tallies, finished] = await Promise.all([
    readInsightsTallies(database.client),
    findFinishedCalls(database.client, DURATION_SAMPLE_LIMIT),
  ]);
  const confidence = confidenceDistribution(tallies);
  // Every defined action, in the seed's order, even at zero: an absent bar is information too.
  const nextActions = NEXT_ACTIONS.map((action) => ({ action, count: tallies.nextActions.get(action) ?? 0 }));
  const { errorsByTool, errorTypes } = summarizeErrors(tallies.errors, tallies.timedOutByTool);
  return {
    generatedAt: (options.now ?? new Date()).toISOString(),
    results: { total: tallies.results, withEnvelope: tallies.results - tallies.withoutEnvelope },
    confidence,
    nextActions,
    errorsByTool,
    errorTypes,
    slowestTools: summarizeDurations(finished, SLOWEST_TOOLS),
    durationSampleLimit: DURATION_SAMPLE_LIMIT,
    durationSampled: finished.length,
  };
}
