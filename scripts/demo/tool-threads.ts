// Demo threads about tool behaviour: timeouts and late results (Gemini), MCP results with and without an
// outputSchema, an ops agent with a subscription, flagged text and duplicate or conflicting deliveries.
import { sleep, type Api, type DemoThread, type Json } from "./api.ts";

// ─── Gemini: travel planning; a call that times out, a late result, a call left pending ─────────────────
export async function geminiTravel(api: Api, groupId: string): Promise<DemoThread> {
  const vendor = "gemini";
  // Gemini function calls carry no ids: the runtime numbers them.
  const twoMinutesAgo = new Date(Date.now() - 120_000).toISOString();
  await api.events([
    {
      type: "message",
      group_id: groupId,
      role: "user",
      text: "Find me a flight from Berlin to Lisbon on 14 June and a hotel near Alfama for 3 nights.",
    },
    {
      type: "tool_call",
      group_id: groupId,
      id: "gemini-fc-0",
      name: "find_flights",
      arguments: { from: "BER", to: "LIS", date: "2026-06-14" },
      step: 0,
      vendor,
      timeout_ms: 60_000,
    },
    {
      type: "tool_call",
      group_id: groupId,
      id: "gemini-fc-1",
      name: "find_hotels",
      arguments: { near: "Alfama, Lisbon", nights: 3, check_in: "2026-06-14" },
      step: 0,
      vendor,
      timeout_ms: 60_000,
    },
    // Requested two minutes ago with a 30 s timeout: its deadline has passed; the result below arrives late.
    {
      type: "tool_call",
      group_id: groupId,
      id: "gemini-fc-2",
      name: "get_exchange_rate",
      arguments: { from: "EUR", to: "USD" },
      step: 0,
      vendor,
      timeout_ms: 30_000,
      occurred_at: twoMinutesAgo,
    },
    // A 2 s timeout and no result ever: Toolscope marks it timed out.
    {
      type: "tool_call",
      group_id: groupId,
      id: "gemini-fc-3",
      name: "check_visa_requirements",
      arguments: { nationality: "US", destination: "PT" },
      step: 1,
      vendor,
      timeout_ms: 2000,
    },
    // Still waiting for a human hold confirmation: left pending, with a generous deadline.
    {
      type: "tool_call",
      group_id: groupId,
      id: "gemini-fc-4",
      name: "hold_seat",
      arguments: { flight: "TP 537", seat: "14C" },
      step: 1,
      vendor,
      timeout_ms: 30 * 60_000,
    },
  ]);
  await Promise.all([
    (async () => {
      await sleep(730);
      await api.result({
        group_id: groupId,
        id: "gemini-fc-0",
        text: '{"flights":[{"number":"TP 537","departs":"2026-06-14T09:40","arrives":"2026-06-14T12:05","price_eur":142},{"number":"FR 1882","departs":"2026-06-14T17:15","arrives":"2026-06-14T19:35","price_eur":88}]}',
      });
    })(),
    (async () => {
      await sleep(1120);
      await api.result({
        group_id: groupId,
        id: "gemini-fc-1",
        text: '{"hotels":[{"name":"Memmo Alfama","stars":4,"per_night_eur":210},{"name":"Casa do Patio","stars":3,"per_night_eur":118}]}',
      });
    })(),
    api.result({ group_id: groupId, id: "gemini-fc-2", text: '{"rate":1.0842,"as_of":"2026-06-01T00:00:00Z"}' }),
  ]);
  return {
    key: "travel",
    groupId,
    vendor,
    calls: 5,
    highlights: "parallel calls, a late result, a call that times out, one left pending",
  };
}

// ─── MCP: tools/call results with and without outputSchema ──────────────────────────────────────────────
export const WEATHER_OUTPUT_SCHEMA = {
  type: "object",
  properties: {
    temperature: { type: "number", description: "Temperature in celsius" },
    conditions: { type: "string", description: "Weather conditions description" },
    humidity: { type: "number", description: "Humidity percentage" },
  },
  required: ["temperature", "conditions", "humidity"],
};

// A 1×1 transparent PNG.
export const TINY_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

