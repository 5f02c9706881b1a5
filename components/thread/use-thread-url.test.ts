// The thread page's shareable address: the filter and the reader's row written into the query, the rest kept.
import { describe, expect, it } from "vitest";
import { threadShareUrl } from "./use-thread-url.ts";

const BASE = "http://127.0.0.1:3000/threads/team%20a";

describe("threadShareUrl", () => {
  it("writes the search, the filter and the call the reader is on", () => {
    expect(threadShareUrl(BASE, { q: "city 5", only: "errors" }, { call: "call_7" })).toBe(
      `${BASE}?q=city+5&only=errors&call=call_7`,
    );
  });
  it("drops a cleared search and filter, and replaces step / event / call with the row now shown", () => {
    expect(threadShareUrl(`${BASE}?q=x&only=pending&step=600&call=old`, {}, { event: 42 })).toBe(`${BASE}?event=42`);
    expect(threadShareUrl(`${BASE}?event=42`, {}, { call: "c/1" })).toBe(`${BASE}?call=c%2F1`);
  });
  it("leaves the row parameters alone until the reader has moved, and keeps other parameters", () => {
    expect(threadShareUrl(`${BASE}?call=call_9&view=x`, { q: "a" }, null)).toBe(`${BASE}?call=call_9&view=x&q=a`);
  });
});
