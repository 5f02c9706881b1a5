// The outbox's worker: claims due messages with a lease, sends them (at most `maxInFlight` at once), records
// every attempt, and decides what comes next (delivered, retried after a backoff, dead). One runs in every server
// process; on one PostgreSQL several claim side by side (SKIP LOCKED), and a lease whose worker died (kill -9) is
// taken over when it runs out. Completions are written in groups, like callbacks: one transaction for every
// attempt that finished while the previous one committed.
import "server-only";
import os from "node:os";
import type { Database } from "../db/client.ts";
import { budgetExhausted, isPermanentRefusal, nextDelayMs, parseRetryAfter } from "./backoff.ts";
import { claimDue, completeAttempts, promoteNext, type ClaimedMessage, type Completion } from "./repository.ts";
import { sendDelivery, type Destination, type SendOutcome } from "./sender.ts";

/** Where a message's destination points now (server configuration), or why it cannot be reached. */
export type DestinationResolver = (destination: string) => Destination | { problem: string };

export type DispatcherOptions = {
  database: () => Promise<Database>;
  resolve: DestinationResolver;
  /** Messages in flight at once (default 64). */
  maxInFlight?: number;
  /** How often an idle worker looks for due messages (default 250 ms; a commit in this process wakes it at once). */
  idlePollMs?: number;
  /** How long a claimed message stays this worker's (default 120 s: above any destination's time limit). */
  leaseMs?: number;
  /** How often queued messages whose predecessors finished are let go (default 2 s). */
  repairEveryMs?: number;
  random?: () => number;
};

const RESPONSE_KEEP_BYTES = 2048;

/** The first 2 KiB of an answer as storable text (no NUL, well-formed), for the attempt's row. */
export function responseText(body: Buffer): string | null {
  if (body.length === 0) return null;
  return body.subarray(0, RESPONSE_KEEP_BYTES).toString("utf8").replaceAll("\u0000", "\\u0000").toWellFormed();
}

/** The next state of a message after one attempt's outcome. */
export function decideNext(options: {
  message: Pick<ClaimedMessage, "attempts" | "retryBase" | "budgetSince">;
  destination: Pick<Destination, "maxAttempts" | "maxAgeMs">;
  outcome: Pick<SendOutcome, "status" | "error" | "retryAfter">;
  now: Date;
  random?: () => number;
}): Completion["next"] {
  const { outcome, now } = options;
  const number = options.message.attempts + 1;
  if (outcome.status !== null && outcome.status >= 200 && outcome.status < 300) return { status: "delivered", at: now };
  if (outcome.status !== null && isPermanentRefusal(outcome.status))
    return { status: "dead", at: now, reason: `refused by the destination (HTTP ${outcome.status})` };
  const exhausted = budgetExhausted({
    budget: options.destination,
    attempts: number,
    retryBase: options.message.retryBase,
    since: options.message.budgetSince,
    now,
  });
  if (exhausted) return { status: "dead", at: now, reason: exhausted };
  const delay = nextDelayMs(
    number - options.message.retryBase,
    parseRetryAfter(outcome.retryAfter, now.getTime()),
    options.random,
  );
  return { status: "pending", nextAttemptAt: new Date(now.getTime() + delay) };
}

