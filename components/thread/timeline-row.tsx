"use client";
// One row of the thread timeline (a call with its newest result, a parallel-batch header, or a model /
// runtime event) as a feed article. Collapsed rows have fixed heights so nothing shifts as data arrives.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { memo, type CSSProperties } from "react";
import { queryKeys } from "@/components/providers/query-keys.ts";
import { ResultBadges } from "@/components/result/result-badges.tsx";
import { StatusBadge } from "@/components/ui/status-badge.tsx";
import { TimeAgo, formatDuration } from "@/components/ui/time-ago.tsx";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import type { CallBrief, EventText, TimelineEvent } from "@/lib/threads/schemas.ts";
import type { TimelineRow } from "@/lib/threads/timeline-rows.ts";
import { fetchJson } from "@/components/ui/fetch-json.ts";
import { CallRowDetails } from "./call-row-details.tsx";
import { ModelTurnRowBody } from "@/components/model-turns/model-turn-row.tsx";

export type TimelineRowProps = {
  row: TimelineRow;
  index: number;
  /** -1 while more history may follow (ARIA: size unknown). */
  setSize: number;
  start: number;
  focused: boolean;
  expanded: boolean;
  event: TimelineEvent | undefined;
  call: CallBrief | undefined;
  groupId: string;
  measureRef: (element: HTMLElement | null) => void;
  onFocusRow: (index: number) => void;
  onToggle: (key: string) => void;
};

/**
 * Heights (px) the virtualizer assumes before measuring. Collapsed call and batch rows are exactly this
 * tall; an event's text is clamped to two lines, guessed from its length (a wrong guess is corrected by
 * measurement, moving only rows below it).
 */
export function estimateRowSize(row: TimelineRow | undefined, event: TimelineEvent | undefined): number {
  if (!row || row.kind === "call") return 56;
  if (row.kind === "batch") return 31;
  if (event?.turn) return 57;
  const text = event?.text ?? "";
  const twoLines = text.length > 110 || text.includes("\n");
  return twoLines ? 77 : 57;
}

/** "10:02:03" in UTC: the same on the server and in every browser (no hydration mismatch). */
function clock(iso: string): string {
  return iso.slice(11, 19);
}

const EVENT_LABELS: Record<string, string> = {
  output_text: "model output",
  reasoning: "reasoning",
  error: "error",
  timeout: "timed out",
  subscription_cancelled: "subscription cancelled",
};

function eventLabel(event: TimelineEvent): string {
  if (event.kind === "message") return event.role ?? "message";
  return EVENT_LABELS[event.kind] ?? event.kind.replaceAll("_", " ");
}

function Timing({ call }: { call: CallBrief }) {
  if (call.status === "pending") {
    return (
      <span className="tl-timing">
        waiting <TimeAgo iso={call.requestedAt} suffix="" />
      </span>
    );
  }
  if (call.completedAt) {
    return (
      <span className="tl-timing">{formatDuration(Date.parse(call.completedAt) - Date.parse(call.requestedAt))}</span>
    );
  }
  if (call.timedOutAt) return <span className="tl-timing">deadline {clock(call.timedOutAt)}</span>;
  return null;
}

function CallRowBody({
  call,
  expanded,
  onToggle,
  rowKey,
  titleId,
}: {
  call: CallBrief;
  expanded: boolean;
  onToggle: () => void;
  rowKey: string;
  titleId: string;
}) {
  const latest = call.latestResult;
  const tool = presentUntrustedText(call.toolName);
  return (
    <>
      <div className="tl-head">
        <button
          type="button"
          className="tl-toggle"
          aria-expanded={expanded}
          aria-controls={`${rowKey}-details`}
          onClick={onToggle}
          aria-label={`${expanded ? "Hide" : "Show"} arguments of ${tool}`}
        >
          <span aria-hidden="true">{expanded ? "▾" : "▸"}</span>
        </button>
        <span className="tl-tool mono" id={titleId}>
          {tool}
        </span>
        <span className="tl-key mono" title="Call id">
          {presentUntrustedText(call.callKey)}
        </span>
        <StatusBadge status={call.status} />
        <Timing call={call} />
        {latest ? <ResultBadges result={latest} resultCount={call.resultCount} /> : null}
        <Link href={`/calls/${call.id}`} className="tl-open">
          Details
          <span className="sr-only">
            {" "}
            of {tool} {call.callKey}
          </span>{" "}
          →
        </Link>
      </div>
      <div className="tl-preview mono">
        <span className="tl-args" title="Arguments">
          {call.argumentsPreview || "(no arguments)"}
        </span>
        {latest ? (
          <>
            <span className="tl-arrow" aria-label="result">
              →
            </span>
            <span className={`tl-result${latest.isError ? " tl-result-error" : ""}`} data-testid="call-result-preview">
              {latest.displayLabel ?? (latest.preview || "(empty text)")}
            </span>
          </>
        ) : null}
      </div>
      {expanded ? (
        <div id={`${rowKey}-details`}>
          <CallRowDetails call={call} />
        </div>
      ) : null}
    </>
  );
}

