// The replay page's data at one step: the history rendered on the server and cut to what the page shows
// (the end of the request, where step N is), the step list around N, and the pending calls — so a 100k-event
// thread sends a few hundred KB at any step, never the thread. Untrusted text leaves masked (secret-looking
// strings) with invisible characters made visible; Copy / Download read the exact JSON from the replay API.
// A live thread is read as a window around N (replay-window.ts: SQL counts what lies before it), never whole;
// imported and forked threads, and steps whose request must be rendered whole, read the whole trace (cached).
import "server-only";
import { getDatabase, type Database } from "../db/client.ts";
import { AppError } from "../http/app-error.ts";
import { eventKindLabel, eventSummary } from "../replay/event-summary.ts";
import { jsonTail } from "../replay/json-tail.ts";
import type { CanonicalEvent } from "../formats/canonical.ts";
import { HISTORY_ARRAY_KEY, renderHistoryTail, renderWindowTail, type RenderedTail } from "../replay/render-window.ts";
import { maskDto } from "../audit/mask.ts";
import { revealInvisible } from "../results/flags.ts";
import { toCanonicalTimeline } from "./canonical-timeline.ts";
import { findThread } from "./repository/threads.ts";
import { lastEventId, readAllEvents, readCalls, readResults } from "./repository/timeline-reads.ts";
import {
  REPLAY_VENDORS,
  type ReplayHistoryView,
  type ReplayListItem,
  type ReplayStepView,
  type ReplayVendorName,
} from "./schemas.ts";
import type { ReplayTrace } from "./replay-thread.ts";
import { readReplayWindow } from "./replay-window.ts";

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

const VENDOR_ALIASES: Record<string, ReplayVendorName> = {
  openai: "openai-chat",
  "gemini-interactions": "gemini",
  google: "gemini",
  claude: "anthropic",
};

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

const cacheKey = async (db: Database, thread: Thread) =>
  `${db.provider}:${thread.id}:${thread.record.last_activity_at}:${await lastEventId(db.client, thread.id)}`;

/** The thread's trace when it is in the cache and current (a step of a thread not changing, stepped through). */
async function cachedTrace(db: Database, thread: Thread): Promise<ReplayTrace | undefined> {
  const key = await cacheKey(db, thread);
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
  }
  return hit;
}

// The full trace, for threads and steps a window cannot render exactly (imported and forked threads, requests
// that must be rendered whole), and kept for the next steps.
async function loadTrace(db: Database, thread: Thread): Promise<ReplayTrace> {
  const hit = await cachedTrace(db, thread);
  if (hit) return hit;
  const key = await cacheKey(db, thread);
  const events = await readAllEvents(db.client, thread.id);
  const calls = await readCalls(db.client, thread.id);
  const results = await readResults(db.client, thread.id);
  const timeline = toCanonicalTimeline({ events, calls, results });
  const trace: ReplayTrace = {
    groupId: thread.groupId,
    title: thread.record.title,
    vendor: thread.record.vendor,
    format: timeline.format,
    sourceFormat: timeline.sourceFormat,
    events: timeline.events,
    declarations: timeline.declarations,
    omitted: timeline.omitted,
  };
  for (const old of cache.keys()) if (old.startsWith(`${db.provider}:${thread.id}:`)) cache.delete(old);
  cache.set(key, trace);
  while (cache.size > CACHED_TRACES) cache.delete(cache.keys().next().value ?? "");
  return trace;
}

function shownJson(
  request: unknown,
  encoding: ReplayVendorName,
): Pick<ReplayHistoryView, "json" | "hiddenItems" | "totalItems" | "hiddenChars"> {
  const key = HISTORY_ARRAY_KEY[encoding];
  const items = isRecord(request) && Array.isArray(request[key]) ? request[key] : null;
  const windowed =
    items !== null && items.length > SHOWN_ITEMS && isRecord(request)
      ? { ...request, [key]: items.slice(-SHOWN_ITEMS) }
      : request;
  const hiddenItems = windowed === request || items === null ? 0 : items.length - SHOWN_ITEMS;
  // Lossless (numbers a double cannot hold keep their digits), and only the end is written: one message of a
  // 100k-call history can hold 100k blocks.
  const tail = jsonTail(windowed, SHOWN_JSON_CHARS);
  if (tail.complete && tail.text.length <= SHOWN_JSON_CHARS)
    return { json: present(tail.text), hiddenItems, totalItems: items?.length ?? 0, hiddenChars: 0 };
  // Whole lines: from the first line start within the last SHOWN_JSON_CHARS characters.
  const start = tail.text.indexOf("\n", tail.text.length - SHOWN_JSON_CHARS) + 1;
  return {
    json: present(tail.text.slice(start)),
    hiddenItems,
    totalItems: items?.length ?? 0,
    hiddenChars: tail.complete ? start : null,
  };
}

