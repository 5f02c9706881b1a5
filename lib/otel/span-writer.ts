// Group commit for OTLP exports: requests queue while a transaction is committing and go into the next one
// together (as lib/ingest's CallbackWriter does for callbacks), up to a number of spans and traces per
// transaction; a request larger than that is stored in parts, so one export cannot hold the event loop and the
// write lock for seconds. One transaction then pays the fixed costs —
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
/**
 * Traces per transaction. Each new trace writes its thread, trace state and rows (~0.5 ms for a one-span trace on
 * SQLite, with the event loop and the write lock held): one 4 MB export of 20,000 one-span traces held both for
 * 10 s in one transaction, health checks and every other request waiting.
 */
export const MAX_TRACES_PER_COMMIT = 500;

type Pending = {
  prepared: PreparedSpans;
  traces: number;
  resolve: (warnings: string[]) => void;
  reject: (error: unknown) => void;
};

function traceCount(prepared: PreparedSpans): number {
  return new Set(prepared.entries.map((entry) => entry.row.traceId)).size;
}

/**
 * A request's spans in parts of at most `maxSpans` spans and `maxTraces` traces, each trace whole (a trace larger
 * than `maxSpans` is a part of its own), in the request's order. Every part carries the request's scopes (its
 * spans name them; stored once). A request within the limits is its one part.
 */
export function splitPrepared(prepared: PreparedSpans, maxSpans: number, maxTraces: number): PreparedSpans[] {
  if (prepared.entries.length <= maxSpans && traceCount(prepared) <= maxTraces) return [prepared];
  const byTrace = new Map<string, PreparedSpans["entries"]>();
  for (const entry of prepared.entries) {
    const entries = byTrace.get(entry.row.traceId);
    if (entries) entries.push(entry);
    else byTrace.set(entry.row.traceId, [entry]);
  }
  const parts: PreparedSpans[] = [];
  let part: PreparedSpans | null = null;
  let traces = 0;
  for (const entries of byTrace.values()) {
    if (
      part === null ||
      (part.entries.length > 0 && (part.entries.length + entries.length > maxSpans || traces >= maxTraces))
    ) {
      part = {
        scopes: prepared.scopes,
        entries: [],
        duplicates: parts.length === 0 ? prepared.duplicates : 0,
        at: prepared.at,
      };
      parts.push(part);
      traces = 0;
    }
    part.entries.push(...entries);
    traces += 1;
  }
  return parts;
}

export class SpanWriter {
  private queue: Pending[] = [];
  private running = false;

  constructor(
    private readonly database: Database,
    private readonly maxSpans = MAX_SPANS_PER_COMMIT,
    private readonly maxTraces = MAX_TRACES_PER_COMMIT,
  ) {}

  /**
   * Resolves with the warnings about this request's traces once its spans and threads are durable. A request over
   * the per-transaction limits is stored in parts, one transaction each, other requests' turns in between; it
   * settles when every part is stored (a failed part fails it, and the exporter's retry stores each span once).
   */
  submit(prepared: PreparedSpans): Promise<string[]> {
    const parts = splitPrepared(prepared, this.maxSpans, this.maxTraces);
    if (parts.length === 1) return this.enqueue(prepared);
    // Answered once every part has settled: a 503 sent while later parts were still being written would have the
    // exporter's retry race them.
    return Promise.allSettled(parts.map((part) => this.enqueue(part))).then((outcomes) => {
      const failed = outcomes.find((outcome) => outcome.status === "rejected");
      if (failed) throw failed.reason;
      return outcomes.flatMap((outcome) => (outcome.status === "fulfilled" ? outcome.value : []));
    });
  }

  private enqueue(prepared: PreparedSpans): Promise<string[]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ prepared, traces: traceCount(prepared), resolve, reject });
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
    let traces = 0;
    let count = 0;
    for (const pending of this.queue) {
      if (
        count > 0 &&
        (spans + pending.prepared.entries.length > this.maxSpans || traces + pending.traces > this.maxTraces)
      )
        break;
      spans += pending.prepared.entries.length;
      traces += pending.traces;
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
      warnings = (
        await this.database.driverTransaction(
          (tx) => storeSpans(tx, this.database.provider, mergePrepared(group.map((pending) => pending.prepared))),
          { timeout: 120_000 },
        )
      ).warnings;
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