function FullEventText({ groupId, eventId }: { groupId: string; eventId: number }) {
  const full = useQuery({
    queryKey: queryKeys.eventText(groupId, eventId),
    queryFn: ({ signal }) =>
      fetchJson<EventText>(`/api/threads/${encodeURIComponent(groupId)}/events/${eventId}/text`, signal),
    staleTime: Infinity,
  });
  if (full.isPending) return <span className="muted">Loading…</span>;
  if (full.isError) return <span className="notice-bad">Could not load the text: {full.error.message}</span>;
  return <>{presentUntrustedText(full.data.text)}</>;
}

function EventRowBody({
  event,
  call,
  groupId,
  expanded,
  onToggle,
  titleId,
}: {
  event: TimelineEvent;
  call: CallBrief | undefined;
  groupId: string;
  expanded: boolean;
  onToggle: () => void;
  titleId: string;
}) {
  const label = eventLabel(event);
  const long = event.textTruncated || (event.text?.length ?? 0) > 240 || (event.text?.includes("\n") ?? false);
  const tone =
    event.kind === "error"
      ? "bad"
      : event.kind === "timeout"
        ? "warn"
        : event.kind === "reasoning"
          ? "muted"
          : "neutral";
  return (
    <>
      <div className="tl-head">
        <span className={`chip chip-${tone}`} id={titleId}>
          {label}
        </span>
        {event.layer ? <span className="chip">{event.layer}</span> : null}
        {call ? (
          <Link href={`/calls/${call.id}`} className="tl-call-ref mono">
            {presentUntrustedText(call.toolName)} · {presentUntrustedText(call.callKey)}
          </Link>
        ) : null}
        {event.kind === "timeout" && call?.deadlineAt ? (
          <span className="tl-timing">deadline {clock(call.deadlineAt)} UTC</span>
        ) : null}
      </div>
      {event.text !== null ? (
        <div className={`tl-text${expanded ? " tl-text-open" : ""}`}>
          {expanded && event.textTruncated ? <FullEventText groupId={groupId} eventId={event.id} /> : event.text}
        </div>
      ) : event.kind === "timeout" ? (
        <div className="tl-text muted">The call passed its deadline without a result.</div>
      ) : null}
      {event.text !== null && long ? (
        <button type="button" className="link-button small" aria-expanded={expanded} onClick={onToggle}>
          {expanded ? "Show less" : "Show more"}
        </button>
      ) : null}
    </>
  );
}

function rowClass(row: TimelineRow, event: TimelineEvent | undefined): string {
  if (row.kind === "batch") return "tl-row tl-batch";
  if (row.kind === "event") return `tl-row tl-event tl-kind-${event?.kind ?? "unknown"}`;
  if (!row.batch) return "tl-row tl-call";
  const edge = row.batch.index === row.batch.size - 1 ? " tl-batch-last" : "";
  return `tl-row tl-call tl-in-batch${edge}`;
}

export const TimelineRowView = memo(function TimelineRowView(props: TimelineRowProps) {
  const { row, index, setSize, start, focused, expanded, event, call, groupId, measureRef, onFocusRow, onToggle } =
    props;
  const titleId = `${row.key}-title`;
  const style: CSSProperties = { transform: `translateY(${start}px)` };
  const onFocus = () => {
    if (!focused) onFocusRow(index);
  };
  const common = {
    ref: measureRef,
    "data-index": index,
    "data-row-key": row.key,
    "data-row-kind": row.kind,
    className: `${rowClass(row, event)}${focused ? " tl-focused" : ""}`,
    style,
    tabIndex: focused ? 0 : -1,
    "aria-posinset": index + 1,
    "aria-setsize": setSize,
    onFocus,
  };

  if (row.kind === "batch") {
    return (
      <article
        {...common}
        aria-label={`Parallel batch: step ${row.step}, ${row.size} calls`}
        data-testid="parallel-batch"
      >
        <div className="tl-gutter" />
        <div className="tl-body tl-batch-label">
          <span aria-hidden="true">⇉</span> Parallel batch · step {row.step} · {row.size} parallel calls
        </div>
      </article>
    );
  }
  const time = event ? clock(event.occurredAt) : "";
  return (
    <article {...common} aria-labelledby={titleId} data-call-row-id={row.kind === "call" ? row.callRowId : undefined}>
      <div className="tl-gutter">
        <time dateTime={event?.occurredAt} title={event?.occurredAt}>
          {time}
        </time>
      </div>
      <div className="tl-body">
        {row.kind === "call" ? (
          call ? (
            <CallRowBody
              call={call}
              expanded={expanded}
              onToggle={() => onToggle(row.key)}
              rowKey={row.key}
              titleId={titleId}
            />
          ) : (
            <span id={titleId} className="muted">
              Call #{row.callRowId}
            </span>
          )
        ) : event?.turn ? (
          <ModelTurnRowBody turn={event.turn} titleId={titleId} />
        ) : event ? (
          <EventRowBody
            event={event}
            call={call}
            groupId={groupId}
            expanded={expanded}
            onToggle={() => onToggle(row.key)}
            titleId={titleId}
          />
        ) : null}
      </div>
    </article>
  );
});