/** What the view is built from: canonical events [offset, offset + events.length) of the thread's `total`. */
type StepSource = Omit<ReplayTrace, "events"> & {
  total: number;
  step: number;
  offset: number;
  events: CanonicalEvent[];
};
/** The rendered end of the request, with the pending calls' count and the names of those shown. */
type StepRender = { rendered: RenderedTail; pendingTotal: number; names: Map<string, string> };

function listAround(source: StepSource, step: number, pending: ReadonlySet<string>): ReplayListItem[] {
  const first = Math.max(0, step - LIST_WINDOW);
  const last = Math.min(source.total, step + LIST_WINDOW);
  return source.events.slice(first - source.offset, last - source.offset).map((event, offset) => ({
    index: first + offset,
    kind: event.kind,
    label: eventKindLabel(event),
    summary: present(eventSummary(event)),
    isError: event.kind === "tool_result" && event.isError === true,
    callId: event.kind === "tool_call" ? present(event.callId) : null,
    pending: event.kind === "tool_call" && first + offset < step && pending.has(event.callId),
  }));
}

function callNames(
  events: readonly CanonicalEvent[],
  ids: readonly string[],
  known: ReadonlyMap<string, string> = new Map(),
): Map<string, string> {
  const wanted = new Set(ids.filter((id) => !known.has(id)));
  const names = new Map(known);
  if (wanted.size === 0) return names;
  for (const event of events)
    if (event.kind === "tool_call" && wanted.has(event.callId) && !names.has(event.callId))
      names.set(event.callId, event.name);
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

type StepOptions = { groupId: string; step?: number; call?: string; vendor?: ReplayVendorName; database?: Database };
type Thread = NonNullable<Awaited<ReturnType<typeof findThread>>>;
const renderOptions = (format: ReplayTrace["format"]) => ({
  sourceFormat: format,
  minItems: SHOWN_ITEMS,
  minChars: SHOWN_JSON_CHARS,
});

/**
 * A live thread's window around the step, rendered (null when the thread or the step needs the whole trace).
 * Render errors are returned, as the whole trace's would be.
 */
async function windowSource(
  db: Database,
  thread: Thread,
  options: StepOptions,
): Promise<{ source: StepSource; render: (encoding: ReplayVendorName) => StepRender | Error } | null> {
  let window = await readReplayWindow(db, thread, {
    step: options.step,
    call: options.call,
    after: LIST_WINDOW,
    pendingShown: PENDING_SHOWN,
  });
  if (window === null) return null;
  const { step } = window;
  const encoding = options.vendor ?? defaultReplayVendor(null, thread.record.vendor);
  let rendered: RenderedTail | Error;
  let needItems = 0;
  for (;;) {
    try {
      const tail = renderWindowTail(
        window.events,
        window.offset,
        step,
        window.before,
        encoding,
        window.declarations,
        renderOptions(null),
      );
      if (!("needItems" in tail)) {
        rendered = tail;
        break;
      }
      needItems = tail.needItems;
    } catch (renderError) {
      rendered = renderError instanceof Error ? renderError : new Error(String(renderError));
      break;
    }
    window = await window.widen(needItems);
    if (window === null) return null;
  }
  const { before, offset, events } = window;
  const source: StepSource = {
    groupId: thread.groupId,
    title: thread.record.title,
    vendor: thread.record.vendor,
    format: null,
    sourceFormat: null,
    declarations: window.declarations,
    omitted: window.omitted,
    total: window.total,
    step,
    offset,
    events,
  };
  const result = rendered;
  return {
    source,
    render: () => {
      if (result instanceof Error) return result;
      const pendingTotal = before.pendingTotal + result.pendingCallIds.length - before.pendingCallIds.length;
      return {
        rendered: result,
        pendingTotal,
        names: callNames(events, result.pendingCallIds.slice(0, PENDING_SHOWN), before.pendingNames),
      };
    },
  };
}

async function traceSource(
  db: Database,
  thread: Thread,
  options: StepOptions,
  cached?: ReplayTrace,
): Promise<{ source: StepSource; render: (encoding: ReplayVendorName) => StepRender | Error }> {
  const trace = cached ?? (await loadTrace(db, thread));
  const total = trace.events.length;
  const wanted = options.step ?? (options.call === undefined ? undefined : stepOfCall(trace, options.call));
  const step = Math.min(total, Math.max(0, wanted ?? total));
  return {
    source: { ...trace, total, step, offset: 0 },
    render: (encoding) => {
      try {
        // Only the request's end is shown: render a window of it (the whole history of a 100k-call thread took seconds).
        const rendered = renderHistoryTail(
          trace.events,
          step,
          encoding,
          trace.declarations,
          renderOptions(trace.sourceFormat),
        );
        return {
          rendered,
          pendingTotal: rendered.pendingCallIds.length,
          names: callNames(trace.events, rendered.pendingCallIds.slice(0, PENDING_SHOWN)),
        };
      } catch (renderError) {
        return renderError instanceof Error ? renderError : new Error(String(renderError));
      }
    },
  };
}

/**
 * GET /api/threads/{groupId}/replay/view and the replay page: what the page shows at `step` (or at `call`) in `vendor`.
 * A live thread is read as a window around the step (replay-window.ts) unless its trace is cached; `read` makes
 * one way the only one tried ("whole": the whole trace, as imported and forked threads always are; "window": no
 * cache) so tests can compare the two.
 */
export async function getReplayStep(options: StepOptions & { read?: "whole" | "window" }): Promise<ReplayStepView> {
  const { value, secrets } = maskDto(await buildReplayStep(options));
  return { ...value, secrets };
}

/**
 * What "Event N as recorded" shows: the vendor's own item when the event came from an import or a fork; an event
 * that arrived through the API, the callback or OTLP has no vendor payload (its raw is null), so Toolscope's own
 * record of it (the canonical event) is shown instead of a bare `null`.
 */
function recordedForm(event: CanonicalEvent): { origin: "payload" | "toolscope"; value: unknown } {
  if (event.raw !== null && event.raw !== undefined) return { origin: "payload", value: event.raw };
  // `step` (the model-turn index) is derived while reading, and a window read cannot count the turns before it.
  const { raw: _raw, path: _path, step: _step, ...fields } = event;
  return { origin: "toolscope", value: fields };
}

async function buildReplayStep(
  options: StepOptions & { read?: "whole" | "window" },
): Promise<Omit<ReplayStepView, "secrets">> {
  const db = options.database ?? (await getDatabase());
  const thread = await findThread(db.client, options.groupId);
  if (thread === null) throw new AppError("not_found", `No thread "${options.groupId}"`);
  // A current cached trace answers at once; otherwise a window, unless the thread or the step needs the whole trace.
  const cached = options.read === undefined ? await cachedTrace(db, thread) : undefined;
  const { source, render } = cached
    ? await traceSource(db, thread, options, cached)
    : ((options.read === "whole" ? null : await windowSource(db, thread, options)) ??
      (await traceSource(db, thread, options)));
  const { total, step } = source;
  const defaultEncoding = defaultReplayVendor(source.format, source.vendor);
  const encoding = options.vendor ?? defaultEncoding;
  let history: ReplayHistoryView | null = null;
  let pendingIds: ReadonlySet<string> = new Set();
  let error: string | null = null;
  const outcome = render(encoding);
  if (outcome instanceof Error) error = outcome.message;
  else {
    const { rendered, pendingTotal, names } = outcome;
    pendingIds = new Set(rendered.pendingCallIds);
    history = {
      ...shownJson(rendered.request, encoding),
      renderedFrom: rendered.renderedFrom,
      partialTurn: rendered.partialTurn,
      pending: rendered.pendingCallIds
        .slice(0, PENDING_SHOWN)
        .map((callId) => ({ callId: present(callId), name: present(names.get(callId) ?? "call") })),
      pendingTotal,
      skipped: rendered.skipped
        .slice(0, SKIPPED_SHOWN)
        .map((skipped) => ({ index: skipped.index, part: skipped.part ?? null, reason: present(skipped.reason) })),
      skippedTotal: rendered.skipped.length,
      adjustments: rendered.adjustments.slice(0, ADJUSTMENTS_SHOWN),
      adjustmentsTotal: rendered.adjustments.length,
      renamed: Object.entries(rendered.renamedCallIds)
        .slice(0, RENAMED_SHOWN)
        .map(([from, to]) => [present(from), present(to)]),
      renamedTotal: Object.keys(rendered.renamedCallIds).length,
    };
  }
  const currentEvent = step > 0 ? source.events[step - 1 - source.offset] : undefined;
  const recorded = currentEvent ? recordedForm(currentEvent) : null;
  const raw = recorded ? (JSON.stringify(recorded.value, null, 2) ?? "null") : "";
  return {
    groupId: source.groupId,
    title: source.title,
    vendor: source.vendor,
    format: source.format,
    total,
    step,
    encoding,
    defaultEncoding,
    list: listAround(source, step, pendingIds),
    omitted: source.omitted,
    history,
    error,
    current:
      currentEvent && recorded
        ? {
            path: currentEvent.path,
            origin: recorded.origin,
            raw: present(
              raw.length > RAW_EVENT_CHARS
                ? `${raw.slice(0, RAW_EVENT_CHARS)}\n… (${(raw.length - RAW_EVENT_CHARS).toLocaleString("en-US")} more characters)`
                : raw,
            ),
          }
        : null,
  };
}
