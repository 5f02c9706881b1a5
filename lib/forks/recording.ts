// Which recorded call of the original answers a fork's call: the same tool with the same arguments (JSON
// compared by value, key order aside; other text compared exactly). Pure.
import type { RecordedCall } from "./answers-repository.ts";

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    return `{${Object.entries(value)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The arguments as compared: parsed JSON in a key-order-free form, else the text itself. */
export function argumentsKey(argumentsJson: string | null, argumentsText: string | null): string {
  if (argumentsJson !== null) {
    try {
      return `json:${canonicalJson(JSON.parse(argumentsJson))}`;
    } catch {
      // fall through to the text
    }
  }
  return `text:${argumentsText ?? ""}`;
}

/**
 * The recorded call for a fork call of `toolName` with `argsKey`: the first one not used yet by another answer
 * of this fork, preferring calls the fork did not copy as history (those came after the fork point, where the
 * fork's model is now); else the first match. Null when the original never made such a call.
 */
export function matchRecording(options: {
  toolName: string;
  argsKey: string;
  candidates: readonly RecordedCall[];
  used: ReadonlySet<string>;
  historyCallKeys: ReadonlySet<string>;
}): RecordedCall | null {
  const matches = options.candidates.filter(
    (candidate) =>
      candidate.result !== null &&
      candidate.toolName === options.toolName &&
      argumentsKey(candidate.argumentsJson, candidate.argumentsText) === options.argsKey,
  );
  const fresh = matches.filter((candidate) => !options.used.has(candidate.callKey));
  return fresh.find((candidate) => !options.historyCallKeys.has(candidate.callKey)) ?? fresh[0] ?? matches[0] ?? null;
}
