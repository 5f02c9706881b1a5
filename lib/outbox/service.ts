// The outbox as the rest of the server uses it: the process's one dispatcher (started by the server with the
// resolvers of each kind of destination), a wake-up after a commit that queued messages, and the outbox's pages.
import "server-only";
import { getDatabase, type Database } from "../db/client.ts";
import { AppError } from "../http/app-error.ts";
import { decodeTextLossy } from "./text.ts";
import { OutboxDispatcher, type DestinationResolver } from "./dispatcher.ts";
import { countByStatus, findAttempts, findMessage, findMessages } from "./read-repository.ts";
import { retryDead } from "./repository.ts";
import type { OutboxMessageDetail, OutboxPage, OutboxQuery, OutboxAttemptView, OutboxMessageView } from "./schemas.ts";

export { OutboxDispatcher, type DestinationResolver };

const globalForOutbox = globalThis as typeof globalThis & { toolscopeOutbox?: OutboxDispatcher };

/**
 * Starts this process's dispatcher. `resolvers`: one per destination kind, by the prefix before ":" ("relay" for
 * "relay:runtime"); a destination no resolver knows is dead-lettered, saying so.
 */
export function startOutboxDispatcher(options: {
  resolvers: Record<string, DestinationResolver>;
  database?: () => Promise<Database>;
  leaseMs?: number;
}): OutboxDispatcher {
  globalForOutbox.toolscopeOutbox?.stop().catch(() => undefined);
  const dispatcher = new OutboxDispatcher({
    database: options.database ?? getDatabase,
    leaseMs: options.leaseMs,
    resolve: (destination) => {
      const kind = destination.slice(0, destination.indexOf(":"));
      const resolver = options.resolvers[kind];
      return resolver ? resolver(destination) : { problem: `no destination "${destination}" is configured` };
    },
  }).start();
  globalForOutbox.toolscopeOutbox = dispatcher;
  return dispatcher;
}

/** The running dispatcher of this process, or null (a process that serves no outbox, e.g. `next dev` alone). */
export function outboxDispatcher(): OutboxDispatcher | null {
  return globalForOutbox.toolscopeOutbox ?? null;
}

export function installOutboxDispatcher(dispatcher: OutboxDispatcher | null): void {
  globalForOutbox.toolscopeOutbox = dispatcher ?? undefined;
}

/** Tells this process's dispatcher that due messages were just committed. */
export function wakeOutbox(): void {
  globalForOutbox.toolscopeOutbox?.wake();
}

export async function listOutbox(query: OutboxQuery & { toolCallId?: number }): Promise<OutboxPage> {
  const db = await getDatabase();
  const filters = {
    status: query.status,
    destination: query.destination,
    groupId: query.group,
    toolCallId: query.toolCallId,
  };
  const limit = query.limit ?? 50;
  const [items, counts] = await Promise.all([
    findMessages(db.client, { filters, before: query.before ?? null, limit }),
    countByStatus(db.client, { destination: query.destination, groupId: query.group, toolCallId: query.toolCallId }),
  ]);
  const last = items[items.length - 1];
  return {
    generatedAt: new Date().toISOString(),
    items,
    counts,
    nextBefore: items.length === limit && last ? last.id : null,
  };
}

/** One call's outgoing messages (oldest first) with their attempts: the call page's "Delivered to the runtime". */
export async function listCallOutbox(
  toolCallId: number,
): Promise<{ message: OutboxMessageView; attempts: OutboxAttemptView[] }[]> {
  const db = await getDatabase();
  const messages = await findMessages(db.client, {
    filters: { toolCallId },
    before: null,
    limit: 100,
    oldestFirst: true,
  });
  const attempts = await findAttempts(
    db.client,
    messages.map((message) => message.id),
  );
  return messages.map((message) => ({ message, attempts: attempts.get(message.id) ?? [] }));
}

export async function getOutboxMessage(id: number): Promise<OutboxMessageDetail> {
  const db = await getDatabase();
  const found = await findMessage(db.client, id);
  if (!found) throw new AppError("not_found", `No outbox message ${id}`);
  return { ...found.message, body: decodeTextLossy(found.body), attemptList: found.attempts };
}

/** A dead message goes out again, with a fresh budget; 409 unless it is dead. */
export async function retryOutboxMessage(options: { id: number; by: string }): Promise<OutboxMessageDetail> {
  const db = await getDatabase();
  const retried = await db.driverTransaction(
    (tx) => retryDead(tx, { id: options.id, by: options.by, now: new Date() }),
    {
      ordered: false,
    },
  );
  if (!retried) {
    await getOutboxMessage(options.id); // 404 when there is none
    throw new AppError("conflict", `Outbox message ${options.id} is not dead; only dead messages are retried`);
  }
  wakeOutbox();
  return getOutboxMessage(options.id);
}
