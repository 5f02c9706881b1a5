// The model-turn DTOs every page and route shares: one turn's figures (a timeline row, a waterfall bar) and a
// thread's totals with their cost. Client-safe: types and zod schemas only.
import { z } from "zod";

/** Where a turn came in: an OTLP chat span, an imported response or stream, a fork's request to a model target. */
export const TURN_SOURCES = ["otel", "import", "fork"] as const;
export type TurnSource = (typeof TURN_SOURCES)[number];

/** Event.kind of the timeline row that shows a model turn. */
export const MODEL_TURN_EVENT = "model_turn";

export const turnUsageSchema = z
  .object({
    inputTokens: z.number().int().describe("Every prompt token, cached ones included"),
    outputTokens: z.number().int().describe("Every generated token, reasoning included"),
    cachedInputTokens: z.number().int().describe("Prompt tokens read from the provider's cache"),
    reasoningTokens: z.number().int().describe("Output tokens spent on reasoning / thinking"),
  })
  .meta({ id: "TokenUsage" });
export type TurnUsage = z.infer<typeof turnUsageSchema>;

export const EMPTY_TURN_USAGE: TurnUsage = {
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  reasoningTokens: 0,
};

/** One turn as a timeline row and waterfall bar show it; null where the source said nothing. */
export type ModelTurnBrief = {
  id: number;
  eventId: number | null;
  source: string;
  model: string | null;
  responseId: string | null;
  status: string;
  stopReason: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  cachedInputTokens: number | null;
  reasoningTokens: number | null;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  /** USD at the server's price table; null when the model is not in it (the row says "unknown model"). */
  costUsd: number | null;
};

export const modelCostSchema = z.object({
  model: z.string().nullable().describe("The model as the turns named it; null for turns that named none"),
  turns: z.number().int(),
  usage: turnUsageSchema,
  priceKey: z.string().nullable().describe("The price-table entry used; null for an unknown model"),
  usd: z.number().nullable().describe("null: unknown model (never 0)"),
});
export type ModelCost = z.infer<typeof modelCostSchema>;

export const threadCostSchema = z
  .object({
    currency: z.literal("USD"),
    usd: z
      .number()
      .nullable()
      .describe("Sum over the models the price table knows; null when it knows none of them (or there are no turns)"),
    complete: z.boolean().describe("false when some turns are of a model the table does not know (see unknownModels)"),
    unknownModels: z.array(z.string()).describe('Models with no price ("(none)" for turns that named no model)'),
    byModel: z.array(modelCostSchema),
    priceTable: z.object({ asOf: z.string(), source: z.string() }),
  })
  .meta({ id: "ThreadCost" });
export type ThreadCost = z.infer<typeof threadCostSchema>;

/** What the threads list shows per thread. */
export type ThreadUsageBrief = { modelTurns: number; usage: TurnUsage; costUsd: number | null; costComplete: boolean };
