// The waterfall's scale: an open call no longer squashes the finished ones; a zoom narrows the scale.
import { describe, expect, it } from "vitest";
import { formatZoom, parseZoom, placeBar, waterfallScale } from "./waterfall-scale.ts";

const T0 = Date.parse("2026-11-29T10:00:00Z");
const finished = (start: number, end: number) => ({ start: T0 + start, end: T0 + end, open: false });
const open = (start: number, now: number) => ({ start: T0 + start, end: T0 + now, open: true });

describe("waterfallScale", () => {
  it("ends where the finished calls end, not at now, when a call has been open for minutes", () => {
    const bars = [finished(0, 300), finished(100, 900), open(500, 8 * 60_000)];
    const scale = waterfallScale(bars, null);
    expect(scale).toEqual({ origin: T0, from: 0, to: 900, capped: true });
    // The finished calls keep their width: 300 ms of 900 is a third of the track, not 0.06 %.
    expect(placeBar(bars[0]!, scale).width).toBeCloseTo(33.33, 1);
    // The open call runs to the right edge and says it goes on.
    expect(placeBar(bars[2]!, scale)).toMatchObject({ pastEnd: true, visible: true });
    expect(placeBar(bars[2]!, scale).left + placeBar(bars[2]!, scale).width).toBeCloseTo(100, 5);
  });

  it("with only open calls, shows how long they have been open", () => {
    expect(waterfallScale([open(0, 5000), open(10, 5000)], null)).toMatchObject({ from: 0, to: 5000, capped: false });
  });

  it("a zoom shows its range: bars outside are not visible, bars across an edge are clipped and marked", () => {
    const bars = [finished(0, 100), finished(200, 600), finished(700, 800)];
    const scale = waterfallScale(bars, { from: 300, to: 500 });
    expect(scale).toMatchObject({ from: 300, to: 500, capped: true });
    expect(placeBar(bars[0]!, scale).visible).toBe(false);
    expect(placeBar(bars[1]!, scale)).toEqual({ left: 0, width: 100, pastStart: true, pastEnd: true, visible: true });
    expect(placeBar(bars[2]!, scale).visible).toBe(false);
  });

  it("an empty window has a harmless scale", () => {
    expect(waterfallScale([], null)).toEqual({ origin: 0, from: 0, to: 1, capped: false });
  });
});

describe("parseZoom / formatZoom", () => {
  it("round-trips a range and refuses anything else", () => {
    expect(parseZoom("1200-4500")).toEqual({ from: 1200, to: 4500 });
    expect(formatZoom({ from: 1200.4, to: 4499.6 })).toBe("1200-4500");
    for (const bad of [null, "", "5-5", "9-3", "a-b", "-1-3", "1-2-3"]) expect(parseZoom(bad)).toBeNull();
  });
});
