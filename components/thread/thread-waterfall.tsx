"use client";
// The thread's waterfall: one line per call of the loaded window, a bar from its start offset (since the
// window's first call) for its duration, so parallel calls show side by side and slow tools stand out.
// Virtualized like the rows view; the same window, search and filter feed both. Lines are measured: on a
// narrow screen a line is two rows (the tool's name above its bar), so a name is not cut to a few letters.
import { useVirtualizer } from "@tanstack/react-virtual";
import Link from "next/link";
import { useLayoutEffect, useMemo, useRef } from "react";
import { formatDuration } from "@/components/ui/format-time.ts";
import { useNow } from "@/components/ui/use-now.ts";
import { presentUntrustedText } from "@/lib/calls/untrusted-text.ts";
import type { CallBrief } from "@/lib/threads/schemas.ts";
import type { TimelineWindow } from "./use-timeline-window.ts";
import { barLabel, barOutcome } from "./waterfall-bar.ts";
import { placeBar, waterfallScale, type Zoom } from "./waterfall-scale.ts";
import { WaterfallZoom } from "./waterfall-zoom.tsx";
import { TurnBarLine } from "@/components/model-turns/turn-bar-line.tsx";
import { turnSpan } from "@/components/model-turns/turn-bar.ts";
import type { ModelTurnBrief } from "@/lib/model-turns/schemas.ts";

const LINE_PX = 28;

type Bar = {
  call: CallBrief | null;
  /** A model turn's bar (lib/model-turns) instead of a call's. */
  turn?: ModelTurnBrief;
  eventId: number;
  start: number;
  end: number;
  open: boolean;
  batch: number | null;
};

function barsOf(win: TimelineWindow, now: number | null): Bar[] {
  const bars: Bar[] = [];
  const turns = new Map(win.state.events.flatMap((event) => (event.turn ? [[event.id, event.turn] as const] : [])));
  for (const row of win.rows) {
    if (row.kind === "event") {
      const turn = turns.get(row.eventId);
      if (turn) bars.push({ call: null, turn, eventId: row.eventId, ...turnSpan(turn), open: false, batch: null });
      continue;
    }
    if (row.kind !== "call") continue;
    const call = win.state.calls.get(row.callRowId);
    if (!call) continue;
    const start = Date.parse(call.requestedAt);
    const finished = call.completedAt ?? call.timedOutAt;
    const end = finished ? Date.parse(finished) : (now ?? start);
    bars.push({
      call,
      eventId: row.eventId,
      start,
      end: Math.max(start, end),
      open: finished === null,
      batch: row.batch ? row.batch.step : null,
    });
  }
  return bars;
}

// eslint-disable-next-line max-lines-per-function -- the virtualized list's one render: call lines and model-turn lines share its scale and scroll
export function ThreadWaterfall({
  win,
  zoom,
  onZoom,
}: {
  win: TimelineWindow;
  zoom: Zoom | null;
  onZoom: (zoom: Zoom | null) => void;
}) {
  const now = useNow();
  const bars = useMemo(() => barsOf(win, now), [win, now]);
  const scale = waterfallScale(bars, zoom);
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: bars.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => LINE_PX,
    overscan: 12,
    initialRect: { width: 1200, height: 720 },
  });
  const target = win.target;
  useLayoutEffect(() => {
    if (!target) return;
    const index = bars.findIndex((bar) => bar.eventId === target.eventId);
    if (index >= 0) virtualizer.scrollToIndex(index, { align: "center" });
    // Applied once per jump.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [target]);

  return (
    <div className="timeline-frame">
      <WaterfallZoom scale={scale} calls={bars.length} zoom={zoom} onZoom={onZoom} />
      <div
        ref={scrollRef}
        className="timeline-scroll wf-scroll"
        role="list"
        aria-label="Waterfall of calls and model turns"
        data-testid="waterfall"
      >
        {bars.length === 0 ? <p className="muted timeline-empty">No calls in view.</p> : null}
        <div className="timeline-sizer" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const bar = bars[item.index];
            if (!bar) return null;
            if (bar.turn) {
              const place = placeBar(bar, scale);
              return (
                <TurnBarLine
                  key={item.key}
                  turn={bar.turn}
                  index={item.index}
                  top={item.start}
                  minHeight={LINE_PX}
                  measureElement={virtualizer.measureElement}
                  target={target?.eventId === bar.eventId}
                  offsetMs={bar.start - scale.origin}
                  left={`${place.left.toFixed(3)}%`}
                  width={`${place.width.toFixed(3)}%`}
                />
              );
            }
            if (!bar.call) return null;
            const tool = presentUntrustedText(bar.call.toolName);
            const offset = bar.start - scale.origin;
            const duration = bar.end - bar.start;
            const place = placeBar(bar, scale);
            const label = barLabel({
              tool,
              callKey: presentUntrustedText(bar.call.callKey),
              status: bar.call.status,
              open: bar.open,
              offsetMs: offset,
              durationMs: duration,
            });
            const outcome = barOutcome(bar.call.status, bar.open);
            return (
              <div
                key={item.key}
                ref={virtualizer.measureElement}
                data-index={item.index}
                role="listitem"
                className={`wf-line${target?.eventId === bar.eventId ? " wf-target" : ""}`}
                style={{ transform: `translateY(${item.start}px)`, minHeight: LINE_PX }}
                data-testid="waterfall-line"
                aria-label={label}
              >
                <Link href={`/calls/${bar.call.id}`} className="wf-name mono" title={label}>
                  {bar.batch !== null ? <span className="wf-step">s{bar.batch}</span> : null}
                  {tool}
                </Link>
                <span className="wf-track" aria-hidden="true">
                  {place.visible ? (
                    <span
                      className={`wf-bar wf-${outcome.tone}${place.pastEnd ? " wf-past-end" : ""}${place.pastStart ? " wf-past-start" : ""}`}
                      style={{ left: `${place.left.toFixed(3)}%`, width: `max(2px, ${place.width.toFixed(3)}%)` }}
                      title={label}
                      data-testid="waterfall-bar"
                    />
                  ) : null}
                </span>
                <span className="wf-figures small mono">
                  <span className="wf-times">
                    +{formatDuration(offset)} · {formatDuration(duration)}
                  </span>
                  {outcome.word ? (
                    <span className={`wf-word wf-word-${outcome.tone}`} data-testid="waterfall-outcome">
                      {outcome.word}
                    </span>
                  ) : null}
                </span>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
