// npm run demo: loads realistic demo threads into a RUNNING Toolscope through its public HTTP API only
// (POST /api/events, POST /api/callback), exactly as an agent runtime and its tools would. Every run uses
// fresh group ids, so it can be run again and again. TOOLSCOPE_URL picks the server (default localhost:3000).
//
// What it loads: five vendor encodings (anthropic, openai-chat, openai-responses, gemini, mcp), parallel calls in
// one step, a multi-hunk diff with a text fallback, result envelopes at each confidence band plus a partial and
// an invalid one, MCP results with and without an outputSchema (one violating it, one isError), a subscription
// with several results that is then cancelled, an unknown-call delivery, a duplicate and a conflicting delivery,
// a call that times out and one whose result arrives late, an "Error: " result, a result with invisible/bidi
// characters and one with credential-looking strings, and calls left pending.
import { pathToFileURL } from "node:url";

export type DemoThread = { key: string; groupId: string; vendor: string; calls: number; highlights: string };

export type DemoSummary = {
  runId: string;
  baseUrl: string;
  threads: DemoThread[];
  /** The group id of the unknown-call delivery (no such thread exists). */
  unknownGroupId: string;
  calls: number;
  /** The HTTP status of every callback the demo sent, in order. */
  deliveries: { id: string; status: number }[];
};

export class DemoError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DemoError";
  }
}

type Json = Record<string, unknown>;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function runIdNow(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 3).toString(36).padStart(3, "0")}`;
}

/** A tiny typed client of Toolscope's public API. */
function apiClient(baseUrl: string, tally: { calls: number; deliveries: { id: string; status: number }[] }) {
  async function post(path: string, body: unknown): Promise<{ status: number; body: unknown }> {
    let response: Response;
    try {
      response = await fetch(new URL(path, baseUrl), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    } catch (error) {
      throw new DemoError(`POST ${path} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    return { status: response.status, body: await response.json().catch(() => null) };
  }

  return {
    /** Trace events, in order, as one batch (the API answers 207 with a status per event). */
    async events(events: Json[]): Promise<void> {
      const reply = await post("/api/events", events);
      const results = typeof reply.body === "object" && reply.body !== null && "results" in reply.body && Array.isArray(reply.body.results) ? reply.body.results : [];
      if (reply.status !== 207 || results.length !== events.length) throw new DemoError(`POST /api/events answered ${reply.status}: ${JSON.stringify(reply.body).slice(0, 300)}`);
      results.forEach((result: unknown, index) => {
        const status = typeof result === "object" && result !== null && "status" in result && typeof result.status === "number" ? result.status : 0;
        if (status >= 300) throw new DemoError(`event ${index} (${String(events[index]?.type)}) was rejected with ${status}: ${JSON.stringify(result).slice(0, 300)}`);
      });
      tally.calls += events.filter((e) => e.type === "tool_call").length;
    },
    /** One tool_result message; `expect` is the status the protocol promises for it. */
    async result(message: Json, expect = 200): Promise<void> {
      const reply = await post("/api/callback", { type: "tool_result", ...message });
      if (reply.status !== expect) throw new DemoError(`POST /api/callback for ${String(message.id)} answered ${reply.status}, expected ${expect}: ${JSON.stringify(reply.body).slice(0, 300)}`);
      tally.deliveries.push({ id: String(message.id), status: reply.status });
    },
  };
}

type Api = ReturnType<typeof apiClient>;

function envelope(fields: { confidence: number; nextAction: string; data: unknown; source?: unknown; success?: boolean; error?: unknown; toolName: string; durationMs: number; traceId: string; cached?: boolean }) {
  return JSON.stringify(
    {
      success: fields.success ?? true,
      data: fields.data,
      confidence: fields.confidence,
      source: fields.source ?? [],
      nextAction: fields.nextAction,
      error: fields.error ?? null,
      meta: { toolName: fields.toolName, toolVersion: "2026-05-06", traceId: fields.traceId, durationMs: fields.durationMs, cached: fields.cached ?? false },
    },
    null,
    2,
  );
}

