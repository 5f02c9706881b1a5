import { describe, expect, it } from "vitest";
import { PRICE_TABLE } from "./price-table.ts";
import { costOf, findPrice } from "./prices.ts";
import { parsePriceOverrides } from "./settings.ts";

describe("findPrice", () => {
  it.each([
    ["gpt-4.1", "gpt-4.1"],
    ["gpt-4.1-2025-04-14", "gpt-4.1"],
    ["gpt-4.1-mini-2025-04-14", "gpt-4.1-mini"],
    ["openai/gpt-4o-mini", "gpt-4o-mini"],
    ["claude-sonnet-4-5-20250929", "claude-sonnet-4-5"],
    ["claude-sonnet-4@20250514", "claude-sonnet-4"],
    ["claude-3-5-haiku-latest", "claude-3-5-haiku"],
    ["models/gemini-2.5-flash", "gemini-2.5-flash"],
    ["gemini-2.0-flash-001", "gemini-2.0-flash"],
    ["GPT-4.1", "gpt-4.1"],
  ])("prices %s as %s", (model, key) => {
    expect(findPrice(PRICE_TABLE, model)?.key).toBe(key);
  });

  it.each([["gpt-4.1-turbo-custom"], ["llama-3.1-70b"], ["my-gpt-4.1"], [""], [null]])(
    "knows no price for %s",
    (model) => {
      expect(findPrice(PRICE_TABLE, model)).toBeNull();
    },
  );
});

describe("costOf", () => {
  it("prices uncached input, cached input and output at their own rates", () => {
    // gpt-4.1: $2 in, $0.50 cached, $8 out per Mtok.
    const price = { input: 2, cachedInput: 0.5, output: 8 };
    expect(costOf({ inputTokens: 812, outputTokens: 37, cachedInputTokens: null }, price)).toBeCloseTo(0.00192, 10);
    expect(costOf({ inputTokens: 1000, outputTokens: 0, cachedInputTokens: 600 }, price)).toBeCloseTo(
      (400 * 2 + 600 * 0.5) / 1e6,
      12,
    );
    // A model with no cache price charges cached input at the input price.
    expect(
      costOf({ inputTokens: 1000, outputTokens: 10, cachedInputTokens: 1000 }, { input: 1, output: 2 }),
    ).toBeCloseTo((1000 + 20) / 1e6, 12);
  });
});

describe("parsePriceOverrides", () => {
  it("adds models and replaces prices, keeping the rest of the table", () => {
    const table = parsePriceOverrides(
      '{"my-llama": {"input": 0.2, "output": 0.6}, "gpt-4.1": {"input": 1, "output": 4, "cachedInput": 0.25}}',
    );
    expect(table.models["my-llama"]).toEqual({ input: 0.2, output: 0.6 });
    expect(table.models["gpt-4.1"]).toEqual({ input: 1, output: 4, cachedInput: 0.25 });
    expect(table.models["gpt-4o"]).toEqual(PRICE_TABLE.models["gpt-4o"]);
    expect(table.source).toContain("TOOLSCOPE_PRICES");
    expect(parsePriceOverrides(undefined)).toBe(PRICE_TABLE);
  });

  it.each([
    ["{", /not JSON/],
    ["[1]", /must be a JSON object/],
    ['{"m": 3}', /"m" must be an object/],
    ['{"m": {"input": 1}}', /"m"\.output must be a number ≥ 0/],
    ['{"m": {"input": -1, "output": 1}}', /"m"\.input must be a number ≥ 0/],
    ['{"m": {"input": 1, "output": 1, "cached": 1}}', /unknown field "cached"/],
  ])("refuses %s with a precise message", (raw, message) => {
    expect(() => parsePriceOverrides(raw)).toThrow(message);
  });
});
