// The waterfall's time scale. The full width used to be the loaded window's wall-clock span up to now, so one
// call left open (pending for minutes) squashed every finished call to a 1-px sliver. Now the scale ends where
// the finished calls end (or the last open call starts): an open bar is capped at the right edge and marked as
// running on, and a zoom (a time range the reader selected, kept in the address) narrows the scale to it.
// Pure: tested in waterfall-scale.test.ts.

export type TimedBar = { start: number; end: number; open: boolean };

/** A time range in ms since the scale's origin (the window's first call): what the reader zoomed to. */
export type Zoom = { from: number; to: number };

export type Scale = {
  /** Epoch ms of offset 0: the first call's start. */
  origin: number;
  /** Offsets shown: [from, to] since the origin. */
  from: number;
  to: number;
  /** True when at least one open bar runs past the right edge. */
  capped: boolean;
};

/** The smallest range a zoom may show, so a bar never gets wider than the screen for a 0-ms call. */
const MIN_SPAN_MS = 1;

export function waterfallScale(bars: readonly TimedBar[], zoom: Zoom | null): Scale {
  const origin = bars.reduce((min, bar) => Math.min(min, bar.start), Number.POSITIVE_INFINITY);
  if (!Number.isFinite(origin)) return { origin: 0, from: 0, to: MIN_SPAN_MS, capped: false };
  // Where the known story ends: the last finished call, or the last open call's start. With nothing finished
  // at all, how long the open calls have been open so far.
  const anyFinished = bars.some((bar) => !bar.open);
  const end = bars.reduce((max, bar) => Math.max(max, anyFinished && bar.open ? bar.start : bar.end), origin);
  const full = Math.max(MIN_SPAN_MS, end - origin);
  const from = zoom ? Math.max(0, Math.min(zoom.from, zoom.to)) : 0;
  const to = zoom ? Math.max(from + MIN_SPAN_MS, Math.max(zoom.from, zoom.to)) : full;
  const capped = bars.some((bar) => bar.end - origin > to);
  return { origin, from, to, capped };
}

/** Where a bar sits on the scale, in percent of the track, and whether it runs past either edge. */
export type Placement = { left: number; width: number; pastStart: boolean; pastEnd: boolean; visible: boolean };

export function placeBar(bar: TimedBar, scale: Scale): Placement {
  const span = scale.to - scale.from;
  const start = bar.start - scale.origin;
  const end = bar.end - scale.origin;
  const clippedStart = Math.max(start, scale.from);
  const clippedEnd = Math.min(end, scale.to);
  const visible = end >= scale.from && start <= scale.to;
  return {
    left: visible ? ((clippedStart - scale.from) / span) * 100 : 0,
    width: visible ? (Math.max(0, clippedEnd - clippedStart) / span) * 100 : 0,
    pastStart: start < scale.from,
    pastEnd: end > scale.to,
    visible,
  };
}

/** `?wf=1200-4500` (ms since the first call) → a zoom; anything else → none. */
export function parseZoom(value: string | null | undefined): Zoom | null {
  const match = /^(\d{1,12})-(\d{1,12})$/.exec(value ?? "");
  if (!match) return null;
  const from = Number(match[1]);
  const to = Number(match[2]);
  return to > from ? { from, to } : null;
}

export function formatZoom(zoom: Zoom): string {
  return `${Math.round(zoom.from)}-${Math.round(zoom.to)}`;
}
