// The thread page's shareable address: the filter and the reader's row written into the query, the rest kept.
import { describe, expect, it } from "vitest";
import { threadShareUrl } from "./use-thread-url.ts";

const BASE = "http://127.0.0.1:3000/threads/team%20a";

describe("threadShareUrl", () => {
  it("writes the search, the filter and the call the reader is on", () => {
    expect(threadShareUrl(BASE, { filter: { q: "city 5", only: "errors" }, row: { call: "call_7" } })).toBe(
      `${BASE}?q=city+5&only=errors&call=call_7`,
    );
  });
  it("drops a cleared search and filter, and replaces step / event / call with the row now shown", () => {
    expect(threadShareUrl(`${BASE}?q=x&only=pending&step=600&call=old`, { filter: {}, row: { event: 42 } })).toBe(
      `${BASE}?event=42`,
    );
    expect(threadShareUrl(`${BASE}?event=42`, { filter: {}, row: { call: "c/1" } })).toBe(`${BASE}?call=c%2F1`);
  });
  it("leaves the row parameters alone until the reader has moved, and keeps other parameters", () => {
    expect(threadShareUrl(`${BASE}?call=call_9&tab=x`, { filter: { q: "a" }, row: null })).toBe(
      `${BASE}?call=call_9&tab=x&q=a`,
    );
  });
  it("writes the waterfall view and its zoom, and drops both back in the rows view", () => {
    const waterfall = threadShareUrl(BASE, { filter: {}, row: null, view: "waterfall", zoom: { from: 100, to: 2500 } });
    expect(waterfall).toBe(`${BASE}?view=waterfall&wf=100-2500`);
    expect(threadShareUrl(waterfall, { filter: {}, row: null, view: "rows", zoom: { from: 100, to: 2500 } })).toBe(
      BASE,
    );
  });
});