// ─── Anthropic: three parallel get_weather calls in one step ─────────────────────────────────────────────
async function anthropicWeather(api: Api, groupId: string): Promise<DemoThread> {
  const weatherTool = {
    name: "get_weather",
    description: "Current weather for a city",
    inputSchema: { type: "object", properties: { city: { type: "string" }, unit: { enum: ["celsius", "fahrenheit"] } }, required: ["city"] },
  };
  const cities = [
    { id: "toolu_01A7kLmP3qRsT9vWxYz2bC4d", city: "Paris", text: '{"city":"Paris","temp_c":14,"conditions":"light rain","precip_mm_next_6h":3.2,"wind_kph":18}' },
    { id: "toolu_01B2nQwE5rTyU8iOpAs3dF6g", city: "Tokyo", text: '{"city":"Tokyo","temp_c":22,"conditions":"clear","precip_mm_next_6h":0,"wind_kph":7}' },
    { id: "toolu_01C9hJkL4zXcV7bNmQw1eR5t", city: "New York", text: '{"city":"New York","temp_c":9,"conditions":"overcast","precip_mm_next_6h":0.4,"wind_kph":22}' },
  ];
  await api.events([
    { type: "message", group_id: groupId, role: "user", text: "What's the weather in Paris, Tokyo and New York right now? Do I need an umbrella in Paris?" },
    { type: "reasoning", group_id: groupId, step: 0, text: "Three independent lookups: call get_weather for each city in parallel, then compare precipitation." },
    ...cities.map((c) => ({
      type: "tool_call",
      group_id: groupId,
      id: c.id,
      name: "get_weather",
      arguments: JSON.stringify({ city: c.city, unit: "celsius" }),
      declaration: weatherTool,
      step: 1,
      vendor: "anthropic",
      timeout_ms: 120_000,
    })),
  ]);
  await Promise.all(
    cities.map(async (c, i) => {
      await sleep(120 + i * 140);
      await api.result({ group_id: groupId, id: c.id, text: c.text });
    }),
  );
  await api.events([
    {
      type: "output_text",
      group_id: groupId,
      step: 2,
      text: "Paris: 14 °C with light rain (about 3 mm in the next 6 hours) — take an umbrella. Tokyo: 22 °C and clear. New York: 9 °C, overcast and windy.",
    },
  ]);
  return { key: "weather", groupId, vendor: "anthropic", calls: cities.length, highlights: "3 parallel calls in one step" };
}

// ─── OpenAI Responses: a coding agent; a multi-hunk diff, an "Error: " result, call_id echoed ────────────
const RATE_LIMITER_PATCH = `--- a/src/http/rate-limiter.ts
+++ b/src/http/rate-limiter.ts
@@ -1,9 +1,10 @@
 import { clock } from "../clock";
+import { metrics } from "../metrics";
 
 export type Bucket = { tokens: number; updatedAt: number };
 
 export class RateLimiter {
   private readonly buckets = new Map<string, Bucket>();
 
-  constructor(private readonly capacity: number, private readonly refillPerSecond: number) {}
+  constructor(private readonly capacity: number, private readonly refillPerSecond: number, private readonly maxKeys = 10_000) {}
 
@@ -14,11 +15,16 @@ export class RateLimiter {
   take(key: string): boolean {
     const now = clock.now();
     const bucket = this.buckets.get(key) ?? { tokens: this.capacity, updatedAt: now };
-    const elapsed = now - bucket.updatedAt;
-    bucket.tokens = Math.min(this.capacity, bucket.tokens + elapsed * this.refillPerSecond);
+    const elapsedSeconds = (now - bucket.updatedAt) / 1000;
+    bucket.tokens = Math.min(this.capacity, bucket.tokens + elapsedSeconds * this.refillPerSecond);
     bucket.updatedAt = now;
-    if (bucket.tokens < 1) return false;
+    if (bucket.tokens < 1) {
+      metrics.increment("rate_limiter.rejected");
+      this.buckets.set(key, bucket);
+      return false;
+    }
     bucket.tokens -= 1;
     this.buckets.set(key, bucket);
+    if (this.buckets.size > this.maxKeys) this.evictOldest();
     return true;
   }
@@ -30,4 +36,11 @@ export class RateLimiter {
   remaining(key: string): number {
     return Math.floor(this.buckets.get(key)?.tokens ?? this.capacity);
   }
+
+  /** Drops the least recently updated bucket, so a client cycling through keys cannot grow the map forever. */
+  private evictOldest(): void {
+    let oldest: string | undefined;
+    for (const [key, bucket] of this.buckets) if (!oldest || bucket.updatedAt < (this.buckets.get(oldest)?.updatedAt ?? Infinity)) oldest = key;
+    if (oldest) this.buckets.delete(oldest);
+  }
 }
`;

