// Forks over HTTP and in the pages: the request and answer shapes (zod, the one source for validation, types and
// the OpenAPI document) and the DTOs the fork pages receive. Client-safe.
import { z } from "zod";
import { displaySegmentSchema, groupIdentifier, identifier } from "../ingest/schemas.ts";
import { MODEL_APIS } from "../models/schemas.ts";

export const FORK_STATUSES = ["running", "awaiting_results", "finished", "step_limit", "failed", "cancelled"] as const;
export type ForkStatus = (typeof FORK_STATUSES)[number];

export const FORK_STATUS_LABELS: Record<ForkStatus, string> = {
  running: "model answering",
  awaiting_results: "waiting for tool results",
  finished: "finished (no tool called)",
  step_limit: "stopped at the step limit",
  failed: "failed",
  cancelled: "stopped",
};

export const TURN_STATUSES = ["streaming", "completed", "failed", "cancelled"] as const;
export type TurnStatus = (typeof TURN_STATUSES)[number];

export const DEFAULT_MAX_TURNS = 10;
export const MAX_MAX_TURNS = 100;

const callRef = identifier().describe("A call's id in the original thread (its group_id-scoped id)");
const eventIndex = z
  .number()
  .int()
  .min(0)
  .describe("0-based index of an event in the original's replay timeline (event N of the replay is index N-1)");

export const forkEditSchema = z
  .union([
    z.strictObject({ call: callRef, text: z.string().describe("New result text (the model sees this)") }),
    z.strictObject({
      call: callRef,
      envelope: z
        .record(z.string(), z.unknown())
        .describe("Fields merged into the result's JSON envelope (success, confidence, nextAction, error, data, …)"),
    }),
    z.strictObject({
      call: callRef,
      display_as: z
        .array(displaySegmentSchema)
        .nullable()
        .describe("New display segments (for people; the model never sees them)"),
    }),
    z.strictObject({
      call: callRef,
      arguments: z.string().describe("New argument text of the call, sent as the model's own"),
    }),
    z.strictObject({ drop: eventIndex.describe("Leave this event out (a tool call drops its result with it)") }),
    z.strictObject({
      insert: z.strictObject({
        after: z.number().int().min(-1).describe("Index of the event it follows; -1 puts it first"),
        role: z.enum(["system", "user", "assistant"]),
        text: z.string().min(1),
      }),
    }),
  ])
  .meta({ id: "ForkEdit" });
export type ForkEdit = z.infer<typeof forkEditSchema>;

export const createForkSchema = z
  .strictObject({
    step: z.number().int().min(1).describe("Events of the original kept (the replay's step N: events 1..N)"),
    model: z.string().min(1).max(100).describe("A target name from TOOLSCOPE_MODELS"),
    edits: z.array(forkEditSchema).max(1000).default([]),
    max_turns: z
      .number()
      .int()
      .min(1)
      .max(MAX_MAX_TURNS)
      .default(DEFAULT_MAX_TURNS)
      .describe("The run stops after this many model turns"),
    group_id: groupIdentifier().optional().describe("The fork's group_id (default: fork-<random>)"),
    wait: z
      .boolean()
      .default(true)
      .describe(
        "true: answer 201 once the first model turn is stored; false: answer 202 at once, the turn runs on the server",
      ),
  })
  .meta({ id: "CreateFork" });
export type CreateForkInput = z.infer<typeof createForkSchema>;

export const continueForkSchema = z
  .strictObject({
    wait: z.boolean().default(true).describe("true: answer 201 once the turn is stored; false: 202 at once"),
  })
  .meta({ id: "ContinueFork" });

export const answerCallSchema = z
  .union([
    z.strictObject({
      from: z
        .literal("recording")
        .describe("The recorded result of the original's call with the same tool and arguments"),
    }),
    z.strictObject({ text: z.string(), display_as: z.array(displaySegmentSchema).nullable().optional() }),
  ])
  .meta({ id: "AnswerForkCall" });
export type AnswerCallInput = z.infer<typeof answerCallSchema>;

export const usageViewSchema = z.object({
  inputTokens: z.number().int().nullable(),
  outputTokens: z.number().int().nullable(),
  totalTokens: z.number().int().nullable(),
  cachedInputTokens: z.number().int().nullable(),
  reasoningTokens: z.number().int().nullable(),
});

