// Owns the timeline page DTO: event rows in, TimelineEvent / CallBrief out, with short, masked previews
// of texts read as heads (never whole bodies). Used by every window read of the thread page.
import "server-only";
import { MODEL_TURN_EVENT } from "../model-turns/schemas.ts";
import { turnBriefsByEvent } from "../model-turns/service.ts";
import type { Database } from "../db/client.ts";
import { previewUntrustedText } from "../calls/untrusted-text.ts";
import { chooseDisplay } from "../results/display.ts";
import {
  findCallBriefs,
  findLatestResultBriefs,
  findTextHeads,
  type CallBriefRow,
  type EventRow,
  type Heads,
  type ResultBriefRow,
} from "./repository.ts";
import type { CallBrief, ResultBrief, TimelineEvent, TimelinePage } from "./schemas.ts";
import { decodeStoredHead } from "./stored-text-head.ts";

// Preview lengths (characters) and the margin read beyond them, so a secret straddling the cut is still masked.
const HEAD_MARGIN = 64;
const EVENT_TEXT_PREVIEW = 1000;
const ARGUMENTS_PREVIEW = 200;
const RESULT_PREVIEW = 240;
const DISPLAY_AS_HEAD = 4000;
const DISPLAY_LABEL = 160;

const NO_TEXT_KINDS = new Set(["tool_call", "tool_result", "timeout", MODEL_TURN_EVENT]);

/** Calls and paired results keep their text on their own rows; a result with no call (an import's orphan) keeps it on the event. */
function eventCarriesText(row: { kind: string; toolCallId: number | null }): boolean {
  return !NO_TEXT_KINDS.has(row.kind) || (row.kind === "tool_result" && row.toolCallId === null);
}

function headPreview(
  heads: Heads,
  id: number,
  column: string,
  escaped: boolean,
  limit: number,
): { text: string; truncated: boolean } | null {
  const raw = heads.get(id)?.[column];
  if (raw === null || raw === undefined) return null;
  const complete = raw.length < limit + HEAD_MARGIN;
  return previewUntrustedText(decodeStoredHead(raw, escaped, complete), limit, !complete);
}

// The display choice in one line, from the first characters of display_as: a text segment's content,
// or a diff's path (read from the head even when a long patch makes the whole value unreadable here).
function displayLabel(displayKind: string, head: string | null | undefined): string | null {
  if (!head || displayKind === "raw") return null;
  let label: string | null = null;
  if (head.length < DISPLAY_AS_HEAD) {
    try {
      const choice = chooseDisplay(JSON.parse(head));
      label = choice.kind === "text" ? choice.content : choice.kind === "diff" ? choice.path : null;
    } catch {
      label = null;
    }
  } else if (displayKind === "diff") {
    const match = /"path"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(head);
    try {
      const path: unknown = match?.[1] ? JSON.parse(match[1]) : null;
      label = typeof path === "string" ? path : null;
    } catch {
      label = null;
    }
  }
  return label === null ? null : previewUntrustedText(label, DISPLAY_LABEL).text;
}

function toResultBrief(row: ResultBriefRow, heads: Heads): ResultBrief {
  const preview = headPreview(heads, row.id, "text", row.textEscaped, RESULT_PREVIEW) ?? { text: "", truncated: false };
  return {
    id: row.id,
    ordinal: row.ordinal,
    receivedAt: row.receivedAt,
    late: row.late,
    displayKind: row.displayKind,
    displayLabel: displayLabel(row.displayKind, heads.get(row.id)?.displayAsJson),
    isError: row.isError,
    errorSource: row.errorSource,
    envelopeKind: row.envelopeKind,
    success: row.success,
    confidence: row.confidence,
    nextAction: row.nextAction,
    isMcp: row.isMcp,
    schemaStatus: row.schemaStatus,
    textBytes: row.textBytes,
    invisibleCount: row.invisibleCount,
    secretCount: row.secretCount,
    preview: preview.text,
    previewTruncated: preview.truncated,
  };
}

