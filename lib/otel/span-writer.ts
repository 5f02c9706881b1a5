// Group commit for OTLP exports: requests queue while a transaction is committing and go into the next one
// together (as lib/ingest's CallbackWriter does for callbacks). One transaction then pays the fixed costs —
// BEGIN/COMMIT and its fsync, PostgreSQL's turn-taking lock, the thread and trace look-ups — once for several
// requests, and its multi-row statements carry more rows. Each request's promise settles only after the
// transaction holding its spans committed; a failed group is retried request by request, so one bad request
// cannot fail its neighbours.
import "server-only";
import type { Database } from "../db/client.ts";
import type { TraceWarning } from "./plan-traces.ts";
import { mergePrepared, storeSpans, type PreparedSpans } from "./store-spans.ts";

/** Spans per transaction: a few export requests' worth (exporters send up to 512 spans per request by default). */
export const MAX_SPANS_PER_COMMIT = 4_000;

type Pending = { prepared: PreparedSpans; resolve: (warnings: string[]) => void; reject: (error: unknown) => void };

export class SpanWriter {
  private queue: Pending[] = [];
  private running = false;

  constructor(
    private readonly database: Database,
    private readonly maxSpans = MAX_SPANS_PER_COMMIT,
  ) {}

  /** Resolves with the warnings about this request's traces once its spans and threads are durable. */
  submit(prepared: PreparedSpans): Promise<string[]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ prepared, resolve, reject });
      if (!this.running) {
        this.running = true;
        // Start on the next macrotask: requests that arrived together (and the SQLite driver is synchronous)
        // get to join the first group.
        setImmediate(() => void this.drain());
      }
    });
  }

  private take(): Pending[] {
    let spans = 0;
    let count = 0;
    for (const pending of this.queue) {
      if (count > 0 && spans + pending.prepared.entries.length > this.maxSpans) break;
      spans += pending.prepared.entries.length;
      count += 1;
    }
    return this.queue.splice(0, count);
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        await this.commit(this.take());
        // Let requests that arrived during the commit reach the queue before deciding it is empty.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      this.running = false;
    }
  }

  private async commit(group: Pending[]): Promise<void> {
    let warnings: TraceWarning[];
    try {
      warnings = (await this.database.driverTransaction((tx) => storeSpans(tx, this.database.provider, mergePrepared(group.map((pending) => pending.prepared))), { timeout: 120_000 })).warnings;
    } catch (error) {
      if (group.length === 1) {
        group[0]?.reject(error);
        return;
      }
      for (const pending of group) await this.commit([pending]);
      return;
    }
    for (const pending of group) {
      const traces = new Set(pending.prepared.entries.map((entry) => entry.row.traceId));
      pending.resolve(warnings.filter((warning) => traces.has(warning.traceId)).map((warning) => warning.message));
    }
  }
}

const writers = new WeakMap<Database, SpanWriter>();

/** The writer of a database (one per process and database, so concurrent requests share transactions). */
export function spanWriter(database: Database): SpanWriter {
  let writer = writers.get(database);
  if (!writer) {
    writer = new SpanWriter(database);
    writers.set(database, writer);
  }
  return writer;
}
