// The replay page's data at one step: the history rendered on the server and cut to what the page shows
// (the end of the request, where step N is), the step list around N, and the pending calls — so a 100k-event
// thread sends a few hundred KB at any step, never the thread. Untrusted text leaves masked (secret-looking
// strings) with invisible characters made visible; Copy / Download read the exact JSON from the replay API.
import "server-only";
import { getDatabase, type Database } from "../db/client.ts";
import { AppError } from "../http/app-error.ts";
import { eventKindLabel, eventSummary } from "../replay/event-summary.ts";
import { jsonTail } from "../replay/json-tail.ts";
import { HISTORY_ARRAY_KEY, renderHistoryTail } from "../replay/render-window.ts";
import { maskDto } from "../audit/mask.ts";
import { revealInvisible } from "../results/flags.ts";
import { toCanonicalTimeline } from "./canonical-timeline.ts";
import { findThread } from "./repository/threads.ts";
import { lastEventId, readAllEvents, readCalls, readResults } from "./repository/timeline-reads.ts";
import { REPLAY_VENDORS, type ReplayHistoryView, type ReplayListItem, type ReplayStepView, type ReplayVendorName } from "./schemas.ts";
import type { ReplayTrace } from "./replay-thread.ts";

/** Step-list entries either side of the current step. */
const LIST_WINDOW = 100;
/** The end of a long history: this many items of its main array, at most this many characters. */
const SHOWN_ITEMS = 60;
const SHOWN_JSON_CHARS = 100_000;
const RAW_EVENT_CHARS = 20_000;
const SKIPPED_SHOWN = 100;
/** Renamed ids and adjustments shown (a 100k-call thread replayed as Anthropic renames every id). */
const RENAMED_SHOWN = 100;
const ADJUSTMENTS_SHOWN = 50;
/** Pending calls named on the page (the count is always given): the last step of a thread of open calls has thousands. */
const PENDING_SHOWN = 100;

