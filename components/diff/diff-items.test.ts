import { describe, expect, it } from "vitest";
import type { HunkData } from "react-diff-view";
import { lineNumberDigits } from "./diff-items.ts";

const hunk = (oldStart: number, oldLines: number, newStart: number, newLines: number): HunkData => ({
  content: "@@",
  oldStart,
  oldLines,
  newStart,
  newLines,
  changes: [],
});

describe("lineNumberDigits", () => {
  it("counts the digits of the largest line number on either side", () => {
    expect(lineNumberDigits([hunk(1, 2, 1, 2)])).toBe(1);
    expect(lineNumberDigits([hunk(1, 3, 1, 3), hunk(95, 4, 95, 6)])).toBe(3); // new side ends at line 100
    expect(lineNumberDigits([hunk(9_990, 20, 9_990, 5)])).toBe(5); // old side ends at line 10,009
  });

  it("holds one digit for a file with no hunks", () => {
    expect(lineNumberDigits([])).toBe(1);
  });
});
