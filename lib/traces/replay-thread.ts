// Replay of a stored thread: its timeline as canonical events, and the vendor-shaped history at step N.
import "server-only";
import { maskDto, type MaskedSecret } from "../audit/mask.ts";
import { getDatabase, type Database } from "../db/client.ts";
import type { CanonicalEvent, FormatName, ToolDeclaration } from "../formats/canonical.ts";
import { AppError } from "../http/app-error.ts";
import { renderHistory } from "../replay/render-history.ts";
import { toCanonicalTimeline } from "./canonical-timeline.ts";
import { defaultReplayVendor } from "./replay-step.ts";
import { findThread } from "./repository/threads.ts";
import { readAllEvents, readCalls, readResults } from "./repository/timeline-reads.ts";
import type { ReplayResult, ReplayVendorName } from "./schemas.ts";

/** Everything the replay page needs; plain JSON (raw payloads included: renderers pass signatures back). */
export type ReplayTrace = {
  groupId: string;
  title: string | null;
  vendor: string | null;
  format: FormatName | null;
  /** The encoding of the events' raw items and declarations (lib/traces/canonical-timeline): render with this. */
  sourceFormat: FormatName | null;
  events: CanonicalEvent[];
  declarations: ToolDeclaration[];
  omitted: Record<string, number>;
};

export async function getReplayTrace(options: { groupId: string; database?: Database }): Promise<ReplayTrace> {
  const db = options.database ?? (await getDatabase());
  const thread = await findThread(db.client, options.groupId);
  if (thread === null) throw new AppError("not_found", `No thread "${options.groupId}"`);
  const events = await readAllEvents(db.client, thread.id);
  const calls = await readCalls(db.client, thread.id);
  const results = await readResults(db.client, thread.id);
  const timeline = toCanonicalTimeline({ events, calls, results });
  return {
    groupId: thread.groupId,
    title: thread.record.title,
    vendor: thread.record.vendor,
    format: timeline.format,
    sourceFormat: timeline.sourceFormat,
    events: timeline.events,
    declarations: timeline.declarations,
    omitted: timeline.omitted,
  };
}

/**
 * The replay and new-fork pages' trace: getReplayTrace with every string masked (lib/audit/mask), and what was
 * masked, for the page's reveal panel. Forks and the replay API keep using the exact trace.
 */
export async function getReplayTraceView(options: {
  groupId: string;
  database?: Database;
}): Promise<ReplayTrace & { secrets: MaskedSecret[] }> {
  const { value, secrets } = maskDto(await getReplayTrace(options));
  return { ...value, secrets };
}

/**
 * The request body a vendor's API accepts as input after the first `step` events (default: all of them). The
 * Copy / Download exact JSON of the replay page: the whole request, so it reads the whole history; the page and
 * its view API read a window (replay-step.ts, replay-window.ts).
 */
export async function renderThreadHistory(options: {
  groupId: string;
  /** Default: the thread's own encoding (defaultReplayVendor). */
  vendor?: ReplayVendorName;
  step?: number;
  database?: Database;
}): Promise<ReplayResult> {
  const trace = await getReplayTrace(options);
  const total = trace.events.length;
  const step = Math.min(options.step ?? total, total);
  const vendor = options.vendor ?? defaultReplayVendor(trace.format, trace.vendor);
  const rendered = renderHistory(trace.events, step, vendor, trace.declarations, {
    sourceFormat: trace.sourceFormat,
  });
  return {
    group_id: trace.groupId,
    vendor,
    step,
    total,
    request: rendered.request,
    pending_call_ids: rendered.pendingCallIds,
    skipped: rendered.skipped,
    renamed_call_ids: rendered.renamedCallIds,
    adjustments: rendered.adjustments,
  };
}