// Secret-looking values are masked afterwards over the whole view (maskDto), with fingerprints a reveal can use.
function present(text: string): string {
  return revealInvisible(text);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const VENDOR_ALIASES: Record<string, ReplayVendorName> = { openai: "openai-chat", "gemini-interactions": "gemini", google: "gemini", claude: "anthropic" };

/** The thread's own encoding: its import format, else the vendor its calls came from; Anthropic when neither is one. */
export function defaultReplayVendor(format: string | null, vendor: string | null): ReplayVendorName {
  for (const candidate of [format, vendor]) {
    if (!candidate) continue;
    const name = REPLAY_VENDORS.find((known) => known === candidate) ?? VENDOR_ALIASES[candidate];
    if (name) return name;
  }
  return "anthropic";
}

// The last few canonical traces kept in memory, keyed by the thread's state: stepping through a big thread
// re-renders the history (fast) without re-reading and re-converting every event (slow), even while another
// thread's replay is open. Any new event changes the key.
const CACHED_TRACES = 2;
const cache = new Map<string, ReplayTrace>();

async function loadTrace(db: Database, groupId: string): Promise<ReplayTrace> {
  const thread = await findThread(db.client, groupId);
  if (thread === null) throw new AppError("not_found", `No thread "${groupId}"`);
  const key = `${db.provider}:${thread.id}:${thread.record.last_activity_at}:${await lastEventId(db.client, thread.id)}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const events = await readAllEvents(db.client, thread.id);
  const calls = await readCalls(db.client, thread.id);
  const results = await readResults(db.client, thread.id);
  const timeline = toCanonicalTimeline({ events, calls, results });
  const trace: ReplayTrace = {
    groupId: thread.groupId,
    title: thread.record.title,
    vendor: thread.record.vendor,
    format: timeline.format,
    events: timeline.events,
    declarations: timeline.declarations,
    omitted: timeline.omitted,
  };
  for (const old of cache.keys()) if (old.startsWith(`${db.provider}:${thread.id}:`)) cache.delete(old);
  cache.set(key, trace);
  while (cache.size > CACHED_TRACES) cache.delete(cache.keys().next().value ?? "");
  return trace;
}

function shownJson(request: unknown, encoding: ReplayVendorName): Pick<ReplayHistoryView, "json" | "hiddenItems" | "totalItems" | "hiddenChars"> {
  const key = HISTORY_ARRAY_KEY[encoding];
  const items = isRecord(request) && Array.isArray(request[key]) ? request[key] : null;
  const windowed = items !== null && items.length > SHOWN_ITEMS && isRecord(request) ? { ...request, [key]: items.slice(-SHOWN_ITEMS) } : request;
  const hiddenItems = windowed === request || items === null ? 0 : items.length - SHOWN_ITEMS;
  // Lossless (numbers a double cannot hold keep their digits), and only the end is written: one message of a
  // 100k-call history can hold 100k blocks.
  const tail = jsonTail(windowed, SHOWN_JSON_CHARS);
  if (tail.complete && tail.text.length <= SHOWN_JSON_CHARS) return { json: present(tail.text), hiddenItems, totalItems: items?.length ?? 0, hiddenChars: 0 };
  // Whole lines: from the first line start within the last SHOWN_JSON_CHARS characters.
  const start = tail.text.indexOf("\n", tail.text.length - SHOWN_JSON_CHARS) + 1;
  return { json: present(tail.text.slice(start)), hiddenItems, totalItems: items?.length ?? 0, hiddenChars: tail.complete ? start : null };
}

function listAround(trace: ReplayTrace, step: number, pending: ReadonlySet<string>): ReplayListItem[] {
  const first = Math.max(0, step - LIST_WINDOW);
  const last = Math.min(trace.events.length, step + LIST_WINDOW);
  return trace.events.slice(first, last).map((event, offset) => ({
    index: first + offset,
    kind: event.kind,
    label: eventKindLabel(event),
    summary: present(eventSummary(event)),
    isError: event.kind === "tool_result" && event.isError === true,
    callId: event.kind === "tool_call" ? present(event.callId) : null,
    pending: event.kind === "tool_call" && first + offset < step && pending.has(event.callId),
  }));
}

function callNames(trace: ReplayTrace, ids: readonly string[]): Map<string, string> {
  const wanted = new Set(ids);
  const names = new Map<string, string>();
  if (wanted.size === 0) return names;
  for (const event of trace.events) if (event.kind === "tool_call" && wanted.has(event.callId) && !names.has(event.callId)) names.set(event.callId, event.name);
  return names;
}

/** "Replay at this call": the step right after the call's first result (or after the call while it has none). */
function stepOfCall(trace: ReplayTrace, callId: string): number | undefined {
  let step: number | undefined;
  for (const [index, event] of trace.events.entries()) {
    if (event.kind === "tool_call" && event.callId === callId && step === undefined) step = index + 1;
    if (event.kind === "tool_result" && event.callId === callId && step !== undefined) return index + 1;
  }
  return step;
}

/** GET /api/threads/{groupId}/replay/view and the replay page: what the page shows at `step` (or at `call`) in `vendor`. */
export async function getReplayStep(options: { groupId: string; step?: number; call?: string; vendor?: ReplayVendorName; database?: Database }): Promise<ReplayStepView> {
  const { value, secrets } = maskDto(await buildReplayStep(options));
  return { ...value, secrets };
}

async function buildReplayStep(options: { groupId: string; step?: number; call?: string; vendor?: ReplayVendorName; database?: Database }): Promise<Omit<ReplayStepView, "secrets">> {
  const db = options.database ?? (await getDatabase());
  const trace = await loadTrace(db, options.groupId);
  const total = trace.events.length;
  const wanted = options.step ?? (options.call === undefined ? undefined : stepOfCall(trace, options.call));
  const step = Math.min(total, Math.max(0, wanted ?? total));
  const defaultEncoding = defaultReplayVendor(trace.format, trace.vendor);
  const encoding = options.vendor ?? defaultEncoding;
  let history: ReplayHistoryView | null = null;
  let pendingIds: ReadonlySet<string> = new Set();
  let error: string | null = null;
  try {
    // Only the request's end is shown: render a window of it (the whole history of a 100k-call thread took seconds).
    const rendered = renderHistoryTail(trace.events, step, encoding, trace.declarations, { sourceFormat: trace.format, minItems: SHOWN_ITEMS });
    pendingIds = new Set(rendered.pendingCallIds);
    const names = callNames(trace, rendered.pendingCallIds.slice(0, PENDING_SHOWN));
    history = {
      ...shownJson(rendered.request, encoding),
      renderedFrom: rendered.renderedFrom,
      pending: rendered.pendingCallIds.slice(0, PENDING_SHOWN).map((callId) => ({ callId: present(callId), name: present(names.get(callId) ?? "call") })),
      pendingTotal: rendered.pendingCallIds.length,
      skipped: rendered.skipped.slice(0, SKIPPED_SHOWN).map((skipped) => ({ index: skipped.index, part: skipped.part ?? null, reason: present(skipped.reason) })),
      skippedTotal: rendered.skipped.length,
      adjustments: rendered.adjustments.slice(0, ADJUSTMENTS_SHOWN),
      adjustmentsTotal: rendered.adjustments.length,
      renamed: Object.entries(rendered.renamedCallIds)
        .slice(0, RENAMED_SHOWN)
        .map(([from, to]) => [present(from), present(to)]),
      renamedTotal: Object.keys(rendered.renamedCallIds).length,
    };
  } catch (renderError) {
    error = renderError instanceof Error ? renderError.message : String(renderError);
  }
  const currentEvent = step > 0 ? trace.events[step - 1] : undefined;
  const raw = currentEvent ? (JSON.stringify(currentEvent.raw, null, 2) ?? "null") : "";
  return {
    groupId: trace.groupId,
    title: trace.title,
    vendor: trace.vendor,
    format: trace.format,
    total,
    step,
    encoding,
    defaultEncoding,
    list: listAround(trace, step, pendingIds),
    omitted: trace.omitted,
    history,
    error,
    current: currentEvent ? { path: currentEvent.path, raw: present(raw.length > RAW_EVENT_CHARS ? `${raw.slice(0, RAW_EVENT_CHARS)}\n… (${(raw.length - RAW_EVENT_CHARS).toLocaleString("en-US")} more characters)` : raw) } : null,
  };
}
