// Recording the runtime's trace events (POST /api/events): call registrations, model output, reasoning,
// errors, subscription cancellations. Each event is its own transaction; a batch answers per item.
import "server-only";
import { getDatabase, type Database, type ModelClient } from "../db/client.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { AppError } from "../http/app-error.ts";
import { formatIssuePath } from "../http/issue-path.ts";
import { isLosslessNumber, parseJsonLossless, stringifyJsonLossless } from "../formats/lossless-json.ts";
import { sha256Hex } from "../results/hash.ts";
import { encodeStoredText } from "../results/text-codec.ts";
import {
  anyCallExists,
  cancelCall,
  createCall,
  createEvent,
  ensureThread,
  setThreadVendor,
  touchThread,
  findLatestEventOfCall,
  findRegisteredCall,
  insertCallsWithEvents,
  type NewCall,
  type NewCallWithEvent,
} from "./repository.ts";
import { MAX_BATCH, traceEventSchema, type EventRecorded, type ToolCallEvent, type TraceEvent } from "./schemas.ts";

export type EventReply = { status: number; body: unknown };

/**
 * Per-transaction memo of threads: a batch touching one thread upserts it once and moves its
 * lastActivityAt once, at the end (flushThreads).
 */
type BatchContext = { threads: Map<string, { id: number; latest: Date; vendor: string | null }> };

const newContext = (): BatchContext => ({ threads: new Map() });

async function threadFor(
  tx: ModelClient,
  context: BatchContext,
  groupId: string,
  at: Date,
  vendor: string | null,
): Promise<number> {
  const known = context.threads.get(groupId);
  if (known) {
    if (known.latest < at) known.latest = at;
    if (known.vendor === null && vendor !== null) {
      await setThreadVendor(tx, known.id, vendor);
      known.vendor = vendor;
    }
    return known.id;
  }
  const thread = await ensureThread(tx, groupId, at, vendor);
  context.threads.set(groupId, { id: thread.id, latest: at, vendor: thread.vendor });
  return thread.id;
}

async function flushThreads(tx: ModelClient, context: BatchContext): Promise<void> {
  for (const { id, latest } of context.threads.values()) await touchThread(tx, id, latest);
}

function recorded(event: TraceEvent, eventId: number, id?: string): EventRecorded {
  return {
    status: "recorded",
    type: event.type,
    group_id: event.group_id,
    ...(id === undefined ? {} : { id }),
    event_id: eventId,
  };
}

function occurredAt(event: TraceEvent, receivedAt: Date): Date {
  return event.occurred_at ? new Date(event.occurred_at) : receivedAt;
}

/** JSON with every object's keys sorted, numbers with their source digits: equal content, equal text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null && !isLosslessNumber(value)) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return stringifyJsonLossless(value);
}

/** What makes two registrations of one call "the same": everything the runtime said about it. */
function registrationHash(event: ToolCallEvent): string {
  const { occurred_at: _occurredAt, ...identity } = event;
  return sha256Hex(canonicalJson(identity));
}

/**
 * The hash rows registered before canonicalJson carried. Its key list applied at every depth, so nested
 * objects (arguments, declarations) hashed as `{}`: kept only so a runtime re-registering such a call after
 * an upgrade is not refused. New rows never store it.
 */
function legacyRegistrationHash(event: ToolCallEvent): string {
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
    const text = stringifyJsonLossless(args);
    return { text, json: text, error: null };
  }
  try {
    return { text: args, json: stringifyJsonLossless(parseJsonLossless(args)), error: null };
  } catch (error) {
    return { text: args, json: null, error: error instanceof SyntaxError ? error.message : "not JSON" };
  }
}

function newCallRow(event: ToolCallEvent, threadId: number, receivedAt: Date): NewCall {
  const at = occurredAt(event, receivedAt);
  const args = describeArguments(event.arguments);
  const encodedArgs = args.text === null ? null : encodeStoredText(args.text);
  const deadline = event.deadline
    ? new Date(event.deadline)
    : event.timeout_ms
      ? new Date(at.getTime() + event.timeout_ms)
      : null;
  return {
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
    outputSchemaJson:
      event.declaration?.outputSchema === undefined ? null : JSON.stringify(event.declaration.outputSchema),
    vendor: event.vendor ?? null,
    step: event.step ?? null,
    subscription: event.subscription ? "active" : null,
    requestedAt: at,
    deadlineAt: deadline,
    registrationSha256: registrationHash(event),
  };
}

