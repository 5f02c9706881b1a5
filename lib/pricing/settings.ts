// The price table the server uses: the checked-in one (price-table.ts) with TOOLSCOPE_PRICES laid over it —
// a JSON object {"<model id>": {"input": USD/Mtok, "output": USD/Mtok, "cachedInput"?: USD/Mtok}} that adds
// models or replaces their prices. A bad value stops with a message naming the model and field.
import "server-only";
import { setting } from "../config.ts";
import { PRICE_TABLE, type ModelPrice, type PriceTable } from "./price-table.ts";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function priceField(model: string, entry: Record<string, unknown>, field: keyof ModelPrice, required: boolean) {
  const value = entry[field];
  if (value === undefined && !required) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
    throw new Error(
      `TOOLSCOPE_PRICES: "${model}".${field} must be a number ≥ 0 (USD per million tokens), got ${JSON.stringify(value) ?? "nothing"}`,
    );
  return value;
}

/** The checked-in table with `raw` (TOOLSCOPE_PRICES) laid over it; throws naming what is wrong. */
export function parsePriceOverrides(raw: string | undefined, base: PriceTable = PRICE_TABLE): PriceTable {
  if (raw === undefined || raw.trim() === "") return base;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new Error(`TOOLSCOPE_PRICES is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isRecord(parsed))
    throw new Error('TOOLSCOPE_PRICES must be a JSON object: {"<model id>": {"input": 2, "output": 8}}');
  const models: Record<string, ModelPrice> = { ...base.models };
  for (const [model, entry] of Object.entries(parsed)) {
    if (model.trim() === "") throw new Error("TOOLSCOPE_PRICES: a model id is empty");
    if (!isRecord(entry))
      throw new Error(`TOOLSCOPE_PRICES: "${model}" must be an object {input, output, cachedInput?}`);
    const unknown = Object.keys(entry).filter((key) => !["input", "output", "cachedInput"].includes(key));
    if (unknown.length > 0) throw new Error(`TOOLSCOPE_PRICES: "${model}" has unknown field "${unknown[0]}"`);
    const input = priceField(model, entry, "input", true) ?? 0;
    const output = priceField(model, entry, "output", true) ?? 0;
    const cachedInput = priceField(model, entry, "cachedInput", false);
    models[model.trim()] = cachedInput === undefined ? { input, output } : { input, output, cachedInput };
  }
  return {
    ...base,
    models,
    source: `${base.source} Overridden by TOOLSCOPE_PRICES for ${Object.keys(parsed).length} model(s).`,
  };
}

let cached: { raw: string | undefined; table: PriceTable } | null = null;

/** The server's table, read once per value of TOOLSCOPE_PRICES. */
export function serverPriceTable(): PriceTable {
  const raw = setting("TOOLSCOPE_PRICES");
  if (cached === null || cached.raw !== raw) cached = { raw, table: parsePriceOverrides(raw) };
  return cached.table;
}
