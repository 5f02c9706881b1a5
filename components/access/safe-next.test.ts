import { describe, expect, it } from "vitest";
import { safeNextPath } from "./safe-next.ts";

const ORIGIN = "http://127.0.0.1:3000";

describe("safeNextPath (the sign-in page's next=)", () => {
  it("keeps a page of this origin with its query and hash", () => {
    expect(safeNextPath("/threads/a%2Fb?q=x#event-4", ORIGIN)).toBe("/threads/a%2Fb?q=x#event-4");
    expect(safeNextPath("/calls", ORIGIN)).toBe("/calls");
  });

  it("never leads to another origin, whatever the spelling", () => {
    const attempts = [
      "//evil.com",
      "/\\evil.com",
      "/\t/evil.com",
      "/\n/evil.com",
      "/\r\\evil.com",
      "/\t\\evil.com",
      "\t//evil.com",
      "https:evil.com",
      "https://evil.com",
      "javascript:alert(1)",
      " //evil.com",
      "evil.com",
    ];
    for (const next of attempts) {
      const target = safeNextPath(next, ORIGIN);
      expect(new URL(target, ORIGIN).origin, JSON.stringify(next)).toBe(ORIGIN);
    }
  });

  it("answers / for nothing or nonsense", () => {
    expect(safeNextPath(null, ORIGIN)).toBe("/");
    expect(safeNextPath("", ORIGIN)).toBe("/");
  });
});