export async function mcpTools(api: Api, groupId: string): Promise<DemoThread> {
  const vendor = "mcp";
  const weatherDeclaration = {
    name: "get_weather_data",
    description: "Get current weather data for a location",
    inputSchema: { type: "object", properties: { location: { type: "string" } }, required: ["location"] },
    outputSchema: WEATHER_OUTPUT_SCHEMA,
  };
  const weatherCall = (id: string, location: string, step: number) => ({
    type: "tool_call",
    group_id: groupId,
    id,
    name: "get_weather_data",
    arguments: { location },
    declaration: weatherDeclaration,
    step,
    vendor,
  });
  await api.events([
    weatherCall("mcp-req-5", "Lisbon", 0),
    weatherCall("mcp-req-6", "Reykjavik", 0),
    weatherCall("mcp-req-7", "Atlantis", 0),
    {
      type: "tool_call",
      group_id: groupId,
      id: "mcp-req-8",
      name: "read_project_file",
      arguments: { uri: "file:///project/src/main.rs" },
      declaration: { name: "read_project_file", description: "Read a file of the open project" },
      step: 1,
      vendor,
    },
  ]);
  const mcpResult = (result: Json) => JSON.stringify({ jsonrpc: "2.0", id: 5, result });
  await Promise.all([
    (async () => {
      await sleep(210);
      // Valid: structuredContent matches the outputSchema, with the serialized JSON as a text block.
      await api.result({
        group_id: groupId,
        id: "mcp-req-5",
        text: mcpResult({
          content: [{ type: "text", text: '{"temperature": 22.5, "conditions": "Partly cloudy", "humidity": 65}' }],
          structuredContent: { temperature: 22.5, conditions: "Partly cloudy", humidity: 65 },
        }),
      });
    })(),
    (async () => {
      await sleep(340);
      // Violates the schema: humidity is a string and conditions is missing.
      await api.result({
        group_id: groupId,
        id: "mcp-req-6",
        text: mcpResult({
          content: [{ type: "text", text: '{"temperature": 3.1, "humidity": "81%"}' }],
          structuredContent: { temperature: 3.1, humidity: "81%" },
        }),
      });
    })(),
    (async () => {
      await sleep(90);
      await api.result({
        group_id: groupId,
        id: "mcp-req-7",
        text: mcpResult({
          content: [{ type: "text", text: 'Failed to fetch weather data: unknown location "Atlantis"' }],
          isError: true,
        }),
      });
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
            {
              type: "resource",
              resource: {
                uri: "file:///project/src/main.rs",
                title: "Project Rust Main File",
                mimeType: "text/x-rust",
                text: 'fn main() {\n    println!("Hello world!");\n}',
              },
            },
            {
              type: "resource_link",
              uri: "file:///project/Cargo.toml",
              name: "Cargo.toml",
              description: "Build manifest",
              mimeType: "text/x-toml",
            },
            { type: "image", data: TINY_PNG, mimeType: "image/png" },
          ],
        }),
      });
    })(),
  ]);
  return {
    key: "mcp",
    groupId,
    vendor,
    calls: 4,
    highlights: "outputSchema valid / violated, isError, content blocks without a schema",
  };
}

// ─── Ops agent: a subscription, flagged text, duplicate/conflicting deliveries, an approval left pending ──
export async function opsAgent(api: Api, groupId: string): Promise<DemoThread> {
  const vendor = "anthropic";
  await api.events([
    {
      type: "message",
      group_id: groupId,
      role: "user",
      text: "Deploy api v2.14.0 to production, watch the rollout and check the logs.",
    },
    {
      type: "tool_call",
      group_id: groupId,
      id: "toolu_01Dp4Lx9Wq2Er7Ty",
      name: "deploy",
      arguments: { service: "api", env: "prod", version: "2.14.0" },
      step: 0,
      vendor,
      timeout_ms: 600_000,
    },
    {
      type: "tool_call",
      group_id: groupId,
      id: "toolu_01Wt8Kc3Vb6Nm1Qs",
      name: "watch_rollout",
      arguments: { service: "api", env: "prod" },
      step: 1,
      vendor,
      subscription: true,
    },
  ]);
  await sleep(380);
  const deployed = {
    group_id: groupId,
    id: "toolu_01Dp4Lx9Wq2Er7Ty",
    text: "Deployment completed successfully. Instance i-0abc123 is running.",
    display_as: [{ type: "text", content: "Deployed api 2.14.0 → i-0abc123" }],
  };
  await api.result(deployed);
  // A network retry re-sends the same result: answered like the first, recorded as a duplicate.
  await api.result(deployed);
  // A buggy tool sends a different result for the same call: 409, the first result is kept.
  await api.result({ ...deployed, text: "Deployment failed: health check timeout" }, 409);

  for (const [i, update] of [
    "Rollout started: 0/4 pods updated",
    "Rolling: 2/4 pods updated, 0 restarts",
    "Rollout complete: 4/4 pods healthy",
  ].entries()) {
    await sleep(150);
    await api.result({
      group_id: groupId,
      id: "toolu_01Wt8Kc3Vb6Nm1Qs",
      text: update,
      ...(i === 0 ? { subscription: true } : {}),
    });
  }
  await api.events([
    { type: "subscription_cancel", group_id: groupId, id: "toolu_01Wt8Kc3Vb6Nm1Qs", reason: "rollout finished" },
    {
      type: "tool_call",
      group_id: groupId,
      id: "toolu_01Lg5Hj2Kf8Ds4Ap",
      name: "fetch_logs",
      arguments: { service: "api", since: "10m" },
      step: 2,
      vendor,
    },
    {
      type: "tool_call",
      group_id: groupId,
      id: "toolu_01Cf9Gh3Jk6Lz2Xm",
      name: "read_config",
      arguments: { path: "config/feature-flags.yaml" },
      step: 2,
      vendor,
    },
    {
      type: "tool_call",
      group_id: groupId,
      id: "toolu_01Ap7Rv2Sx5Tn8Yq",
      name: "request_approval",
      arguments: { action: "scale api to 8 replicas", approver: "on-call" },
      step: 3,
      vendor,
      timeout_ms: 30 * 60_000,
    },
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
      text: 'flags:\n  new_checkout: true\n  admin_override: false \u202E// eurt si siht\u202C\n  beta\u200Busers: ["*"]\n',
    }),
  ]);
  return {
    key: "ops",
    groupId,
    vendor,
    calls: 5,
    highlights: "subscription (3 results, cancelled), duplicate + conflict, secrets, bidi text, approval pending",
  };
}
