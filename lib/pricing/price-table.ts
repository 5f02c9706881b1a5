// The checked-in price table: USD per million tokens for common Anthropic, OpenAI and Gemini models, with the date
// the prices were read and where from. Prices change: a server overrides or extends them with TOOLSCOPE_PRICES
// (lib/pricing/settings.ts). Client-safe data, no behaviour.

/** USD per million tokens. `cachedInput` is what a cache hit costs; absent, cached input costs `input`. */
export type ModelPrice = { input: number; output: number; cachedInput?: number };

export type PriceTable = {
  /** When these prices were read from the sources below (YYYY-MM-DD). */
  asOf: string;
  source: string;
  /** Keyed by the model id as the vendor's API names it, without a dated snapshot suffix. */
  models: Record<string, ModelPrice>;
};

/**
 * Standard (not batch, not priority) prices for prompts under each vendor's long-context threshold: Gemini 2.5 Pro
 * and Claude Sonnet 4.x charge more above 200k prompt tokens, which this table does not model.
 */
export const PRICE_TABLE: PriceTable = {
  asOf: "2025-10-15",
  source:
    "The vendors' public price pages: openai.com/api/pricing, anthropic.com/pricing (API), ai.google.dev/gemini-api/docs/pricing (paid tier, text).",
  models: {
    // OpenAI
    "gpt-5": { input: 1.25, cachedInput: 0.125, output: 10 },
    "gpt-5-mini": { input: 0.25, cachedInput: 0.025, output: 2 },
    "gpt-5-nano": { input: 0.05, cachedInput: 0.005, output: 0.4 },
    "gpt-4.1": { input: 2, cachedInput: 0.5, output: 8 },
    "gpt-4.1-mini": { input: 0.4, cachedInput: 0.1, output: 1.6 },
    "gpt-4.1-nano": { input: 0.1, cachedInput: 0.025, output: 0.4 },
    "gpt-4o": { input: 2.5, cachedInput: 1.25, output: 10 },
    "gpt-4o-mini": { input: 0.15, cachedInput: 0.075, output: 0.6 },
    o3: { input: 2, cachedInput: 0.5, output: 8 },
    "o3-mini": { input: 1.1, cachedInput: 0.55, output: 4.4 },
    "o4-mini": { input: 1.1, cachedInput: 0.275, output: 4.4 },
    o1: { input: 15, cachedInput: 7.5, output: 60 },
    // Anthropic (cache reads at 0.1× input; cache writes are charged here at the input price)
    "claude-opus-4-1": { input: 15, cachedInput: 1.5, output: 75 },
    "claude-opus-4": { input: 15, cachedInput: 1.5, output: 75 },
    "claude-sonnet-4-5": { input: 3, cachedInput: 0.3, output: 15 },
    "claude-sonnet-4": { input: 3, cachedInput: 0.3, output: 15 },
    "claude-3-7-sonnet": { input: 3, cachedInput: 0.3, output: 15 },
    "claude-haiku-4-5": { input: 1, cachedInput: 0.1, output: 5 },
    "claude-3-5-haiku": { input: 0.8, cachedInput: 0.08, output: 4 },
    // Google Gemini API
    "gemini-2.5-pro": { input: 1.25, cachedInput: 0.125, output: 10 },
    "gemini-2.5-flash": { input: 0.3, cachedInput: 0.03, output: 2.5 },
    "gemini-2.5-flash-lite": { input: 0.1, cachedInput: 0.01, output: 0.4 },
    "gemini-2.0-flash": { input: 0.1, cachedInput: 0.025, output: 0.4 },
    "gemini-2.0-flash-lite": { input: 0.075, output: 0.3 },
  },
};