async function openaiResponsesCoding(api: Api, groupId: string): Promise<DemoThread> {
  const vendor = "openai-responses";
  const call = (id: string, callId: string, name: string, args: Json, step: number) => ({
    type: "tool_call",
    group_id: groupId,
    id,
    call_id: callId,
    name,
    arguments: JSON.stringify(args),
    step,
    vendor,
  });
  await api.events([
    { type: "message", group_id: groupId, role: "user", text: "The rate limiter refills way too fast under load. Fix it and run the tests." },
    call("fc_68a1c0d2e4f6", "call_Rk8sYtq2LmN4", "read_file", { path: "src/http/rate-limiter.ts" }, 0),
  ]);
  await sleep(90);
  await api.result({
    group_id: groupId,
    id: "fc_68a1c0d2e4f6",
    call_id: "call_Rk8sYtq2LmN4",
    text: 'import { clock } from "../clock";\n\nexport type Bucket = { tokens: number; updatedAt: number };\n\nexport class RateLimiter {\n  private readonly buckets = new Map<string, Bucket>();\n  // … 33 lines …\n}\n',
  });
  await api.events([
    { type: "reasoning", group_id: groupId, step: 1, text: "clock.now() is in milliseconds but refillPerSecond is per second: the refill is 1000× too fast. Convert, and cap the number of buckets." },
    call("fc_68a1c0d2e4f7", "call_Vb3nQw9ZxC1e", "apply_patch", { path: "src/http/rate-limiter.ts", patch: RATE_LIMITER_PATCH }, 1),
  ]);
  await sleep(260);
  await api.result({
    group_id: groupId,
    id: "fc_68a1c0d2e4f7",
    call_id: "call_Vb3nQw9ZxC1e",
    text: "Applied patch to src/http/rate-limiter.ts (3 hunks, +17 −4).",
    display_as: [
      { type: "diff", content: { path: "src/http/rate-limiter.ts", patch: RATE_LIMITER_PATCH } },
      { type: "text", content: "apply_patch src/http/rate-limiter.ts — 3 hunks, +17 −4" },
    ],
  });
  await api.events([call("fc_68a1c0d2e4f8", "call_Pq7wErT5yU2i", "run_tests", { command: "npm test -- rate-limiter" }, 2)]);
  await sleep(820);
  await api.result({
    group_id: groupId,
    id: "fc_68a1c0d2e4f8",
    call_id: "call_Pq7wErT5yU2i",
    text: "Error: 2 of 14 tests failed in test/rate-limiter.test.ts:\n  ✗ refills one token per second (expected 1, got 0.999)\n  ✗ evicts the oldest bucket (metrics is not defined)\nFix the failures and run the tests again.",
  });
  await api.events([call("fc_68a1c0d2e4f9", "call_Zx4cVb6nM8aS", "run_tests", { command: "npm test -- rate-limiter" }, 3)]);
  await sleep(640);
  await api.result({ group_id: groupId, id: "fc_68a1c0d2e4f9", call_id: "call_Zx4cVb6nM8aS", text: "14 passed (1.84 s)" });
  await api.events([{ type: "output_text", group_id: groupId, step: 4, text: "Fixed the refill unit bug (ms vs s), added eviction past 10,000 buckets and a rejection metric. All 14 tests pass." }]);
  return { key: "code", groupId, vendor, calls: 4, highlights: 'multi-hunk diff with text fallback, "Error: " result, call_id echoed' };
}