function toCallBrief(row: CallBriefRow, argumentHeads: Heads, latest: ResultBrief | null): CallBrief {
  const json = headPreview(argumentHeads, row.id, "argumentsJson", false, ARGUMENTS_PREVIEW);
  const text = json
    ? null
    : headPreview(argumentHeads, row.id, "argumentsText", row.argumentsEscaped, ARGUMENTS_PREVIEW);
  const args = json ?? text;
  return {
    id: row.id,
    callKey: row.callKey,
    callId: row.callId,
    toolName: row.toolName,
    status: row.status,
    step: row.step,
    subscription: row.subscription,
    vendor: row.vendor,
    requestedAt: row.requestedAt,
    completedAt: row.completedAt,
    deadlineAt: row.deadlineAt,
    timedOutAt: row.timedOutAt,
    resultCount: row.resultCount,
    argumentsPreview: args ? `${args.text}${args.truncated ? "…" : ""}` : "",
    argumentsIsJson: json !== null,
    latestResult: latest,
  };
}

function errorLayer(dataJson: string | null): string | null {
  if (!dataJson) return null;
  try {
    const data: unknown = JSON.parse(dataJson);
    if (typeof data === "object" && data !== null && "layer" in data && typeof data.layer === "string")
      return data.layer;
  } catch {
    // Not ours to judge here: an unreadable dataJson just has no layer.
  }
  return null;
}

export type PageMeta = {
  hasMore: boolean;
  hasBefore: boolean;
  firstEventId: number;
  lastEventId: number;
  matches: number | null;
  epoch: number;
};

/** The page for these rows (in id order): events with previews plus the current state of every call they mention. */
export async function buildTimelinePage(
  db: Database,
  groupId: string,
  rows: EventRow[],
  meta: PageMeta,
): Promise<TimelinePage> {
  const callIds = [...new Set(rows.flatMap((row) => (row.toolCallId === null ? [] : [row.toolCallId])))];
  const textEventIds = rows.filter(eventCarriesText).map((row) => row.id);
  const calls = await findCallBriefs(db.client, callIds);
  const latest = await findLatestResultBriefs(db.client, calls);
  const [eventHeads, argumentHeads, resultHeads] = await Promise.all([
    findTextHeads(db.client, "Event", textEventIds, EVENT_TEXT_PREVIEW + HEAD_MARGIN),
    findTextHeads(db.client, "ToolCall", callIds, ARGUMENTS_PREVIEW + HEAD_MARGIN),
    findTextHeads(
      db.client,
      "ToolResult",
      latest.map((result) => result.id),
      Math.max(RESULT_PREVIEW + HEAD_MARGIN, DISPLAY_AS_HEAD),
    ),
  ]);
  const latestByCall = new Map(latest.map((row) => [row.toolCallId, toResultBrief(row, resultHeads)]));
  const turns = await turnBriefsByEvent(
    db,
    rows.filter((row) => row.kind === MODEL_TURN_EVENT).map((row) => row.id),
  );
  const events: TimelineEvent[] = rows.map((row) => {
    const text = eventCarriesText(row)
      ? headPreview(eventHeads, row.id, "text", row.textEscaped, EVENT_TEXT_PREVIEW)
      : null;
    return {
      id: row.id,
      kind: row.kind,
      step: row.step,
      role: row.role,
      occurredAt: row.occurredAt,
      source: row.source,
      text: text?.text ?? null,
      textTruncated: text?.truncated ?? false,
      layer: row.kind === "error" ? errorLayer(row.dataJson) : null,
      callRowId: row.toolCallId,
      resultId: row.resultId,
      turn: turns.get(row.id) ?? null,
    };
  });
  return {
    groupId,
    events,
    calls: calls.map((call) => toCallBrief(call, argumentHeads, latestByCall.get(call.id) ?? null)),
    ...meta,
  };
}
