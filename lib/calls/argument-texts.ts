// Long text inside a call's arguments (a patch, a file's new content, a shell script): the string values that span
// lines, found in the parsed arguments so the call page can show them as text rather than one escaped JSON string,
// and whether each reads as a unified diff (offered "view as diff"). Pure and client-safe.

export type ArgumentText = {
  /** Where the string sits in the arguments, as a JSON Pointer ("/patch", "/files/0/content"). */
  pointer: string;
  text: string;
  /** A unified diff (hunk headers with added or removed lines, or a git / ---+++ file header). */
  patch: boolean;
};

/** At most this many texts are shown; the rest stay in the JSON views. */
const MAX_TEXTS = 20;
/** Containers nested deeper than this are not searched. */
const MAX_DEPTH = 6;

const escapePointer = (segment: string) => segment.replaceAll("~", "~0").replaceAll("/", "~1");

/** True when `text` reads as a unified diff: a `@@ -a,b +c,d @@` hunk header followed by changed lines. */
export function looksLikePatch(text: string): boolean {
  const lines = text.split("\n");
  const hunk = lines.findIndex((line) => /^@@ -\d+(,\d+)? \+\d+(,\d+)? @@/.test(line));
  if (hunk < 0) return false;
  return lines.slice(hunk + 1).some((line) => line.startsWith("+") || line.startsWith("-"));
}

/** The multi-line strings in `value` (depth-first, in key order), each with its pointer and whether it is a patch. */
export function argumentTexts(value: unknown): ArgumentText[] {
  const found: ArgumentText[] = [];
  const walk = (node: unknown, pointer: string, depth: number) => {
    if (found.length >= MAX_TEXTS) return;
    if (typeof node === "string") {
      if (node.includes("\n")) found.push({ pointer, text: node, patch: looksLikePatch(node) });
      return;
    }
    if (node === null || typeof node !== "object" || depth >= MAX_DEPTH) return;
    const entries = Array.isArray(node)
      ? node.map((item, index) => [String(index), item] as const)
      : Object.entries(node);
    for (const [key, child] of entries) walk(child, `${pointer}/${escapePointer(key)}`, depth + 1);
  };
  walk(value, "", 0);
  return found;
}
