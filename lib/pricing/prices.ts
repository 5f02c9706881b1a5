// Pricing one model turn: which table entry a model id names (dated snapshots, provider prefixes) and what its
// tokens cost. Pure and client-safe; the table comes from lib/pricing/settings.ts (checked in, or overridden).
import type { ModelPrice, PriceTable } from "./price-table.ts";

/** Token counts as lib/model-turns keeps them: input includes cached input, output includes reasoning. */
export type PricedUsage = {
  inputTokens: number | null;
  outputTokens: number | null;
  cachedInputTokens: number | null;
};

// A dated or pinned snapshot of a model is priced as the model: gpt-4.1-2025-04-14, claude-sonnet-4-5-20250929,
// claude-3-5-haiku-latest, claude-sonnet-4@20250514 (Vertex), gemini-2.0-flash-001, gemini-2.5-flash-preview-05-20.
const SNAPSHOT_SUFFIX =
  /^(?:[-@](?:\d{4}-\d{2}-\d{2}|\d{8}|\d{3}|latest|preview(?:-\d{2}-\d{2}(?:-\d{4})?)?|exp(?:-\d{4})?))+$/;

/** The id without a provider prefix: `models/gemini-2.5-pro`, `openai/gpt-4.1`, `anthropic/claude-…`. */
function bareModelId(model: string): string {
  const trimmed = model.trim().toLowerCase();
  const slash = trimmed.lastIndexOf("/");
  return slash >= 0 ? trimmed.slice(slash + 1) : trimmed;
}

/** The table entry a model id names, and its key; null for a model the table does not know. */
export function findPrice(table: PriceTable, model: string | null): { key: string; price: ModelPrice } | null {
  if (model === null || model.trim() === "") return null;
  const exact = table.models[model.trim()];
  if (exact) return { key: model.trim(), price: exact };
  const id = bareModelId(model);
  let best: string | null = null;
  for (const key of Object.keys(table.models)) {
    const lower = key.toLowerCase();
    if (id !== lower && !(id.startsWith(lower) && SNAPSHOT_SUFFIX.test(id.slice(lower.length)))) continue;
    if (best === null || key.length > best.length) best = key;
  }
  const price = best === null ? undefined : table.models[best];
  return best === null || price === undefined ? null : { key: best, price };
}

/** USD for these tokens at this price; cached input at the cache price (else the input price). */
export function costOf(usage: PricedUsage, price: ModelPrice): number {
  const input = usage.inputTokens ?? 0;
  const cached = Math.min(usage.cachedInputTokens ?? 0, input);
  const output = usage.outputTokens ?? 0;
  return ((input - cached) * price.input + cached * (price.cachedInput ?? price.input) + output * price.output) / 1e6;
}
