// Recording the runtime's trace events (POST /api/events): call registrations, model output, reasoning,
// errors, subscription cancellations. Each event is its own transaction; a batch answers per item.
import { getDatabase, type Database, type ModelClient } from "../db/client.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { AppError } from "../http/app-error.ts";
import { formatIssuePath } from "../ingest/raw-delivery.ts";
import { sha256Hex } from "../results/hash.ts";
import { encodeStoredText } from "../results/text-codec.ts";
import {
  cancelCall,
  createCall,
  createEvent,
  ensureThread,
  findLatestEventOfCall,
  findRegisteredCall,
} from "./repository.ts";
import { MAX_BATCH, traceEventSchema, type EventRecorded, type ToolCallEvent, type TraceEvent } from "./schemas.ts";

export type EventReply = { status: number; body: unknown };

function recorded(event: TraceEvent, eventId: number, id?: string): EventRecorded {
  return { status: "recorded", type: event.type, group_id: event.group_id, ...(id === undefined ? {} : { id }), event_id: eventId };
}

function occurredAt(event: TraceEvent, receivedAt: Date): Date {
  return event.occurred_at ? new Date(event.occurred_at) : receivedAt;
}

/** What makes two registrations of one call "the same": everything the runtime said about it. */
function registrationHash(event: ToolCallEvent): string {
  const { occurred_at: _occurredAt, ...identity } = event;
  return sha256Hex(JSON.stringify(identity, Object.keys(identity).sort()));
}

export function describeArguments(args: ToolCallEvent["arguments"]): {
  text: string | null;
  json: string | null;
  error: string | null;
} {
  if (args === undefined) return { text: null, json: null, error: null };
  if (typeof args !== "string") {
    const text = JSON.stringify(args);
    return { text, json: text, error: null };
  }
  try {
    return { text: args, json: JSON.stringify(JSON.parse(args)), error: null };
  } catch (error) {
    return { text: args, json: null, error: error instanceof SyntaxError ? error.message : "not JSON" };
  }
}

async function registerCall(tx: ModelClient, event: ToolCallEvent, receivedAt: Date): Promise<EventReply> {
  const at = occurredAt(event, receivedAt);
  const hash = registrationHash(event);
  const existing = await findRegisteredCall(tx, event.group_id, event.id);
  if (existing) {
    if (existing.registrationSha256 !== hash) {
      throw new AppError("conflict", `Call "${event.id}" is already registered in thread "${event.group_id}" with different content`);
    }
    return { status: 200, body: recorded(event, existing.eventId ?? 0, event.id) };
  }
  const threadId = await ensureThread(tx, event.group_id, at, event.vendor ?? null);
  const args = describeArguments(event.arguments);
  const encodedArgs = args.text === null ? null : encodeStoredText(args.text);
  const deadline = event.deadline ? new Date(event.deadline) : event.timeout_ms ? new Date(at.getTime() + event.timeout_ms) : null;
  const callRowId = await createCall(tx, {
    threadId,
    groupId: event.group_id,
    callKey: event.id,
    callId: event.call_id ?? null,
    toolName: event.name,
    argumentsText: encodedArgs?.stored ?? null,
    argumentsEscaped: encodedArgs?.escaped ?? false,
    argumentsJson: args.json,
    argumentsError: args.error,
    declarationJson: event.declaration ? JSON.stringify(event.declaration) : null,
    outputSchemaJson: event.declaration?.outputSchema === undefined ? null : JSON.stringify(event.declaration.outputSchema),
    vendor: event.vendor ?? null,
    step: event.step ?? null,
    subscription: event.subscription ? "active" : null,
    requestedAt: at,
    deadlineAt: deadline,
    registrationSha256: hash,
  });
  const eventId = await createEvent(tx, { threadId, kind: "tool_call", toolCallId: callRowId, step: event.step ?? null, source: "api", occurredAt: at });
  return { status: 201, body: recorded(event, eventId, event.id) };
}

