// Test data factories with overridable defaults: callback deliveries and runtime events.
import type { RawDelivery } from "../ingest/raw-delivery.ts";

let counter = 0;
export function uniqueId(prefix: string): string {
  counter += 1;
  return `${prefix}_${Date.now().toString(36)}_${counter}`;
}

export function toolCallEvent(overrides: Record<string, unknown> = {}) {
  return {
    type: "tool_call",
    group_id: uniqueId("thread"),
    id: uniqueId("call"),
    name: "search_docs",
    arguments: '{"q":"toolscope"}',
    ...overrides,
  };
}

export function toolResultMessage(overrides: Record<string, unknown> = {}) {
  return {
    type: "tool_result",
    group_id: "thread_x",
    id: "call_x",
    call_id: null,
    text: "3 documents found",
    ...overrides,
  };
}

/** A delivery as the HTTP layer hands it to the service; `body` is JSON-encoded unless already bytes or a string. */
export function rawDelivery(body: unknown, overrides: Partial<RawDelivery> = {}): RawDelivery {
  const bytes = Buffer.isBuffer(body)
    ? body
    : Buffer.from(typeof body === "string" ? body : JSON.stringify(body), "utf8");
  return {
    body: bytes,
    tooLarge: false,
    receivedBytes: bytes.length,
    contentType: "application/json",
    signature: { id: null, timestamp: null, signature: null },
    remoteAddress: "127.0.0.1",
    receivedAt: new Date(),
    ...overrides,
  };
}