async function registerCall(
  tx: ModelClient,
  context: BatchContext,
  event: ToolCallEvent,
  receivedAt: Date,
): Promise<EventReply> {
  const at = occurredAt(event, receivedAt);
  const hash = registrationHash(event);
  const existing = await findRegisteredCall(tx, event.group_id, event.id);
  if (existing) {
    if (existing.registrationSha256 !== hash && existing.registrationSha256 !== legacyRegistrationHash(event)) {
      throw new AppError(
        "conflict",
        `Call "${event.id}" is already registered in thread "${event.group_id}" with different content`,
      );
    }
    return { status: 200, body: recorded(event, existing.eventId ?? 0, event.id) };
  }
  const threadId = await threadFor(tx, context, event.group_id, at, event.vendor ?? null);
  const callRowId = await createCall(tx, newCallRow(event, threadId, receivedAt));
  const eventId = await createEvent(tx, {
    threadId,
    kind: "tool_call",
    toolCallId: callRowId,
    step: event.step ?? null,
    source: "api",
    occurredAt: at,
  });
  return { status: 201, body: recorded(event, eventId, event.id) };
}

async function cancelSubscription(
  tx: ModelClient,
  context: BatchContext,
  event: Extract<TraceEvent, { type: "subscription_cancel" }>,
  receivedAt: Date,
): Promise<EventReply> {
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
  const threadId = await threadFor(tx, context, event.group_id, at, null);
  await cancelCall(tx, call.id, at, call.status === "pending");
  const reason = event.reason === undefined ? null : encodeStoredText(event.reason);
  const eventId = await createEvent(tx, {
    threadId,
    kind: "subscription_cancelled",
    toolCallId: call.id,
    text: reason?.stored ?? null,
    textEscaped: reason?.escaped ?? false,
    step: event.step ?? null,
    source: "api",
    occurredAt: at,
  });
  return { status: 201, body: recorded(event, eventId, event.id) };
}

async function recordTimelineEvent(
  tx: ModelClient,
  context: BatchContext,
  event: Exclude<TraceEvent, { type: "tool_call" | "subscription_cancel" }>,
  receivedAt: Date,
): Promise<EventReply> {
  let toolCallId: number | null = null;
  if (event.type === "error" && event.id !== undefined) {
    const call = await findRegisteredCall(tx, event.group_id, event.id);
    if (!call) throw new AppError("unknown_call", `No registered call "${event.id}" in thread "${event.group_id}"`);
    toolCallId = call.id;
  }
  const at = occurredAt(event, receivedAt);
  const threadId = await threadFor(tx, context, event.group_id, at, null);
  const text = event.type === "error" ? event.message : event.text;
  const encoded = encodeStoredText(text);
  const eventId = await createEvent(tx, {
    threadId,
    kind: event.type,
    toolCallId,
    step: event.step ?? null,
    role:
      event.type === "message"
        ? event.role
        : event.type === "output_text" || event.type === "reasoning"
          ? "assistant"
          : null,
    text: encoded.stored,
    textEscaped: encoded.escaped,
    dataJson: event.type === "error" && event.layer ? JSON.stringify({ layer: event.layer }) : null,
    source: "api",
    occurredAt: at,
  });
  return { status: 201, body: recorded(event, eventId, event.type === "error" ? event.id : undefined) };
}

function parseEvent(value: unknown): TraceEvent {
  const parsed = traceEventSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue ? formatIssuePath(issue.path) : "";
  throw new AppError("invalid", issue ? `${path || "event"}: ${issue.message}` : "Invalid event", {
    path: path || undefined,
  });
}

/** One event inside `tx`. Rule violations (AppError) are raised before the event writes anything. */
function recordInTransaction(
  tx: ModelClient,
  context: BatchContext,
  event: TraceEvent,
  receivedAt: Date,
): Promise<EventReply> {
  if (event.type === "tool_call") return registerCall(tx, context, event, receivedAt);
  if (event.type === "subscription_cancel") return cancelSubscription(tx, context, event, receivedAt);
  return recordTimelineEvent(tx, context, event, receivedAt);
}

