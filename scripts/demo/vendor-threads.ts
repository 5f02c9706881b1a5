// Demo threads in the vendors' own encodings: Anthropic parallel calls, an OpenAI Responses coding agent with a
// multi-hunk diff, an OpenAI Chat knowledge-base search with envelopes at every confidence band.
import { envelope, sleep, type Api, type DemoThread, type Json } from "./api.ts";

// ─── Anthropic: three parallel get_weather calls in one step ─────────────────────────────────────────────
export async function anthropicWeather(api: Api, groupId: string): Promise<DemoThread> {
  const weatherTool = {
    name: "get_weather",
    description: "Current weather for a city",
    inputSchema: {
      type: "object",
      properties: { city: { type: "string" }, unit: { enum: ["celsius", "fahrenheit"] } },
      required: ["city"],
    },
  };
  const cities = [
    {
      id: "toolu_01A7kLmP3qRsT9vWxYz2bC4d",
      city: "Paris",
      text: '{"city":"Paris","temp_c":14,"conditions":"light rain","precip_mm_next_6h":3.2,"wind_kph":18}',
    },
    {
      id: "toolu_01B2nQwE5rTyU8iOpAs3dF6g",
      city: "Tokyo",
      text: '{"city":"Tokyo","temp_c":22,"conditions":"clear","precip_mm_next_6h":0,"wind_kph":7}',
    },
    {
      id: "toolu_01C9hJkL4zXcV7bNmQw1eR5t",
      city: "New York",
      text: '{"city":"New York","temp_c":9,"conditions":"overcast","precip_mm_next_6h":0.4,"wind_kph":22}',
    },
  ];
  await api.events([
    {
      type: "message",
      group_id: groupId,
      role: "user",
      text: "What's the weather in Paris, Tokyo and New York right now? Do I need an umbrella in Paris?",
    },
    {
      type: "reasoning",
      group_id: groupId,
      step: 0,
      text: "Three independent lookups: call get_weather for each city in parallel, then compare precipitation.",
    },
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
  return {
    key: "weather",
    groupId,
    vendor: "anthropic",
    calls: cities.length,
    highlights: "3 parallel calls in one step",
  };
}

// ─── OpenAI Responses: a coding agent; a multi-hunk diff, an "Error: " result, call_id echoed ────────────
export const RATE_LIMITER_PATCH = `--- a/src/http/rate-limiter.ts
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

export async function openaiResponsesCoding(api: Api, groupId: string): Promise<DemoThread> {
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
    {
      type: "message",
      group_id: groupId,
      role: "user",
      text: "The rate limiter refills way too fast under load. Fix it and run the tests.",
    },
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
    {
      type: "reasoning",
      group_id: groupId,
      step: 1,
      text: "clock.now() is in milliseconds but refillPerSecond is per second: the refill is 1000× too fast. Convert, and cap the number of buckets.",
    },
    call(
      "fc_68a1c0d2e4f7",
      "call_Vb3nQw9ZxC1e",
      "apply_patch",
      { path: "src/http/rate-limiter.ts", patch: RATE_LIMITER_PATCH },
      1,
    ),
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
  await api.events([
    call("fc_68a1c0d2e4f8", "call_Pq7wErT5yU2i", "run_tests", { command: "npm test -- rate-limiter" }, 2),
  ]);
  await sleep(820);
  await api.result({
    group_id: groupId,
    id: "fc_68a1c0d2e4f8",
    call_id: "call_Pq7wErT5yU2i",
    text: "Error: 2 of 14 tests failed in test/rate-limiter.test.ts:\n  ✗ refills one token per second (expected 1, got 0.999)\n  ✗ evicts the oldest bucket (metrics is not defined)\nFix the failures and run the tests again.",
  });
  await api.events([
    call("fc_68a1c0d2e4f9", "call_Zx4cVb6nM8aS", "run_tests", { command: "npm test -- rate-limiter" }, 3),
  ]);
  await sleep(640);
  await api.result({
    group_id: groupId,
    id: "fc_68a1c0d2e4f9",
    call_id: "call_Zx4cVb6nM8aS",
    text: "14 passed (1.84 s)",
  });
  await api.events([
    {
      type: "output_text",
      group_id: groupId,
      step: 4,
      text: "Fixed the refill unit bug (ms vs s), added eviction past 10,000 buckets and a rejection metric. All 14 tests pass.",
    },
  ]);
  return {
    key: "code",
    groupId,
    vendor,
    calls: 4,
    highlights: 'multi-hunk diff with text fallback, "Error: " result, call_id echoed',
  };
}

// ─── OpenAI Chat: knowledge-base search with envelopes at every confidence band ──────────────────────────
// eslint-disable-next-line max-lines-per-function -- one scenario told in order, call by call, as the runtime would send it
export async function openaiChatKnowledgeBase(api: Api, groupId: string): Promise<DemoThread> {
  const vendor = "openai-chat";
  const searches = [
    {
      id: "call_kb01HighConfidence",
      query: "refund window for annual plans",
      text: envelope({
        confidence: 0.91,
        nextAction: "continue",
        data: {
          items: [
            {
              title: "Refunds for annual subscriptions",
              excerpt: "Annual plans can be refunded in full within 30 days of purchase.",
            },
          ],
        },
        source: [
          {
            type: "document",
            id: "doc_refund_policy_v7",
            label: "Refund policy (v7)",
            url: "https://docs.example.com/policies/refunds",
          },
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
        data: {
          items: [
            { title: "Changing plans", excerpt: "Downgrades take effect at the next renewal; credits may apply." },
          ],
        },
        source: [{ type: "document", id: "doc_plan_changes", label: "Changing plans" }],
        toolName: "searchDocs",
        durationMs: 241,
        traceId: "tool_002",
      }),
    },
    {
      id: "call_kb03LowConfidence",
      query: "refund for a plan bought through a reseller",
      text: envelope({
        confidence: 0.32,
        nextAction: "ask_user",
        data: { items: [] },
        toolName: "searchDocs",
        durationMs: 197,
        traceId: "tool_003",
      }),
    },
    {
      // The seed's own first example: `source` is a bare string and `meta` is missing, so the envelope is partial.
      id: "call_kb04PartialEnvelope",
      query: "reseller agreements",
      text: JSON.stringify({
        success: true,
        data: {},
        confidence: 0.86,
        source: "knowledge_base",
        nextAction: "continue",
        error: null,
      }),
    },
    {
      // Invalid: confidence outside 0..1 and an unknown nextAction.
      id: "call_kb05InvalidEnvelope",
      query: "reseller refund contact",
      text: JSON.stringify({
        success: true,
        data: { email: "partners@example.com" },
        confidence: 1.4,
        source: [],
        nextAction: "proceed",
        error: null,
        meta: { toolName: "searchDocs", toolVersion: "2026-05-06", traceId: "tool_005", durationMs: 95, cached: true },
      }),
    },
    {
      id: "call_kb06RateLimited",
      query: "partner portal refund form",
      text: envelope({
        success: false,
        confidence: 0,
        nextAction: "retry",
        data: null,
        error: {
          type: "rate_limited",
          message: "search backend returned 429",
          retryable: true,
          userMessage: "Search is busy right now; trying again shortly.",
        },
        toolName: "searchDocs",
        durationMs: 1204,
        traceId: "tool_006",
      }),
    },
  ];
  await api.events([
    {
      type: "message",
      group_id: groupId,
      role: "system",
      text: "You are a support assistant. Only answer from the knowledge base.",
    },
    {
      type: "message",
      group_id: groupId,
      role: "user",
      text: "I bought an annual plan through a reseller two weeks ago. Can I get a refund?",
    },
  ]);
  for (const [step, search] of searches.entries()) {
    await api.events([
      {
        type: "tool_call",
        group_id: groupId,
        id: search.id,
        name: "search_docs",
        arguments: JSON.stringify({ query: search.query, top_k: 5 }),
        step,
        vendor,
      },
    ]);
    await sleep(60 + step * 35);
    await api.result({ group_id: groupId, id: search.id, text: search.text });
  }
  await api.events([
    {
      type: "error",
      group_id: groupId,
      id: "call_kb06RateLimited",
      layer: "runtime",
      message: "search_docs rate limited (429); giving up after 1 retry",
    },
    {
      type: "output_text",
      group_id: groupId,
      step: searches.length,
      text: "Annual plans bought directly can be refunded within 30 days. For a reseller purchase I could not find a reliable answer — could you tell me which reseller you used?",
    },
  ]);
  return {
    key: "kb",
    groupId,
    vendor,
    calls: searches.length,
    highlights: "envelopes at 0.91 / 0.64 / 0.32, a partial and an invalid one, a rate_limited error",
  };
}