// ─── OpenAI Chat: knowledge-base search with envelopes at every confidence band ──────────────────────────
async function openaiChatKnowledgeBase(api: Api, groupId: string): Promise<DemoThread> {
  const vendor = "openai-chat";
  const searches = [
    {
      id: "call_kb01HighConfidence",
      query: "refund window for annual plans",
      text: envelope({
        confidence: 0.91,
        nextAction: "continue",
        data: { items: [{ title: "Refunds for annual subscriptions", excerpt: "Annual plans can be refunded in full within 30 days of purchase." }] },
        source: [
          { type: "document", id: "doc_refund_policy_v7", label: "Refund policy (v7)", url: "https://docs.example.com/policies/refunds" },
          { type: "database", id: "plans.annual" },
        ],
        toolName: "searchDocs",
        durationMs: 183,
        traceId: "tool_001",
      }),
    },
    {
      id: "call_kb02MediumConfidence",
      query: "refund after plan downgrade",
      text: envelope({
        confidence: 0.64,
        nextAction: "continue",
        data: { items: [{ title: "Changing plans", excerpt: "Downgrades take effect at the next renewal; credits may apply." }] },
        source: [{ type: "document", id: "doc_plan_changes", label: "Changing plans" }],
        toolName: "searchDocs",
        durationMs: 241,
        traceId: "tool_002",
      }),
    },
    {
      id: "call_kb03LowConfidence",
      query: "refund for a plan bought through a reseller",
      text: envelope({ confidence: 0.32, nextAction: "ask_user", data: { items: [] }, toolName: "searchDocs", durationMs: 197, traceId: "tool_003" }),
    },
    {
      // The seed's own first example: `source` is a bare string and `meta` is missing, so the envelope is partial.
      id: "call_kb04PartialEnvelope",
      query: "reseller agreements",
      text: JSON.stringify({ success: true, data: {}, confidence: 0.86, source: "knowledge_base", nextAction: "continue", error: null }),
    },
    {
      // Invalid: confidence outside 0..1 and an unknown nextAction.
      id: "call_kb05InvalidEnvelope",
      query: "reseller refund contact",
      text: JSON.stringify({ success: true, data: { email: "partners@example.com" }, confidence: 1.4, source: [], nextAction: "proceed", error: null, meta: { toolName: "searchDocs", toolVersion: "2026-05-06", traceId: "tool_005", durationMs: 95, cached: true } }),
    },
    {
      id: "call_kb06RateLimited",
      query: "partner portal refund form",
      text: envelope({
        success: false,
        confidence: 0,
        nextAction: "retry",
        data: null,
        error: { type: "rate_limited", message: "search backend returned 429", retryable: true, userMessage: "Search is busy right now; trying again shortly." },
        toolName: "searchDocs",
        durationMs: 1204,
        traceId: "tool_006",
      }),
    },
  ];
  await api.events([
    { type: "message", group_id: groupId, role: "system", text: "You are a support assistant. Only answer from the knowledge base." },
    { type: "message", group_id: groupId, role: "user", text: "I bought an annual plan through a reseller two weeks ago. Can I get a refund?" },
  ]);
  for (const [step, search] of searches.entries()) {
    await api.events([{ type: "tool_call", group_id: groupId, id: search.id, name: "search_docs", arguments: JSON.stringify({ query: search.query, top_k: 5 }), step, vendor }]);
    await sleep(60 + step * 35);
    await api.result({ group_id: groupId, id: search.id, text: search.text });
  }
  await api.events([
    { type: "error", group_id: groupId, id: "call_kb06RateLimited", layer: "runtime", message: "search_docs rate limited (429); giving up after 1 retry" },
    {
      type: "output_text",
      group_id: groupId,
      step: searches.length,
      text: "Annual plans bought directly can be refunded within 30 days. For a reseller purchase I could not find a reliable answer — could you tell me which reseller you used?",
    },
  ]);
  return { key: "kb", groupId, vendor, calls: searches.length, highlights: "envelopes at 0.91 / 0.64 / 0.32, a partial and an invalid one, a rate_limited error" };
}