async function cancelSubscription(tx: ModelClient, event: Extract<TraceEvent, { type: "subscription_cancel" }>, receivedAt: Date): Promise<EventReply> {
  const call = await findRegisteredCall(tx, event.group_id, event.id);
  if (!call) throw new AppError("unknown_call", `No registered call "${event.id}" in thread "${event.group_id}"`);
  if (call.subscription === "cancelled") {
    const eventId = await findLatestEventOfCall(tx, call.id, "subscription_cancelled");
    return { status: 200, body: recorded(event, eventId ?? 0, event.id) };
  }
  if (call.subscription !== "active") {
    throw new AppError("conflict", `Call "${event.id}" is not an active subscription`);
  }
  const at = occurredAt(event, receivedAt);
  const threadId = await ensureThread(tx, event.group_id, at, null);
  await cancelCall(tx, call.id, at, call.status === "pending");
  const eventId = await createEvent(tx, {
    threadId,
    kind: "subscription_cancelled",
    toolCallId: call.id,
    text: event.reason ?? null,
    step: event.step ?? null,
    source: "api",
    occurredAt: at,
  });
  return { status: 201, body: recorded(event, eventId, event.id) };
}

async function recordTimelineEvent(tx: ModelClient, event: Exclude<TraceEvent, { type: "tool_call" | "subscription_cancel" }>, receivedAt: Date): Promise<EventReply> {
  const at = occurredAt(event, receivedAt);
  const threadId = await ensureThread(tx, event.group_id, at, null);
  let toolCallId: number | null = null;
  if (event.type === "error" && event.id !== undefined) {
    const call = await findRegisteredCall(tx, event.group_id, event.id);
    if (!call) throw new AppError("unknown_call", `No registered call "${event.id}" in thread "${event.group_id}"`);
    toolCallId = call.id;
  }
  const text = event.type === "error" ? event.message : event.text;
  const encoded = encodeStoredText(text);
  const eventId = await createEvent(tx, {
    threadId,
    kind: event.type,
    toolCallId,
    step: event.step ?? null,
    role: event.type === "message" ? event.role : event.type === "output_text" || event.type === "reasoning" ? "assistant" : null,
    text: encoded.stored,
    textEscaped: encoded.escaped,
    dataJson: event.type === "error" && event.layer ? JSON.stringify({ layer: event.layer }) : null,
    source: "api",
    occurredAt: at,
  });
  return { status: 201, body: recorded(event, eventId, event.type === "error" ? event.id : undefined) };
}

async function recordOne(db: Database, value: unknown, receivedAt: Date): Promise<EventReply> {
  const parsed = traceEventSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue ? formatIssuePath(issue.path) : "";
    throw new AppError("invalid", issue ? `${path || "event"}: ${issue.message}` : "Invalid event", { path: path || undefined });
  }
  const event = parsed.data;
  const run = () =>
    db.transaction((tx) => {
      if (event.type === "tool_call") return registerCall(tx, event, receivedAt);
      if (event.type === "subscription_cancel") return cancelSubscription(tx, event, receivedAt);
      return recordTimelineEvent(tx, event, receivedAt);
    });
  try {
    return await run();
  } catch (error) {
    // Two registrations of one call (or one thread) racing: the loser retries and sees the winner's row.
    if (isUniqueViolation(error)) return run();
    throw error;
  }
}

async function replyFor(db: Database, value: unknown, receivedAt: Date): Promise<EventReply> {
  try {
    return await recordOne(db, value, receivedAt);
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, body: error.toBody() };
    throw error;
  }
}

/** POST /api/events: one event (answered with its own status) or an array (207, one result per item, in order). */
export async function recordEvents(body: unknown, options: { database?: Database; receivedAt?: Date } = {}): Promise<EventReply> {
  const db = options.database ?? (await getDatabase());
  const receivedAt = options.receivedAt ?? new Date();
  if (!Array.isArray(body)) return replyFor(db, body, receivedAt);
  if (body.length === 0) throw new AppError("invalid", "An event batch must hold at least one event");
  if (body.length > MAX_BATCH) throw new AppError("invalid", `An event batch holds at most ${MAX_BATCH} events, got ${body.length}`);
  const results = [];
  for (const [index, item] of body.entries()) {
    const reply = await replyFor(db, item, receivedAt);
    results.push({ index, status: reply.status, body: reply.body });
  }
  return { status: 207, body: { results } };
}
