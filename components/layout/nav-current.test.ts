import { describe, expect, it } from "vitest";
import { isCurrentNavLink } from "./nav-current.ts";

describe("isCurrentNavLink", () => {
  it("marks one link per page: a sibling whose path merely starts the same is not current", () => {
    expect(isCurrentNavLink("/settings/access-log", "/settings/access-log")).toBe(true);
    expect(isCurrentNavLink("/settings/access", "/settings/access-log")).toBe(false);
    expect(isCurrentNavLink("/settings/access", "/settings/access")).toBe(true);
    expect(isCurrentNavLink("/threads", "/threads/qa-hard/replay")).toBe(true);
    expect(isCurrentNavLink("/calls", "/calls/42")).toBe(true);
    expect(isCurrentNavLink("/", "/threads")).toBe(false);
    expect(isCurrentNavLink("/", "/")).toBe(true);
  });
});