// ─── Gemini: travel planning; a call that times out, a late result, a call left pending ─────────────────
async function geminiTravel(api: Api, groupId: string): Promise<DemoThread> {
  const vendor = "gemini";
  // Gemini function calls carry no ids: the runtime numbers them.
  const twoMinutesAgo = new Date(Date.now() - 120_000).toISOString();
  await api.events([
    { type: "message", group_id: groupId, role: "user", text: "Find me a flight from Berlin to Lisbon on 14 June and a hotel near Alfama for 3 nights." },
    { type: "tool_call", group_id: groupId, id: "gemini-fc-0", name: "find_flights", arguments: { from: "BER", to: "LIS", date: "2026-06-14" }, step: 0, vendor, timeout_ms: 60_000 },
    { type: "tool_call", group_id: groupId, id: "gemini-fc-1", name: "find_hotels", arguments: { near: "Alfama, Lisbon", nights: 3, check_in: "2026-06-14" }, step: 0, vendor, timeout_ms: 60_000 },
    // Requested two minutes ago with a 30 s timeout: its deadline has passed; the result below arrives late.
    { type: "tool_call", group_id: groupId, id: "gemini-fc-2", name: "get_exchange_rate", arguments: { from: "EUR", to: "USD" }, step: 0, vendor, timeout_ms: 30_000, occurred_at: twoMinutesAgo },
    // A 2 s timeout and no result ever: Toolscope marks it timed out.
    { type: "tool_call", group_id: groupId, id: "gemini-fc-3", name: "check_visa_requirements", arguments: { nationality: "US", destination: "PT" }, step: 1, vendor, timeout_ms: 2000 },
    // Still waiting for a human hold confirmation: left pending, with a generous deadline.
    { type: "tool_call", group_id: groupId, id: "gemini-fc-4", name: "hold_seat", arguments: { flight: "TP 537", seat: "14C" }, step: 1, vendor, timeout_ms: 30 * 60_000 },
  ]);
  await Promise.all([
    (async () => {
      await sleep(730);
      await api.result({ group_id: groupId, id: "gemini-fc-0", text: '{"flights":[{"number":"TP 537","departs":"2026-06-14T09:40","arrives":"2026-06-14T12:05","price_eur":142},{"number":"FR 1882","departs":"2026-06-14T17:15","arrives":"2026-06-14T19:35","price_eur":88}]}' });
    })(),
    (async () => {
      await sleep(1120);
      await api.result({ group_id: groupId, id: "gemini-fc-1", text: '{"hotels":[{"name":"Memmo Alfama","stars":4,"per_night_eur":210},{"name":"Casa do Patio","stars":3,"per_night_eur":118}]}' });
    })(),
    api.result({ group_id: groupId, id: "gemini-fc-2", text: '{"rate":1.0842,"as_of":"2026-06-01T00:00:00Z"}' }),
  ]);
  return { key: "travel", groupId, vendor, calls: 5, highlights: "parallel calls, a late result, a call that times out, one left pending" };
}

// ─── MCP: tools/call results with and without outputSchema ──────────────────────────────────────────────
const WEATHER_OUTPUT_SCHEMA = {
  type: "object",
  properties: {
    temperature: { type: "number", description: "Temperature in celsius" },
    conditions: { type: "string", description: "Weather conditions description" },
    humidity: { type: "number", description: "Humidity percentage" },
  },
  required: ["temperature", "conditions", "humidity"],
};

// A 1×1 transparent PNG.
const TINY_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

async function mcpTools(api: Api, groupId: string): Promise<DemoThread> {
  const vendor = "mcp";
  const weatherDeclaration = { name: "get_weather_data", description: "Get current weather data for a location", inputSchema: { type: "object", properties: { location: { type: "string" } }, required: ["location"] }, outputSchema: WEATHER_OUTPUT_SCHEMA };
  const weatherCall = (id: string, location: string, step: number) => ({ type: "tool_call", group_id: groupId, id, name: "get_weather_data", arguments: { location }, declaration: weatherDeclaration, step, vendor });
  await api.events([
    weatherCall("mcp-req-5", "Lisbon", 0),
    weatherCall("mcp-req-6", "Reykjavik", 0),
    weatherCall("mcp-req-7", "Atlantis", 0),
    { type: "tool_call", group_id: groupId, id: "mcp-req-8", name: "read_project_file", arguments: { uri: "file:///project/src/main.rs" }, declaration: { name: "read_project_file", description: "Read a file of the open project" }, step: 1, vendor },
  ]);
  const mcpResult = (result: Json) => JSON.stringify({ jsonrpc: "2.0", id: 5, result });
  await Promise.all([
    (async () => {
      await sleep(210);
      // Valid: structuredContent matches the outputSchema, with the serialized JSON as a text block.
      await api.result({
        group_id: groupId,
        id: "mcp-req-5",
        text: mcpResult({ content: [{ type: "text", text: '{"temperature": 22.5, "conditions": "Partly cloudy", "humidity": 65}' }], structuredContent: { temperature: 22.5, conditions: "Partly cloudy", humidity: 65 } }),
      });
    })(),
    (async () => {
      await sleep(340);
      // Violates the schema: humidity is a string and conditions is missing.
      await api.result({
        group_id: groupId,
        id: "mcp-req-6",
        text: mcpResult({ content: [{ type: "text", text: '{"temperature": 3.1, "humidity": "81%"}' }], structuredContent: { temperature: 3.1, humidity: "81%" } }),
      });
    })(),
    (async () => {
      await sleep(90);
      await api.result({ group_id: groupId, id: "mcp-req-7", text: mcpResult({ content: [{ type: "text", text: "Failed to fetch weather data: unknown location \"Atlantis\"" }], isError: true }) });
    })(),
    (async () => {
      await sleep(150);
      // No outputSchema: content blocks only (text, resource link, embedded resource, image).
      await api.result({
        group_id: groupId,
        id: "mcp-req-8",
        text: JSON.stringify({
          content: [
            { type: "text", text: "main.rs (2 lines) and its build manifest:" },
            { type: "resource", resource: { uri: "file:///project/src/main.rs", title: "Project Rust Main File", mimeType: "text/x-rust", text: 'fn main() {\n    println!("Hello world!");\n}' } },
            { type: "resource_link", uri: "file:///project/Cargo.toml", name: "Cargo.toml", description: "Build manifest", mimeType: "text/x-toml" },
            { type: "image", data: TINY_PNG, mimeType: "image/png" },
          ],
        }),
      });
    })(),
  ]);
  return { key: "mcp", groupId, vendor, calls: 4, highlights: "outputSchema valid / violated, isError, content blocks without a schema" };
}

