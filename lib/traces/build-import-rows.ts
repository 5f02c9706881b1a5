// Timeline rows of an import: one Event row per canonical event (the vendor item verbatim in raw_json, the
// canonical fields the columns do not hold in data_json), the leading `import` event and the trailing issues.
import type { CanonicalEvent, ImportIssue } from "../formats/canonical.ts";
import { stringifyJsonLossless } from "../formats/lossless-json.ts";
import { IMPORT_EVENT, IMPORT_ISSUE_EVENT, IMPORT_SOURCE } from "./event-kinds.ts";
import type { EventRecord } from "./export-format.ts";

export type EventDraft = Omit<EventRecord, "index">;
type RowFields = Partial<Omit<EventRecord, "index" | "kind">> & { type: string };

/** JSON of a value with every number's source digits; null for undefined. */
export function json(value: unknown): string | null {
  return value === undefined ? null : stringifyJsonLossless(value);
}

export function eventRow(event: CanonicalEvent, fields: RowFields, at: string): EventDraft {
  return {
    kind: "event",
    type: fields.type,
    call_key: fields.call_key ?? null,
    result: fields.result ?? null,
    step: event.step,
    role: fields.role ?? null,
    text: fields.text ?? null,
    data_json: fields.data_json ?? null,
    raw_json: json(event.raw),
    source: IMPORT_SOURCE,
    occurred_at: at,
  };
}

/** First row of an imported thread: format, name, input sha256, counts and the trace's declarations. */
export function importEventRow(metadata: unknown, at: string): EventDraft {
  return {
    kind: "event",
    type: IMPORT_EVENT,
    call_key: null,
    result: null,
    step: null,
    role: null,
    text: null,
    data_json: json(metadata),
    raw_json: null,
    source: IMPORT_SOURCE,
    occurred_at: at,
  };
}

/** What the adapter could not map, kept after the timeline with its path and raw item. */
export function issueRows(issues: readonly ImportIssue[], at: string): EventDraft[] {
  return issues.map((issue) => ({
    kind: "event",
    type: IMPORT_ISSUE_EVENT,
    call_key: null,
    result: null,
    step: null,
    role: null,
    text: issue.message,
    data_json: JSON.stringify({ path: issue.path, message: issue.message }),
    raw_json: json(issue.raw),
    source: IMPORT_SOURCE,
    occurred_at: at,
  }));
}