function asReply(error: unknown): EventReply {
  if (error instanceof AppError) return { status: error.status, body: error.toBody() };
  throw error;
}

/** One event in its own transaction; a unique-key race with another writer is retried once. */
async function recordAlone(db: Database, value: unknown, receivedAt: Date): Promise<EventReply> {
  try {
    const event = parseEvent(value);
    const run = () =>
      db.transaction(async (tx) => {
        const context = newContext();
        const reply = await recordInTransaction(tx, context, event, receivedAt);
        await flushThreads(tx, context);
        return reply;
      });
    try {
      return await run();
    } catch (error) {
      // Two registrations of one call (or one thread) racing: the loser retries and sees the winner's row.
      if (isUniqueViolation(error)) return await run();
      throw error;
    }
  } catch (error) {
    return asReply(error);
  }
}

/**
 * A batch in one transaction (one commit instead of one per event); items that break a rule get their
 * own error reply without affecting the others, since rules are checked before anything is written.
 * If the transaction itself fails (e.g. a race with another process), every item is retried alone.
 */
async function recordBatch(db: Database, values: unknown[], receivedAt: Date): Promise<EventReply[]> {
  const fast = await registerNewCalls(db, values, receivedAt);
  if (fast) return fast;
  try {
    return await db.transaction(
      async (tx) => {
        const context = newContext();
        const replies: EventReply[] = [];
        for (const value of values) {
          try {
            replies.push(await recordInTransaction(tx, context, parseEvent(value), receivedAt));
          } catch (error) {
            replies.push(asReply(error));
          }
        }
        await flushThreads(tx, context);
        return replies;
      },
      { timeout: 120_000 },
    );
  } catch (error) {
    if (error instanceof AppError) throw error;
    const replies: EventReply[] = [];
    for (const value of values) replies.push(await recordAlone(db, value, receivedAt));
    return replies;
  }
}

/**
 * The common batch — only new tool_call registrations — written with multi-row INSERTs: a runtime or an
 * import registering thousands of calls should not pay a round trip per row. Returns null (and writes
 * nothing) when the batch holds anything else, so the general path decides it.
 */
async function registerNewCalls(db: Database, values: unknown[], receivedAt: Date): Promise<EventReply[] | null> {
  const events: ToolCallEvent[] = [];
  const keys = new Set<string>();
  for (const value of values) {
    const parsed = traceEventSchema.safeParse(value);
    if (!parsed.success || parsed.data.type !== "tool_call") return null;
    const key = JSON.stringify([parsed.data.group_id, parsed.data.id]);
    if (keys.has(key)) return null;
    keys.add(key);
    events.push(parsed.data);
  }
  return db.transaction(
    async (tx) => {
      if (
        await anyCallExists(
          tx,
          events.map((e) => ({ groupId: e.group_id, callKey: e.id })),
        )
      )
        return null;
      const context = newContext();
      const rows: NewCallWithEvent[] = [];
      for (const event of events) {
        const threadId = await threadFor(
          tx,
          context,
          event.group_id,
          occurredAt(event, receivedAt),
          event.vendor ?? null,
        );
        rows.push({ call: newCallRow(event, threadId, receivedAt), step: event.step ?? null });
      }
      const ids = await insertCallsWithEvents(tx, rows, "api");
      await flushThreads(tx, context);
      return events.map((event, index): EventReply => ({
        status: 201,
        body: recorded(event, ids[index]?.eventId ?? 0, event.id),
      }));
    },
    { timeout: 120_000 },
  );
}

/** POST /api/events: one event (answered with its own status) or an array (207, one result per item, in order). */
export async function recordEvents(
  body: unknown,
  options: { database?: Database; receivedAt?: Date } = {},
): Promise<EventReply> {
  const db = options.database ?? (await getDatabase());
  const receivedAt = options.receivedAt ?? new Date();
  if (!Array.isArray(body)) return recordAlone(db, body, receivedAt);
  if (body.length === 0) throw new AppError("invalid", "An event batch must hold at least one event");
  if (body.length > MAX_BATCH)
    throw new AppError("invalid", `An event batch holds at most ${MAX_BATCH} events, got ${body.length}`);
  const replies = await recordBatch(db, body, receivedAt);
  return {
    status: 207,
    body: { results: replies.map((reply, index) => ({ index, status: reply.status, body: reply.body })) },
  };
}