// ─── Ops agent: a subscription, flagged text, duplicate/conflicting deliveries, an approval left pending ──
async function opsAgent(api: Api, groupId: string): Promise<DemoThread> {
  const vendor = "anthropic";
  await api.events([
    { type: "message", group_id: groupId, role: "user", text: "Deploy api v2.14.0 to production, watch the rollout and check the logs." },
    { type: "tool_call", group_id: groupId, id: "toolu_01Dp4Lx9Wq2Er7Ty", name: "deploy", arguments: { service: "api", env: "prod", version: "2.14.0" }, step: 0, vendor, timeout_ms: 600_000 },
    { type: "tool_call", group_id: groupId, id: "toolu_01Wt8Kc3Vb6Nm1Qs", name: "watch_rollout", arguments: { service: "api", env: "prod" }, step: 1, vendor, subscription: true },
  ]);
  await sleep(380);
  const deployed = { group_id: groupId, id: "toolu_01Dp4Lx9Wq2Er7Ty", text: "Deployment completed successfully. Instance i-0abc123 is running.", display_as: [{ type: "text", content: "Deployed api 2.14.0 → i-0abc123" }] };
  await api.result(deployed);
  // A network retry re-sends the same result: answered like the first, recorded as a duplicate.
  await api.result(deployed);
  // A buggy tool sends a different result for the same call: 409, the first result is kept.
  await api.result({ ...deployed, text: "Deployment failed: health check timeout" }, 409);

  for (const [i, update] of ["Rollout started: 0/4 pods updated", "Rolling: 2/4 pods updated, 0 restarts", "Rollout complete: 4/4 pods healthy"].entries()) {
    await sleep(150);
    await api.result({ group_id: groupId, id: "toolu_01Wt8Kc3Vb6Nm1Qs", text: update, ...(i === 0 ? { subscription: true } : {}) });
  }
  await api.events([
    { type: "subscription_cancel", group_id: groupId, id: "toolu_01Wt8Kc3Vb6Nm1Qs", reason: "rollout finished" },
    { type: "tool_call", group_id: groupId, id: "toolu_01Lg5Hj2Kf8Ds4Ap", name: "fetch_logs", arguments: { service: "api", since: "10m" }, step: 2, vendor },
    { type: "tool_call", group_id: groupId, id: "toolu_01Cf9Gh3Jk6Lz2Xm", name: "read_config", arguments: { path: "config/feature-flags.yaml" }, step: 2, vendor },
    { type: "tool_call", group_id: groupId, id: "toolu_01Ap7Rv2Sx5Tn8Yq", name: "request_approval", arguments: { action: "scale api to 8 replicas", approver: "on-call" }, step: 3, vendor, timeout_ms: 30 * 60_000 },
  ]);
  await Promise.all([
    api.result({
      group_id: groupId,
      id: "toolu_01Lg5Hj2Kf8Ds4Ap",
      // Credential-looking strings (AWS's documented example key, a made-up bearer token): Toolscope flags and masks them.
      text: "2026-06-01T10:02:11Z INFO boot api 2.14.0\n2026-06-01T10:02:12Z WARN using AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE from env\n2026-06-01T10:02:13Z DEBUG upstream call Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkZW1vIn0.c2lnbmF0dXJl\n2026-06-01T10:02:14Z INFO ready in 812 ms",
    }),
    api.result({
      group_id: groupId,
      id: "toolu_01Cf9Gh3Jk6Lz2Xm",
      // A right-to-left override and a zero-width space: what the model reads is not what a naive viewer shows.
      text: "flags:\n  new_checkout: true\n  admin_override: false \u202E// eurt si siht\u202C\n  beta\u200Busers: [\"*\"]\n",
    }),
  ]);
  return { key: "ops", groupId, vendor, calls: 5, highlights: "subscription (3 results, cancelled), duplicate + conflict, secrets, bidi text, approval pending" };
}

