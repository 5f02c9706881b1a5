// Test support: a thread as a person reads it, one line per timeline row with each call's current state, for
// the OTel tests that compare a whole mapped thread.
import type { Database } from "../../db/client.ts";
import { getTimelinePage } from "../../threads/service.ts";

/** `turns`: include the model-turn rows (`turn <model> <in>/<out> <stop reason> <ms>`); most tests read the rest. */
export async function readThread(
  t: { database: Database },
  groupId: string,
  options: { turns?: boolean } = {},
): Promise<string[]> {
  const page = await getTimelinePage({ groupId, database: t.database, limit: 2000 });
  const calls = new Map(page.calls.map((call) => [call.id, call]));
  const events = options.turns ? page.events : page.events.filter((event) => event.kind !== "model_turn");
  return events.map((event) => {
    const turn = event.turn;
    if (turn)
      return `turn ${turn.model ?? "?"} ${turn.inputTokens ?? "-"}/${turn.outputTokens ?? "-"} ${turn.stopReason ?? "-"} ${turn.durationMs ?? "-"}ms`;
    const call = event.callRowId === null ? undefined : calls.get(event.callRowId);
    if (event.kind === "tool_call" && call)
      return `call ${call.toolName} ${call.callKey} ${call.status} ${call.argumentsPreview} → ${call.latestResult?.preview ?? "-"}`;
    if (event.kind === "tool_result") return `result ${call?.callKey ?? "?"}`;
    return `${event.kind}${event.role ? ` ${event.role}` : ""}: ${event.text ?? ""}`;
  });
}
