// The threads list cursor survives a URL round trip and rejects anything it did not make.
import { describe, expect, it } from "vitest";
import { decodeThreadCursor, encodeThreadCursor } from "./cursor.ts";

describe("thread cursor", () => {
  it("round-trips and is URL-safe", () => {
    const cursor = { lastActivityAt: "2026-11-22T10:00:00.123Z", id: 4711 };
    const token = encodeThreadCursor(cursor);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeThreadCursor(token)).toEqual(cursor);
  });

  it.each([
    ["not base64", "%%%"],
    ["not JSON", "bm90IGpzb24"],
    ["wrong shape", encodeURIComponent(btoa(JSON.stringify({ a: 1 })))],
    ["bad date", btoa(JSON.stringify(["yesterday", 3])).replace(/=+$/, "")],
    ["negative id", btoa(JSON.stringify(["2026-01-01T00:00:00Z", -1])).replace(/=+$/, "")],
    ["empty", ""],
  ])("rejects %s", (_name, token) => {
    expect(decodeThreadCursor(token)).toBeNull();
  });
});
