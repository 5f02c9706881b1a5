// Test-data factories for the e2e specs: every spec seeds its own data through the PUBLIC API only
// (POST /api/events, POST /api/callback), with overridable defaults, never through the database.
import { expect, type APIRequestContext } from "@playwright/test";
import type { TraceEvent } from "../../lib/events/schemas.ts";

let sequence = 0;

/** A group_id no other test (or earlier run against the same database) uses: `<prefix>-<time>-<pid>-<n>`. */
export function uniqueGroup(prefix = "e2e"): string {
  sequence += 1;
  return `${prefix}-${Date.now().toString(36)}-${process.pid}-${sequence}`;
}

/** The `tool_call` event of POST /api/events; `group_id` is required, everything else has a default. */
export type ToolCallInput = Omit<Extract<TraceEvent, { type: "tool_call" }>, "type" | "id" | "name"> & {
  id?: string;
  name?: string;
};

export type RegisteredCall = { groupId: string; id: string; eventId: number; status: number };

/** Registers one tool call (defaults: id `call_<n>`, name `search_docs`, small JSON arguments). Expects 200/201. */
export async function registerCall(request: APIRequestContext, overrides: ToolCallInput): Promise<RegisteredCall> {
  sequence += 1;
  const event = {
    type: "tool_call",
    id: `call_${sequence}`,
    name: "search_docs",
    arguments: '{"q":"toolscope"}',
    ...overrides,
  };
  const response = await request.post("/api/events", { data: event });
  const body: unknown = await response.json();
  expect(response.status(), `register ${event.group_id}/${event.id}: ${JSON.stringify(body)}`).toBeLessThan(300);
  return { groupId: event.group_id, id: event.id, eventId: readNumber(body, "event_id"), status: response.status() };
}

/** The seed's tool_result message; `group_id` and `id` are required. */
export type ToolResultInput = {
  group_id: string;
  id: string;
  call_id?: string | null;
  text?: string;
  display_as?: unknown[] | null;
  subscription?: boolean;
};

export type PostedResult = { status: number; body: Record<string, unknown> };

/**
 * Posts one tool result to the callback route (default text: "ok"). Expects 200 unless `expectStatus` says
 * otherwise (e.g. 404 for an unknown call, 409 for a conflict).
 */
export async function postResult(
  request: APIRequestContext,
  overrides: ToolResultInput,
  options: { expectStatus?: number } = {},
): Promise<PostedResult> {
  const message = { type: "tool_result", text: "ok", ...overrides };
  const response = await request.post("/api/callback", { data: message });
  const body: unknown = await response.json();
  expect(response.status(), `result for ${overrides.group_id}/${overrides.id}: ${JSON.stringify(body)}`).toBe(
    options.expectStatus ?? 200,
  );
  return { status: response.status(), body: isRecord(body) ? body : {} };
}

/** Any other trace event (output_text, message, reasoning, error, subscription_cancel). Expects 200/201. */
export async function postEvent(request: APIRequestContext, event: TraceEvent): Promise<number> {
  const response = await request.post("/api/events", { data: event });
  const body: unknown = await response.json();
  expect(response.status(), `event ${event.type}: ${JSON.stringify(body)}`).toBeLessThan(300);
  return readNumber(body, "event_id");
}

/** Posts events in batches of up to 1000 (answered 207); fails when any item was not recorded. */
export async function postEventBatches(
  request: APIRequestContext,
  events: readonly TraceEvent[],
  batchSize = 1000,
): Promise<void> {
  for (let start = 0; start < events.length; start += batchSize) {
    const batch = events.slice(start, start + batchSize);
    const response = await request.post("/api/events", { data: batch, timeout: 120_000 });
    expect(response.status()).toBe(207);
    const body: unknown = await response.json();
    const results = isRecord(body) && Array.isArray(body.results) ? body.results : [];
    const failed = results.filter(
      (item: unknown) => !isRecord(item) || typeof item.status !== "number" || item.status >= 300,
    );
    expect(failed, `batch starting at ${start}`).toEqual([]);
  }
}

/** Posts many results with a bounded number in flight (the callback commits concurrent deliveries together). */
export async function postResults(
  request: APIRequestContext,
  results: readonly ToolResultInput[],
  concurrency = 16,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < results.length) {
      const message = results[next];
      next += 1;
      if (message) await postResult(request, message);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, results.length) }, worker));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function readNumber(body: unknown, key: string): number {
  const value = isRecord(body) ? body[key] : undefined;
  return typeof value === "number" ? value : 0;
}

/** The dashboard's row id of a registered call (what /calls/{id} takes), read through the timeline API. */
export async function findCallRowId(request: APIRequestContext, groupId: string, callKey: string): Promise<number> {
  let after = 0;
  for (;;) {
    const response = await request.get(
      `/api/threads/${encodeURIComponent(groupId)}/timeline?after=${after}&limit=2000`,
    );
    expect(response.status()).toBe(200);
    const page: unknown = await response.json();
    if (!isRecord(page) || !Array.isArray(page.calls)) throw new Error("unexpected timeline page");
    for (const call of page.calls)
      if (isRecord(call) && call.callKey === callKey && typeof call.id === "number") return call.id;
    if (page.hasMore !== true || typeof page.lastEventId !== "number")
      throw new Error(`no call "${callKey}" in thread "${groupId}"`);
    after = page.lastEventId;
  }
}