export const turnViewSchema = z
  .object({
    ordinal: z.number().int(),
    status: z.enum(TURN_STATUSES),
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
    historyEvents: z.number().int(),
    requestBytes: z.number().int(),
    requestSha256: z.string(),
    live: z.object({
      text: z.string(),
      reasoning: z.string(),
      calls: z.array(z.object({ id: z.string().nullable(), name: z.string(), arguments: z.string() })),
    }),
    stopReason: z.string().nullable(),
    toolCalls: z.number().int(),
    error: z
      .object({
        httpStatus: z.number().int().nullable(),
        text: z.string().describe("The provider's error body or event, verbatim (keys masked)"),
      })
      .nullable(),
    usage: usageViewSchema,
    skipped: z.array(z.object({ index: z.number().int(), reason: z.string() })),
  })
  .meta({ id: "ModelTurn" });

export const forkCreatedSchema = z
  .object({
    group_id: z.string().describe("The fork's own thread"),
    fork_of: z.string(),
    at_step: z.number().int(),
    model: z.string(),
    api: z.enum(MODEL_APIS),
    status: z.enum(FORK_STATUSES),
    turn: turnViewSchema.nullable().describe("The turn this request started; null with wait=false until it is stored"),
  })
  .meta({ id: "ForkCreated" });
export type ForkCreated = z.infer<typeof forkCreatedSchema>;

export const forkAnswerSchema = z
  .object({
    group_id: z.string(),
    id: z.string().describe("The fork call's id"),
    result_id: z.number().int(),
    answered_by: z.enum(["recording", "manual"]),
    recorded_from: z.object({ group_id: z.string(), id: z.string() }).nullable(),
  })
  .meta({ id: "ForkCallAnswered" });
export type ForkAnswer = z.infer<typeof forkAnswerSchema>;

// ─── DTOs (zod first, so the OpenAPI document and the types are one source) ───────────────────

export type UsageView = z.infer<typeof usageViewSchema>;
export type TurnView = z.infer<typeof turnViewSchema>;

export const recordingMatchSchema = z.object({
  callKey: z.string().describe("The original's call whose result would answer"),
  callRowId: z.number().int(),
  resultId: z.number().int(),
  preview: z.string(),
  isError: z.boolean(),
});
export type RecordingMatch = z.infer<typeof recordingMatchSchema>;

export const forkCallViewSchema = z
  .object({
    callRowId: z.number().int(),
    callKey: z.string().describe("The id a runtime answers with through /api/callback, with the fork's group_id"),
    toolName: z.string(),
    argumentsPreview: z.string(),
    status: z.string(),
    turn: z.number().int().nullable().describe("The model turn (step) that asked for it"),
    answeredBy: z.enum(["recording", "manual", "callback", "history"]).nullable(),
    recordedFrom: z
      .object({ groupId: z.string(), callKey: z.string(), callRowId: z.number().int().nullable() })
      .nullable(),
    resultPreview: z.string().nullable(),
    recording: recordingMatchSchema
      .nullable()
      .describe("For a pending call: the original's result for the same tool and arguments, if any"),
  })
  .meta({ id: "ForkCall" });
export type ForkCallView = z.infer<typeof forkCallViewSchema>;

export const forkViewSchema = z
  .object({
    groupId: z.string(),
    forkOf: z.object({ groupId: z.string(), atStep: z.number().int(), exists: z.boolean() }),
    target: z.object({ name: z.string(), api: z.enum(MODEL_APIS), model: z.string(), configured: z.boolean() }),
    status: z.enum(FORK_STATUSES),
    maxTurns: z.number().int(),
    completedTurns: z.number().int(),
    historyEvents: z.number().int(),
    edits: z.array(forkEditSchema),
    turns: z.array(turnViewSchema),
    usage: usageViewSchema.describe("All turns added up"),
    calls: z
      .array(forkCallViewSchema)
      .describe("The calls the fork's model asked for (the copied history's calls are left out)"),
    pendingCallKeys: z.array(z.string()),
    canContinue: z.boolean(),
    continueBlocked: z.string().nullable().describe("Why Continue is not possible now"),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Fork" });
export type ForkView = z.infer<typeof forkViewSchema>;

export const forkSummarySchema = z
  .object({
    groupId: z.string(),
    atStep: z.number().int(),
    target: z.string(),
    model: z.string(),
    status: z.enum(FORK_STATUSES),
    turns: z.number().int(),
    totalTokens: z.number().int().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: "ForkSummary" });
export type ForkSummary = z.infer<typeof forkSummarySchema>;

/** What a thread page shows about forks: the thread it was forked from, and the forks made from it. */
export type ForkLinksView = {
  forkOf: { groupId: string; atStep: number; exists: boolean } | null;
  forks: ForkSummary[];
};
