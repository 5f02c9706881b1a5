// The model-turn store's reads for pages and routes: turn briefs with their cost, a thread's token totals and
// cost by model (at the server's price table; a model it does not know is "unknown", never priced at 0).
import "server-only";
import type { Database } from "../db/client.ts";
import type { PriceTable } from "../pricing/price-table.ts";
import { costOf, findPrice } from "../pricing/prices.ts";
import { serverPriceTable } from "../pricing/settings.ts";
import { findTurnsByEvent, sumUsageByModel, type UsageByModelRow } from "./repository.ts";
import {
  EMPTY_TURN_USAGE,
  type ModelCost,
  type ModelTurnBrief,
  type ThreadCost,
  type ThreadUsageBrief,
  type TurnUsage,
} from "./schemas.ts";

/** The label a turn that named no model is listed under in `unknownModels`. */
export const NO_MODEL = "(none)";

function addUsage(a: TurnUsage, b: TurnUsage): TurnUsage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
  };
}

/** Turn briefs for these timeline rows, keyed by event id. */
export async function turnBriefsByEvent(
  db: Database,
  eventIds: readonly number[],
  table: PriceTable = serverPriceTable(),
): Promise<Map<number, ModelTurnBrief>> {
  const rows = await findTurnsByEvent(db.client, eventIds);
  const briefs = new Map<number, ModelTurnBrief>();
  for (const row of rows) {
    if (row.eventId === null) continue;
    const price = findPrice(table, row.model);
    briefs.set(row.eventId, { ...row, costUsd: price === null ? null : costOf(row, price.price) });
  }
  return briefs;
}

export type ThreadTurnTotals = { modelTurns: number; usage: TurnUsage; cost: ThreadCost };

function costFromGroups(groups: readonly UsageByModelRow[], table: PriceTable): ThreadTurnTotals {
  const byModel: ModelCost[] = [];
  let usage = EMPTY_TURN_USAGE;
  let modelTurns = 0;
  let usd: number | null = null;
  const unknownModels: string[] = [];
  for (const group of [...groups].sort((a, b) => b.turns - a.turns || (a.model ?? "").localeCompare(b.model ?? ""))) {
    usage = addUsage(usage, group.usage);
    modelTurns += group.turns;
    const price = findPrice(table, group.model);
    const cost = price === null ? null : costOf(group.usage, price.price);
    if (cost === null) unknownModels.push(group.model ?? NO_MODEL);
    else usd = (usd ?? 0) + cost;
    byModel.push({
      model: group.model,
      turns: group.turns,
      usage: group.usage,
      priceKey: price?.key ?? null,
      usd: cost,
    });
  }
  return {
    modelTurns,
    usage,
    cost: {
      currency: "USD",
      usd,
      complete: unknownModels.length === 0,
      unknownModels,
      byModel,
      priceTable: { asOf: table.asOf, source: table.source },
    },
  };
}

/** A thread's turns, tokens and cost (the header, GET /api/threads/{id}/summary). */
export async function threadTurnTotals(
  db: Database,
  threadId: number,
  table: PriceTable = serverPriceTable(),
): Promise<ThreadTurnTotals> {
  return costFromGroups(await sumUsageByModel(db.client, [threadId]), table);
}

/** Tokens and cost of each of these threads (the threads list: one grouped query for the page). */
export async function usageOfThreads(
  db: Database,
  threadIds: readonly number[],
  table: PriceTable = serverPriceTable(),
): Promise<Map<number, ThreadUsageBrief>> {
  const groups = await sumUsageByModel(db.client, threadIds);
  const byThread = new Map<number, UsageByModelRow[]>();
  for (const group of groups) byThread.set(group.threadId, [...(byThread.get(group.threadId) ?? []), group]);
  const out = new Map<number, ThreadUsageBrief>();
  for (const [threadId, rows] of byThread) {
    const totals = costFromGroups(rows, table);
    out.set(threadId, {
      modelTurns: totals.modelTurns,
      usage: totals.usage,
      costUsd: totals.cost.usd,
      costComplete: totals.cost.complete,
    });
  }
  return out;
}
