// The OTLP benchmark's payloads: export requests shaped like the AI SDK's GenAI spans (agent, two steps, two
// model calls with their message lists, two tool executions per run), protobuf-encoded once up front.
import { randomBytes } from "node:crypto";
import { encodeProtobufRequest } from "../../lib/otel/otlp-proto.ts";

const hex = (bytes: number) => randomBytes(bytes);
const attr = (key: string, value: string | number) => ({
  key,
  value: typeof value === "number" ? { intValue: value } : { stringValue: value },
});
const json = (value: unknown) => JSON.stringify(value);

/** One agent run as the AI SDK's OpenTelemetry integration emits it: 7 spans. */
function agentRun(conversation: string, turn: number, startMs: number) {
  const traceId = hex(16);
  const ids = Array.from({ length: 7 }, () => hex(8));
  const [root, step1, chat1, tool1, tool2, step2, chat2] = ids;
  const ns = (ms: number) => String(BigInt(startMs + ms) * 1_000_000n);
  const user = {
    role: "user",
    parts: [{ type: "text", content: `Turn ${turn}: what is the weather in city ${turn}?` }],
  };
  const calls = [
    {
      type: "tool_call",
      id: `call_${traceId.toString("hex").slice(0, 8)}_a`,
      name: "weather",
      arguments: { city: `city ${turn}` },
    },
    {
      type: "tool_call",
      id: `call_${traceId.toString("hex").slice(0, 8)}_b`,
      name: "lookup_docs",
      arguments: { query: "umbrella policy", limit: 3 },
    },
  ];
  const assistant = { role: "assistant", parts: [{ type: "text", content: "Let me check." }, ...calls] };
  const results = [
    json({ city: `city ${turn}`, sky: "cloudy", celsius: 14 }),
    json({ success: true, data: ["doc-1", "doc-2"], confidence: 0.91 }),
  ];
  const tools = {
    role: "tool",
    parts: calls.map((call, i) => ({
      type: "tool_call_response",
      id: call.id,
      response: JSON.parse(results[i] ?? "null"),
    })),
  };
  const span = (
    spanId: Buffer | undefined,
    parent: Buffer | undefined,
    name: string,
    from: number,
    to: number,
    attributes: object[],
    extra: object = {},
  ) => ({
    traceId,
    spanId,
    ...(parent ? { parentSpanId: parent } : {}),
    name,
    kind: 1,
    startTimeUnixNano: ns(from),
    endTimeUnixNano: ns(to),
    attributes,
    status: { code: 0 },
    ...extra,
  });
  const context = attr("ai.settings.context.conversationId", conversation);
  return [
    span(chat1, step1, "chat gpt-4o", 2, 400, [
      attr("gen_ai.operation.name", "chat"),
      attr("gen_ai.request.model", "gpt-4o"),
      attr("gen_ai.input.messages", json([user])),
      attr("gen_ai.output.messages", json([assistant])),
      attr("gen_ai.usage.input_tokens", 812),
      attr("gen_ai.usage.output_tokens", 64),
    ]),
    span(tool1, step1, "execute_tool weather", 401, 520, [
      attr("gen_ai.operation.name", "execute_tool"),
      attr("gen_ai.tool.name", "weather"),
      attr("gen_ai.tool.call.id", calls[0]?.id ?? ""),
      attr("gen_ai.tool.call.arguments", json(calls[0]?.arguments)),
      attr("gen_ai.tool.call.result", results[0] ?? ""),
    ]),
    span(tool2, step1, "execute_tool lookup_docs", 401, 610, [
      attr("gen_ai.operation.name", "execute_tool"),
      attr("gen_ai.tool.name", "lookup_docs"),
      attr("gen_ai.tool.call.id", calls[1]?.id ?? ""),
      attr("gen_ai.tool.call.arguments", json(calls[1]?.arguments)),
      attr("gen_ai.tool.call.result", results[1] ?? ""),
    ]),
    span(step1, root, "step 1", 1, 611, [attr("gen_ai.operation.name", "agent_step"), context]),
    span(chat2, step2, "chat gpt-4o", 612, 900, [
      attr("gen_ai.operation.name", "chat"),
      attr("gen_ai.request.model", "gpt-4o"),
      attr("gen_ai.input.messages", json([user, assistant, tools])),
      attr(
        "gen_ai.output.messages",
        json([
          { role: "assistant", parts: [{ type: "text", content: `City ${turn} is cloudy, 14 °C; take an umbrella.` }] },
        ]),
      ),
      attr("gen_ai.usage.input_tokens", 1020),
      attr("gen_ai.usage.output_tokens", 31),
    ]),
    span(step2, root, "step 2", 611, 901, [attr("gen_ai.operation.name", "agent_step"), context]),
    span(root, undefined, "invoke_agent gpt-4o", 0, 902, [attr("gen_ai.operation.name", "invoke_agent"), context]),
  ];
}

/** `requests` export requests of `traces` agent runs (7 spans each); each conversation gets three runs, in different requests. */
export function payloads(requests: number, traces: number): { body: Uint8Array; spans: number }[] {
  const conversations = Math.max(1, Math.floor((requests * traces) / 3));
  let run = 0;
  const start = Date.now() - 3_600_000;
  return Array.from({ length: requests }, () => {
    const spans = Array.from({ length: traces }, () => {
      run += 1;
      return agentRun(`conv-${run % conversations}`, Math.floor(run / conversations), start + run * 1000);
    }).flat();
    const request = {
      resourceSpans: [
        {
          resource: { attributes: [attr("service.name", "bench-agent")] },
          scopeSpans: [{ scope: { name: "ai", version: "7.0.0" }, spans }],
        },
      ],
    };
    return { body: encodeProtobufRequest(request), spans: spans.length };
  });
}
