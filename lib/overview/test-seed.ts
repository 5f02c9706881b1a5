// Test-only factory for the dashboard's integration tests: writes traces through the real ingestion services
// (recordEvents, acceptToolResult), never through Prisma, so tests see exactly what the API would store.
import "server-only";
import type { Database } from "../db/client.ts";
import { recordEvents } from "../events/service.ts";
import { acceptToolResult, CallbackWriter, type CallbackReply } from "../ingest/service.ts";

type CallOverrides = { group_id: string; id: string } & Record<string, unknown>;
type ResultOverrides = { group_id: string; id: string } & Record<string, unknown>;

export function createSeeder(database: Database) {
  const writer = new CallbackWriter(async () => database);
  let sequence = 0;

  async function event(body: Record<string, unknown>): Promise<void> {
    const reply = await recordEvents(body, { database });
    if (reply.status >= 300) throw new Error(`event rejected (${reply.status}): ${JSON.stringify(reply.body)}`);
  }

  return {
    /** Records any runtime event (POST /api/events body). */
    event,
    /** Registers a tool call; defaults: tool "search_docs", arguments {"q":"…"}. */
    call: (overrides: CallOverrides) =>
      event({ type: "tool_call", name: "search_docs", arguments: '{"q":"toolscope"}', ...overrides }),
    cancel: (groupId: string, id: string, reason?: string) =>
      event({ type: "subscription_cancel", group_id: groupId, id, ...(reason ? { reason } : {}) }),
    /** POSTs a body to the callback exactly as the HTTP route would; `body` overrides the JSON message. */
    deliver: (
      message: ResultOverrides | null,
      options: { body?: Buffer; receivedAt?: Date; contentType?: string; tooLarge?: boolean } = {},
    ): Promise<CallbackReply> => {
      sequence += 1;
      const body =
        options.body ?? Buffer.from(JSON.stringify({ type: "tool_result", text: `result ${sequence}`, ...message }));
      return acceptToolResult(
        {
          body,
          tooLarge: options.tooLarge ?? false,
          receivedBytes: options.tooLarge ? body.length * 4 : body.length,
          contentType: options.contentType ?? "application/json",
          signature: { id: null, timestamp: null, signature: null },
          remoteAddress: "127.0.0.1",
          receivedAt: options.receivedAt ?? new Date(),
        },
        writer,
      );
    },
    /** An envelope text (seed: tool-result-envelope) with overridable fields. */
    envelope: (fields: Record<string, unknown> = {}) =>
      JSON.stringify({
        success: true,
        data: { items: [] },
        confidence: 0.9,
        source: [{ type: "document", id: "doc_1" }],
        nextAction: "continue",
        error: null,
        meta: { toolName: "searchDocs", toolVersion: "1", traceId: "t1", durationMs: 120, cached: false },
        ...fields,
      }),
  };
}
