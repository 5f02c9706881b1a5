// The fork form's draft: what the person changed, event by event, turned into the API's edits. Pure, client-safe.
import type { CanonicalEvent } from "@/lib/formats/canonical.ts";
import type { ForkEdit } from "@/lib/forks/schemas.ts";

export type InsertedMessage = { role: "system" | "user" | "assistant"; text: string };

export type ForkDraft = {
  dropped: ReadonlySet<number>;
  /** Call id → new result text / new arguments text / new display segments (JSON text). */
  results: ReadonlyMap<string, string>;
  arguments: ReadonlyMap<string, string>;
  displays: ReadonlyMap<string, string>;
  /** Event index (−1: first) → messages inserted after it. */
  inserts: ReadonlyMap<number, readonly InsertedMessage[]>;
};

export const EMPTY_DRAFT: ForkDraft = {
  dropped: new Set(),
  results: new Map(),
  arguments: new Map(),
  displays: new Map(),
  inserts: new Map(),
};

export type DraftEdits = { edits: ForkEdit[]; problems: string[] };

/** The edits of a draft for a fork at `step`: only what differs from the original, only inside the first `step` events. */
export function draftEdits(draft: ForkDraft, events: readonly CanonicalEvent[], step: number): DraftEdits {
  const cut = events.slice(0, step);
  const edits: ForkEdit[] = [];
  const problems: string[] = [];
  const callIds = new Set(cut.flatMap((event) => (event.kind === "tool_call" ? [event.callId] : [])));
  const originalResult = new Map<string, string>();
  for (const event of cut)
    if (event.kind === "tool_result" && !originalResult.has(event.callId)) originalResult.set(event.callId, event.text);
  const originalArguments = new Map(
    cut.flatMap((event) => (event.kind === "tool_call" ? [[event.callId, event.argumentsText] as const] : [])),
  );

  for (const [call, text] of draft.results)
    if (callIds.has(call) && text !== originalResult.get(call)) edits.push({ call, text });
  for (const [call, text] of draft.arguments)
    if (callIds.has(call) && text !== originalArguments.get(call)) edits.push({ call, arguments: text });
  for (const [call, json] of draft.displays) {
    if (!callIds.has(call) || json.trim() === "") continue;
    try {
      const value: unknown = JSON.parse(json);
      if (value === null || Array.isArray(value))
        edits.push({
          call,
          display_as:
            value === null
              ? null
              : value.map((segment: unknown) =>
                  typeof segment === "object" && segment !== null
                    ? { type: "text", content: "", ...segment }
                    : { type: "text", content: String(segment) },
                ),
        });
      else problems.push(`Display segments of ${call}: expected a JSON array`);
    } catch (error) {
      problems.push(`Display segments of ${call}: ${error instanceof Error ? error.message : "not JSON"}`);
    }
  }
  for (const index of [...draft.dropped].sort((a, b) => a - b)) if (index < step) edits.push({ drop: index });
  for (const [after, messages] of [...draft.inserts].sort(([a], [b]) => a - b)) {
    if (after >= step) continue;
    for (const message of messages)
      if (message.text.trim() !== "") edits.push({ insert: { after, role: message.role, text: message.text } });
  }
  return { edits, problems };
}