async function checkReachable(baseUrl: string): Promise<void> {
  try {
    const response = await fetch(new URL("/api/health", baseUrl), { signal: AbortSignal.timeout(5000) });
    if (!response.ok && response.status !== 503) throw new Error(`GET /api/health answered ${response.status}`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new DemoError(`Toolscope is not reachable at ${baseUrl} (${reason}).\nStart it with \`npm start\` (or \`npm run dev\`), or point TOOLSCOPE_URL at a running instance.`);
  }
}

/** Loads one demo run into the Toolscope at `baseUrl`; returns what it loaded. */
export async function loadDemo(baseUrl: string, options: { runId?: string } = {}): Promise<DemoSummary> {
  await checkReachable(baseUrl);
  const runId = options.runId ?? runIdNow();
  const tally = { calls: 0, deliveries: [] as { id: string; status: number }[] };
  const api = apiClient(baseUrl, tally);
  const group = (name: string) => `demo-${runId}-${name}`;
  const threads = await Promise.all([
    anthropicWeather(api, group("weather")),
    openaiResponsesCoding(api, group("code-fix")),
    openaiChatKnowledgeBase(api, group("support-kb")),
    geminiTravel(api, group("travel")),
    mcpTools(api, group("mcp-tools")),
    opsAgent(api, group("ops-deploy")),
  ]);
  // Nobody registered this call: Toolscope answers 404, attaches it to nothing and keeps it in the audit log.
  const unknownGroupId = group("ghost");
  await api.result({ group_id: unknownGroupId, id: "call_ghost_01", text: "Result for a call nobody made" }, 404);
  return { runId, baseUrl, threads, unknownGroupId, calls: tally.calls, deliveries: tally.deliveries };
}

function printSummary(summary: DemoSummary): void {
  const byStatus = new Map<number, number>();
  for (const d of summary.deliveries) byStatus.set(d.status, (byStatus.get(d.status) ?? 0) + 1);
  const statuses = [...byStatus].sort((a, b) => a[0] - b[0]).map(([status, n]) => `${n}× ${status}`).join(", ");
  const lines = [
    `Loaded demo run ${summary.runId} into ${summary.baseUrl}: ${summary.threads.length} threads, ${summary.calls} calls, ${summary.deliveries.length} callbacks (${statuses}).`,
    "",
    ...summary.threads.map((t) => `  ${t.groupId.padEnd(34)} ${t.vendor.padEnd(17)} ${String(t.calls).padStart(2)} calls  ${t.highlights}`),
    `  ${summary.unknownGroupId.padEnd(34)} ${"(no thread)".padEnd(17)}  0 calls  an unknown-call delivery (404, audited)`,
    "",
    `Open ${new URL("/", summary.baseUrl).href} · pending calls: ${new URL("/pending", summary.baseUrl).href} · audit log: ${new URL("/deliveries?outcome=unknown_call", summary.baseUrl).href}`,
  ];
  console.log(lines.join("\n"));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const baseUrl = process.env.TOOLSCOPE_URL?.trim() || "http://localhost:3000";
  loadDemo(baseUrl)
    .then(printSummary)
    .catch((error: unknown) => {
      console.error(error instanceof DemoError ? error.message : error);
      process.exit(1);
    });
}
