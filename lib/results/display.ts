// Owns the seed's display-segment rule (first supported segment wins, else the raw text). Patches are read by
// the one unified-diff reader (./unified-diff.ts).

import { describeValue, isJsonObject, readOwn } from "./json-value";
import { diffStats } from "./unified-diff.ts";

export type SkippedSegment = { index: number; type: string; reason: string };

/**
 * `skipped` lists the segments tried and rejected before the chosen one (segments after it were never
 * needed, so they are not listed). Unknown types and known types with malformed content are both skipped.
 */
export type DisplayChoice = (
  | { kind: "diff"; index: number; path: string; patch: string }
  | { kind: "text"; index: number; content: string }
  | { kind: "raw"; reason: string }
) & { skipped: SkippedSegment[] };

export function chooseDisplay(displayAs: unknown): DisplayChoice {
  if (displayAs === undefined || displayAs === null) return { kind: "raw", reason: "no display_as", skipped: [] };
  if (!Array.isArray(displayAs)) {
    return { kind: "raw", reason: `display_as is not an array (got ${describeValue(displayAs)})`, skipped: [] };
  }
  if (displayAs.length === 0) return { kind: "raw", reason: "display_as is empty", skipped: [] };

  const skipped: SkippedSegment[] = [];
  for (let index = 0; index < displayAs.length; index += 1) {
    const segment: unknown = displayAs[index];
    if (!isJsonObject(segment)) {
      skipped.push({ index, type: "(none)", reason: `segment is not an object (got ${describeValue(segment)})` });
      continue;
    }
    const type = readOwn(segment, "type");
    if (typeof type !== "string") {
      skipped.push({ index, type: "(none)", reason: `segment type is not a string (got ${describeValue(type)})` });
      continue;
    }
    const content = readOwn(segment, "content");
    if (type === "text") {
      if (typeof content !== "string") {
        skipped.push({ index, type, reason: `text content must be a string (got ${describeValue(content)})` });
      } else if (content.trim() === "") {
        // An empty summary shows a person nothing; the next segment or the raw text is strictly more useful.
        skipped.push({ index, type, reason: "text content is empty" });
      } else {
        return { kind: "text", index, content, skipped };
      }
      continue;
    }
    if (type === "diff") {
      const diff = readDiffContent(content);
      if ("reason" in diff) skipped.push({ index, type, reason: diff.reason });
      else return { kind: "diff", index, path: diff.path, patch: diff.patch, skipped };
      continue;
    }
    skipped.push({ index, type, reason: "unsupported segment type" });
  }
  return { kind: "raw", reason: `no supported segment (${skipped.length} skipped)`, skipped };
}

// A diff segment must carry a patch with at least one hunk, or the diff viewer has nothing to draw.
// A missing path is recovered from the patch headers (tools often repeat it there) before giving up.
function readDiffContent(content: unknown): { path: string; patch: string } | { reason: string } {
  if (!isJsonObject(content))
    return { reason: `diff content must be an object {path, patch} (got ${describeValue(content)})` };
  const patch = readOwn(content, "patch");
  if (typeof patch !== "string") return { reason: `diff content has no patch string (got ${describeValue(patch)})` };
  if (!HUNK_ANYWHERE.test(patch)) return { reason: "patch has no unified-diff hunk (@@ -a,b +c,d @@)" };
  const path = readOwn(content, "path");
  if (typeof path === "string" && path !== "") return { path, patch };
  const file = diffStats(patch).files[0];
  const recovered = file ? (file.newPath !== DEV_NULL ? file.newPath : file.oldPath) : "";
  if (recovered === "" || recovered === DEV_NULL)
    return { reason: "diff content has no path and the patch names no file" };
  return { path: recovered, patch };
}

const DEV_NULL = "/dev/null";
const HUNK_ANYWHERE = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/m;
