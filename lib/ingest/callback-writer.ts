// The group commit: deliveries queue up while a transaction commits and go into the next one together;
// a database that is locked or down answers at once (503 + Retry-After, refusals keep their status) and the
// audit rows go to the side journal (audit-journal.ts), folded in when writes work again.
import "server-only";
import type { Database } from "../db/client.ts";
import { resolveDatabaseTarget } from "../db/database-url.ts";
import { lockWaitMs } from "../db/lock-wait.ts";
import { databaseUnavailable, isTransientDatabaseError, isUniqueViolation } from "../db/errors.ts";
import { AppError } from "../http/app-error.ts";
import { foldAuditJournal, journalDeliveries } from "./audit-journal.ts";
import {
  auditText,
  baseDelivery,
  commitBatch,
  failedReply,
  rejectionDelivery,
  type CallbackReply,
  type QueueItem,
} from "./commit-batch.ts";
import { insertDeliveries } from "./repository.ts";

/**
 * Group commit: deliveries queue up while a transaction is committing and go into the next one together.
 * SQLite commits one transaction at a time anyway; grouping turns N fsyncs into one. Every caller's promise
 * settles only after its transaction committed (or failed).
 */
export class CallbackWriter {
  /** `queuedAt`: this process's clock when the delivery was submitted (its receivedAt may be set by a caller). */
  private queue: { item: QueueItem; queuedAt: number; resolve: (reply: CallbackReply) => void }[] = [];
  private running = false;

  constructor(
    private readonly database: () => Promise<Database>,
    private readonly maxBatch = 256,
  ) {}

  submit(item: QueueItem): Promise<CallbackReply> {
    return new Promise((resolve) => {
      this.queue.push({ item, queuedAt: Date.now(), resolve });
      if (!this.running) {
        this.running = true;
        // Start on the next macrotask: the SQLite driver is synchronous, so a transaction started right
        // here would run as one unbroken chain of microtasks and no other request could join its batch.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        const settle = (replies: CallbackReply[]) =>
          batch.forEach((entry, index) => entry.resolve(replies[index] ?? failedReply()));
        const outcome = await this.commit(
          batch.map((entry) => entry.item),
          Math.min(...batch.map((entry) => entry.queuedAt)),
        );
        // A refused batch is answered once its journal append is durable; the next batch need not wait for it.
        if ("later" in outcome) void outcome.later.then(settle);
        else settle(outcome);
        // Let requests that arrived during the commit reach the queue before deciding it is empty.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      this.running = false;
    }
  }

  private async commit(
    items: QueueItem[],
    oldest: number,
  ): Promise<CallbackReply[] | { later: Promise<CallbackReply[]> }> {
    let db: Database;
    try {
      db = await this.database();
    } catch (error) {
      return { later: this.refuseAll(null, items, error) };
    }
    try {
      // Each sender waits for the lock at most the lock wait from its arrival, not one more per batch ahead of it.
      const left = Math.max(0, oldest + lockWaitMs() - Date.now());
      const replies = await db.driverTransaction((tx) => commitBatch(tx, items), { lockWaitMs: left });
      if (this.journaled) this.scheduleFold(db);
      return replies;
    } catch (error) {
      // Locked by another process or unreachable (after the bounded wait): answer now, journal the audit rows.
      if (isTransientDatabaseError(error) || isUnavailable(error)) return { later: this.refuseAll(db, items, error) };
      // One bad item, or a race with another process on the same call (its result committed between our
      // read and our insert: a unique-key violation), must not fail its neighbours: retry each alone.
      const replies: CallbackReply[] = [];
      for (const item of items) replies.push(await this.commitAlone(db, item));
      return replies;
    }
  }

  /** One delivery in its own transaction; a lost race is retried, and then sees the winner's result. */
  private async commitAlone(db: Database, item: QueueItem): Promise<CallbackReply> {
    for (let attempt = 1; ; attempt++) {
      try {
        const [reply] = await db.driverTransaction((tx) => commitBatch(tx, [item]));
        return reply ?? failedReply();
      } catch (error) {
        if (isTransientDatabaseError(error) || isUnavailable(error))
          return (await this.refuseAll(db, [item], error))[0] ?? failedReply();
        if (!isUniqueViolation(error) || attempt >= 3) return this.recordFailure(db, item, error);
      }
    }
  }

  /**
   * The database cannot take the batch: refusals keep their own answer (401, 415, …), everything else is a
   * 503 with Retry-After; every audit row goes to the side journal (audit-journal.ts), folded in later.
   */
  private async refuseAll(db: Database | null, items: QueueItem[], error: unknown): Promise<CallbackReply[]> {
    const unavailable = isUnavailable(error) ? error : databaseUnavailable();
    const reason = auditText(`not stored: ${unavailable.message}`);
    const rows = items.map((item) =>
      item.kind === "rejected"
        ? rejectionDelivery(item)
        : {
            ...baseDelivery(item.raw, item.webhookId),
            groupId: item.message.group_id,
            callKey: item.message.id,
            outcome: "failed",
            httpStatus: 503,
            reason,
            result: null,
          },
    );
    try {
      const target = db?.target ?? resolveDatabaseTarget();
      await journalDeliveries(target, rows);
      this.journaled = true;
      if (db) this.scheduleFold(db);
    } catch (journalError) {
      console.error("[toolscope] could not journal refused deliveries", journalError);
    }
    return items.map((item) =>
      item.kind === "rejected"
        ? { status: item.error.status, body: item.error.toBody(), outcome: item.outcome }
        : failedReply(unavailable),
    );
  }

  private journaled = false;
  private foldTimer: NodeJS.Timeout | null = null;

  /** Folds the journal in once the database takes writes again (retried every second until it does). */
  private scheduleFold(db: Database): void {
    if (this.foldTimer) return;
    this.foldTimer = setTimeout(() => {
      this.foldTimer = null;
      foldAuditJournal(db).then(
        () => (this.journaled = false),
        () => this.scheduleFold(db),
      );
    }, 1_000);
    this.foldTimer.unref();
  }

  private async recordFailure(db: Database, item: QueueItem, error: unknown): Promise<CallbackReply> {
    console.error("[toolscope] could not store a delivery", error);
    const delivery =
      item.kind === "rejected" ? rejectionDelivery(item) : { ...baseDelivery(item.raw, item.webhookId), result: null };
    const row = {
      ...delivery,
      outcome: "failed",
      httpStatus: 503,
      reason: `storage failed: ${error instanceof Error ? error.message.slice(0, 300) : "unknown"}`,
    };
    try {
      await db.driverTransaction((tx) => insertDeliveries(tx, [row]));
    } catch {
      await journalDeliveries(db.target, [row]).catch((journalError: unknown) =>
        console.error("[toolscope] could not audit a failed delivery", journalError),
      );
      this.journaled = true;
      this.scheduleFold(db);
    }
    return failedReply();
  }
}

function isUnavailable(error: unknown): error is AppError {
  return error instanceof AppError && error.code === "unavailable";
}