export class OutboxDispatcher {
  readonly owner = `${os.hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  private readonly maxInFlight: number;
  private readonly idlePollMs: number;
  private readonly leaseMs: number;
  private inFlight = 0;
  private timer: NodeJS.Timeout | null = null;
  private repairTimer: NodeJS.Timeout | null = null;
  private claiming = false;
  private stopped = true;
  private completions: Completion[] = [];
  private flushing: Promise<void> | null = null;
  private idle: (() => void)[] = [];

  constructor(private readonly options: DispatcherOptions) {
    this.maxInFlight = options.maxInFlight ?? 64;
    this.idlePollMs = options.idlePollMs ?? 250;
    this.leaseMs = options.leaseMs ?? 120_000;
  }

  start(): this {
    if (!this.stopped) return this;
    this.stopped = false;
    this.repairTimer = setInterval(() => void this.repair(), this.options.repairEveryMs ?? 2_000);
    this.repairTimer.unref();
    void this.repair();
    this.wake();
    return this;
  }

  /** Stops claiming; resolves once the attempts in flight are recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.repairTimer) clearInterval(this.repairTimer);
    this.timer = null;
    while (this.inFlight > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
    await this.flush();
  }

  /** Look for due messages now (a commit in this process just enqueued some). */
  wake(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.claim(), 0);
  }

  /** The lease a message this process delivers itself (pass-through) is created with. */
  leaseUntil(now: Date, timeoutMs: number): Date {
    return new Date(now.getTime() + Math.max(this.leaseMs, timeoutMs + 30_000));
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.claim(), ms);
    this.timer.unref();
  }

  private async claim(): Promise<void> {
    if (this.claiming || this.stopped) return;
    const free = this.maxInFlight - this.inFlight;
    if (free <= 0) return; // a finishing attempt wakes the worker
    this.claiming = true;
    let claimed: ClaimedMessage[] = [];
    try {
      const db = await this.options.database();
      const now = new Date();
      claimed = await db.driverTransaction(
        (tx) =>
          claimDue(tx, { owner: this.owner, now, leaseUntil: new Date(now.getTime() + this.leaseMs), limit: free }),
        { ordered: false },
      );
    } catch (error) {
      console.warn(`[toolscope] outbox: could not claim messages (${error instanceof Error ? error.message : error})`);
    } finally {
      this.claiming = false;
    }
    for (const message of claimed) {
      this.inFlight += 1;
      void this.deliver(message).finally(() => {
        this.inFlight -= 1;
        if (this.inFlight === 0) for (const resolve of this.idle.splice(0)) resolve();
      });
    }
    this.schedule(claimed.length >= free ? 0 : this.idlePollMs);
  }

  private async deliver(message: ClaimedMessage): Promise<void> {
    const destination = this.options.resolve(message.destination);
    if ("problem" in destination) {
      const now = new Date();
      await this.record(message, {
        outcome: {
          status: null,
          headers: {},
          body: Buffer.alloc(0),
          error: destination.problem,
          startedAt: now,
          durationMs: 0,
          retryAfter: null,
        },
        next: { status: "dead", at: now, reason: destination.problem },
      });
      return;
    }
    const outcome = await sendDelivery({
      destination,
      webhookId: message.webhookId,
      contentType: message.contentType,
      body: message.body,
    });
    await this.settle(message, destination, outcome);
  }

  /** Records an attempt this process made (the worker's own, or a pass-through forward) and what comes next. */
  settle(message: ClaimedMessage, destination: Destination, outcome: SendOutcome): Promise<void> {
    const next = decideNext({ message, destination, outcome, now: new Date(), random: this.options.random });
    return this.record(message, { outcome, next });
  }

  private record(message: ClaimedMessage, result: { outcome: SendOutcome; next: Completion["next"] }): Promise<void> {
    this.completions.push({
      id: message.id,
      owner: this.owner,
      orderKey: message.orderKey,
      destination: message.destination,
      number: message.attempts + 1,
      startedAt: result.outcome.startedAt,
      durationMs: result.outcome.durationMs,
      httpStatus: result.outcome.status,
      error: result.outcome.error,
      responseBody: responseText(result.outcome.body),
      next: result.next,
      recovered: message.attempts > message.retryBase && result.next.status === "delivered",
    });
    return this.flush();
  }

  /** Writes the completions gathered so far in one transaction (the next group waits for this one). */
  private flush(): Promise<void> {
    if (this.flushing) return this.flushing.then(() => this.flush());
    if (this.completions.length === 0) return Promise.resolve();
    this.flushing = (async () => {
      await new Promise((resolve) => setImmediate(resolve));
      const batch = this.completions.splice(0);
      try {
        const db = await this.options.database();
        await db.driverTransaction((tx) => completeAttempts(tx, batch, new Date()), { ordered: false });
      } catch (error) {
        // The leases run out and the messages are claimed again (at least once): nothing is lost.
        console.warn(
          `[toolscope] outbox: could not record ${batch.length} attempt(s) (${error instanceof Error ? error.message : error})`,
        );
      } finally {
        this.flushing = null;
      }
      this.wake();
    })();
    return this.flushing;
  }

  private async repair(): Promise<void> {
    try {
      const db = await this.options.database();
      const promoted = await db.driverTransaction((tx) => promoteNext(tx, null), { ordered: false });
      if (promoted > 0) this.wake();
    } catch {
      // The next round tries again.
    }
  }
}
