// The runtime's side of a trace (POST /api/events), modelled on the seeds' four phases and the
// agent-response stream. zod is the one source for validation, types and the OpenAPI document. Client-safe.
import { z } from "zod";
import { groupIdentifier, identifier, isoInstant, stepNumber, TOOL_NAME_MAX } from "../ingest/schemas.ts";

const groupId = groupIdentifier().describe("Conversation thread identifier (the callback's group_id)");
const callKey = identifier().describe("Tool call identifier, unique within the thread (the callback's id)");
const common = {
  group_id: groupId,
  occurred_at: isoInstant().optional().describe("When it happened (ISO 8601); default: when received"),
  step: stepNumber().optional().describe("Model turn index; calls sharing a step were requested in parallel"),
};

export const toolDeclarationSchema = z
  .looseObject({
    name: identifier(TOOL_NAME_MAX),
    description: z.string().max(100_000).optional(),
    inputSchema: z.unknown().optional().describe("JSON Schema of the arguments"),
    outputSchema: z
      .unknown()
      .optional()
      .describe("JSON Schema of structured results; results are validated against it"),
  })
  .meta({ id: "ToolDeclaration" });

export const toolCallEventSchema = z
  .strictObject({
    type: z.literal("tool_call"),
    ...common,
    id: callKey,
    call_id: identifier().nullable().optional().describe("Secondary id; results must echo it"),
    name: identifier(TOOL_NAME_MAX).describe("Tool name"),
    arguments: z
      .union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())])
      .optional()
      .describe("Raw argument text as the model produced it (kept verbatim), or already-parsed JSON"),
    declaration: toolDeclarationSchema.optional(),
    deadline: isoInstant().optional().describe("After this instant the call is timed out"),
    timeout_ms: z
      .number()
      .int()
      .positive()
      .max(366 * 24 * 3600 * 1000)
      .optional()
      .describe("Deadline relative to occurred_at"),
    subscription: z.boolean().optional().describe("The call starts a subscription: results append until cancelled"),
    vendor: identifier(64).optional().describe("Encoding the call came from, e.g. anthropic, openai-chat, gemini, mcp"),
  })
  .meta({ id: "ToolCallEvent" });

export const outputTextEventSchema = z
  .strictObject({ type: z.literal("output_text"), ...common, text: z.string() })
  .meta({ id: "OutputTextEvent" });

export const messageEventSchema = z
  .strictObject({
    type: z.literal("message"),
    ...common,
    role: z.enum(["system", "user", "assistant"]),
    text: z.string(),
  })
  .meta({ id: "MessageEvent" });

export const reasoningEventSchema = z
  .strictObject({ type: z.literal("reasoning"), ...common, text: z.string() })
  .meta({ id: "ReasoningEvent" });

export const errorEventSchema = z
  .strictObject({
    type: z.literal("error"),
    ...common,
    message: z.string().min(1),
    id: callKey.optional().describe("The call the error belongs to, if any"),
    layer: z.enum(["runtime", "protocol", "model"]).optional(),
  })
  .meta({ id: "ErrorEvent" });

export const subscriptionCancelEventSchema = z
  .strictObject({
    type: z.literal("subscription_cancel"),
    ...common,
    id: callKey,
    reason: z.string().max(2000).optional(),
  })
  .meta({ id: "SubscriptionCancelEvent" });

export const traceEventSchema = z
  .discriminatedUnion(
    "type",
    [
      toolCallEventSchema,
      outputTextEventSchema,
      messageEventSchema,
      reasoningEventSchema,
      errorEventSchema,
      subscriptionCancelEventSchema,
    ],
    { error: "type must be one of tool_call, output_text, message, reasoning, error, subscription_cancel" },
  )
  .meta({ id: "TraceEvent" });

export type TraceEvent = z.infer<typeof traceEventSchema>;
export type ToolCallEvent = z.infer<typeof toolCallEventSchema>;

export const MAX_BATCH = 1000;

export const eventRecordedSchema = z
  .object({
    status: z.literal("recorded"),
    type: z.string(),
    group_id: z.string(),
    id: z.string().optional(),
    event_id: z.number().int(),
  })
  .meta({ id: "EventRecorded" });
export type EventRecorded = z.infer<typeof eventRecordedSchema>;

export const batchResultSchema = z
  .object({
    results: z.array(z.object({ index: z.number().int(), status: z.number().int(), body: z.unknown() })),
  })
  .meta({ id: "EventBatchResult" });
