import { describe, expect, it } from "vitest";
import { SPLIT_MIN_WIDTH, shownLayout, splitFits } from "./diff-layout.ts";

describe("shownLayout", () => {
  it("draws split only where each side keeps readable lines; unified stays unified", () => {
    expect(shownLayout("split", 1172)).toBe("split");
    expect(shownLayout("split", SPLIT_MIN_WIDTH)).toBe("split");
    expect(shownLayout("split", 350)).toBe("unified"); // a 390 px phone's viewer
    expect(shownLayout("split", SPLIT_MIN_WIDTH - 1)).toBe("unified");
    expect(shownLayout("unified", 1172)).toBe("unified");
    expect(shownLayout("unified", 350)).toBe("unified");
  });

  it("keeps the choice before the viewer is measured (server render and hydration agree)", () => {
    expect(shownLayout("split", null)).toBe("split");
    expect(splitFits(null)).toBe(true);
    expect(splitFits(350)).toBe(false);
  });
});
