// Owns turning a thread's events (in timeline order) into the rows a person reads: results folded into
// their call's row, consecutive calls of one model step shown as a parallel batch. Pure and client-safe.
import type { TimelineEvent } from "./schemas.ts";

export type BatchPosition = { step: number; index: number; size: number };

export type TimelineRow =
  | { kind: "batch"; key: string; step: number; size: number; firstEventId: number }
  | { kind: "call"; key: string; eventId: number; callRowId: number; batch: BatchPosition | null }
  | { kind: "event"; key: string; eventId: number };

/** Events that never get a row of their own: a result is shown on its call's row. */
export function isFoldedEvent(event: Pick<TimelineEvent, "kind" | "callRowId">): boolean {
  return event.kind === "tool_result" && event.callRowId !== null;
}

/**
 * Calls registered one after another with the same (non-null) step were requested in parallel: two or
 * more of them become a batch header followed by the calls. Folded events between them (results that
 * arrived meanwhile) do not break a batch; any other event does.
 */
export function buildTimelineRows(events: readonly TimelineEvent[]): TimelineRow[] {
  const rows: TimelineRow[] = [];
  let run: TimelineEvent[] = [];

  const flush = () => {
    const first = run[0];
    if (!first) return;
    const step = first.step;
    if (run.length > 1 && step !== null) {
      rows.push({ kind: "batch", key: `batch-${first.id}`, step, size: run.length, firstEventId: first.id });
      run.forEach((event, index) => {
        rows.push({
          kind: "call",
          key: `call-${event.id}`,
          eventId: event.id,
          callRowId: event.callRowId ?? 0,
          batch: { step, index, size: run.length },
        });
      });
    } else {
      for (const event of run)
        rows.push({
          kind: "call",
          key: `call-${event.id}`,
          eventId: event.id,
          callRowId: event.callRowId ?? 0,
          batch: null,
        });
    }
    run = [];
  };

  for (const event of events) {
    if (isFoldedEvent(event)) continue;
    if (event.kind === "tool_call" && event.callRowId !== null) {
      const current = run[0];
      if (current && (current.step === null || current.step !== event.step)) flush();
      run.push(event);
      continue;
    }
    flush();
    rows.push({ kind: "event", key: `event-${event.id}`, eventId: event.id });
  }
  flush();
  return rows;
}

/** How many rows these (new) events would add: what the "N new" button counts. */
export function countRowEvents(events: readonly TimelineEvent[]): number {
  return events.filter((event) => !isFoldedEvent(event)).length;
}
