// The typed record every way in (OTLP, imports, forks) hands to the model-turn store: its constructor enforces
// what both databases can hold (integers in range, short strings without NUL), so a writer cannot store a
// token count SQLite takes and PostgreSQL refuses. Pure.
import type { TurnSource } from "./schemas.ts";

const INT_MAX = 2_147_483_647;
const LABEL_MAX = 200;

export type ModelTurnRecord = {
  threadId: number;
  eventId: number | null;
  source: TurnSource;
  ordinal: number;
  model: string | null;
  responseId: string | null;
  status: "completed" | "failed";
  stopReason: string | null;
  errorText: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  totalTokens: number | null;
  cachedInputTokens: number | null;
  reasoningTokens: number | null;
  usageJson: string | null;
  startedAt: Date;
  finishedAt: Date | null;
  durationMs: number | null;
};

/** The figures of one turn as an adapter read them (vendor usage already normalised by lib/models/usage.ts). */
export type TurnFigures = {
  model: string | null;
  responseId: string | null;
  stopReason: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  totalTokens: number | null;
  cachedInputTokens: number | null;
  reasoningTokens: number | null;
  /** The vendor's own usage object, verbatim. */
  usage: unknown;
  error: string | null;
};

function count(value: number | null | undefined): number | null {
  if (value === null || value === undefined || !Number.isFinite(value) || value < 0) return null;
  return Math.min(Math.round(value), INT_MAX);
}

function label(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  // Lone surrogates and NUL are not storable on PostgreSQL; a label longer than this is not a model id.
  const clean = value.replaceAll("\u0000", "").toWellFormed().trim();
  if (clean === "") return null;
  return [...clean].length > LABEL_MAX ? `${[...clean].slice(0, LABEL_MAX - 1).join("")}…` : clean;
}

/** A storable record from what a way in read; times in order, counts non-negative integers, labels cut. */
export function modelTurnRecord(options: {
  threadId: number;
  eventId: number | null;
  source: TurnSource;
  ordinal: number;
  figures: TurnFigures;
  startedAt: Date;
  finishedAt: Date | null;
  /** Measured more finely than the two dates (a span's nanoseconds); else their difference. */
  durationMs?: number | null;
}): ModelTurnRecord {
  const { figures, startedAt } = options;
  const finishedAt = options.finishedAt === null || options.finishedAt < startedAt ? null : options.finishedAt;
  let usageJson: string | null = null;
  if (figures.usage !== null && figures.usage !== undefined) {
    try {
      usageJson = JSON.stringify(figures.usage)?.replaceAll("\\u0000", "") ?? null;
    } catch {
      usageJson = null;
    }
  }
  return {
    threadId: options.threadId,
    eventId: options.eventId,
    source: options.source,
    ordinal: Math.max(0, Math.min(Math.round(options.ordinal), INT_MAX)),
    model: label(figures.model),
    responseId: label(figures.responseId),
    status: figures.error === null ? "completed" : "failed",
    stopReason: label(figures.stopReason),
    errorText: figures.error === null ? null : (label(figures.error) ?? "error"),
    inputTokens: count(figures.inputTokens),
    outputTokens: count(figures.outputTokens),
    totalTokens: count(figures.totalTokens),
    cachedInputTokens: count(figures.cachedInputTokens),
    reasoningTokens: count(figures.reasoningTokens),
    usageJson,
    startedAt,
    finishedAt,
    durationMs:
      options.durationMs !== undefined && options.durationMs !== null && Number.isFinite(options.durationMs)
        ? Math.max(0, options.durationMs)
        : finishedAt === null
          ? null
          : finishedAt.getTime() - startedAt.getTime(),
  };
}

function numberOrNull(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

/**
 * The figures a model_turn row keeps in its dataJson (`{turn: {...}}`): how an export carries a turn, and how an
 * import of that export writes it again. Null when the row holds none.
 */
export function turnFiguresFromData(data: unknown): TurnFigures | null {
  if (typeof data !== "object" || data === null || !("turn" in data)) return null;
  const turn: unknown = data.turn;
  if (typeof turn !== "object" || turn === null) return null;
  const field = (key: string): unknown => (key in turn ? (turn as Record<string, unknown>)[key] : undefined);
  return {
    model: stringOrNull(field("model")),
    responseId: stringOrNull(field("responseId")),
    stopReason: stringOrNull(field("stopReason")),
    inputTokens: numberOrNull(field("inputTokens")),
    outputTokens: numberOrNull(field("outputTokens")),
    totalTokens: numberOrNull(field("totalTokens")),
    cachedInputTokens: numberOrNull(field("cachedInputTokens")),
    reasoningTokens: numberOrNull(field("reasoningTokens")),
    usage: field("usage") ?? null,
    error: stringOrNull(field("error")),
  };
}
