// Test support: a two-turn tool loop with the real `openai` SDK, instrumented by OpenLLMetry's
// @traceloop/instrumentation-openai, against the fake provider. Turn 1 the model asks for two tools in parallel;
// the loop runs them and sends their results; turn 2 the model answers. Both turns run inside one parent span
// (the instrumentation names no conversation, so the thread is the trace), and the spans are returned.
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { OpenAIInstrumentation } from "@traceloop/instrumentation-openai";
import OpenAI from "openai";
import type { FakeProvider } from "../../models/fake-provider.ts";
import { tracerProvider } from "./tracer-provider.ts";

export const OPENLLMETRY_MODEL = "gpt-fake-openllmetry";
export const OPENLLMETRY_CALLS = [
  {
    id: "call_weather_1",
    name: "weather",
    arguments: { city: "Paris" },
    result: '{"city":"Paris","sky":"sunny","celsius":21}',
  },
  {
    id: "call_docs_1",
    name: "lookup_docs",
    arguments: { query: "umbrella policy" },
    result: "Umbrellas are optional below 20 % rain.",
  },
] as const;
export const OPENLLMETRY_ANSWER = "It is sunny in Paris, 21 °C: no umbrella needed.";

let instrumented = false;

/** Patches the `openai` module once per process: ESM imports are not hooked, so the instrumentation is applied by hand. */
function instrumentOpenAI(): void {
  if (instrumented) return;
  const instrumentation = new OpenAIInstrumentation();
  instrumentation.setTracerProvider(tracerProvider().provider);
  instrumentation.manuallyInstrument(OpenAI);
  instrumented = true;
}

type ToolCall = { id: string; name: string; arguments: string };

/** One streamed turn (the fake provider always streams): the text and the tool calls, assembled from the deltas. */
async function turn(
  client: OpenAI,
  messages: OpenAI.ChatCompletionMessageParam[],
  tools: OpenAI.ChatCompletionTool[],
): Promise<{ text: string; calls: ToolCall[] }> {
  const stream = await client.chat.completions.create({ model: OPENLLMETRY_MODEL, messages, tools, stream: true });
  let text = "";
  const calls: ToolCall[] = [];
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta;
    text += delta?.content ?? "";
    for (const call of delta?.tool_calls ?? []) {
      const slot = (calls[call.index] ??= { id: "", name: "", arguments: "" });
      slot.id += call.id ?? "";
      slot.name += call.function?.name ?? "";
      slot.arguments += call.function?.arguments ?? "";
    }
  }
  return { text, calls };
}

export async function runOpenLLMetryToolLoop(
  fake: FakeProvider,
): Promise<{ traceId: string; text: string; spans: ReadableSpan[] }> {
  instrumentOpenAI();
  const { provider, memory } = tracerProvider();
  memory.reset();
  fake.enqueue(
    OPENLLMETRY_MODEL,
    { toolCalls: OPENLLMETRY_CALLS.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })) },
    { text: OPENLLMETRY_ANSWER },
  );
  const client = new OpenAI({ baseURL: fake.baseUrls["openai-chat"], apiKey: "sk-fake" });
  const tools: OpenAI.ChatCompletionTool[] = OPENLLMETRY_CALLS.map(({ name }) => ({
    type: "function",
    function: {
      name,
      description: `The ${name} tool`,
      parameters: { type: "object", properties: {}, additionalProperties: true },
    },
  }));
  const results = new Map<string, string>(OPENLLMETRY_CALLS.map((call) => [call.id, call.result]));
  const run = await provider.getTracer("openllmetry-agent").startActiveSpan("agent run", async (parent) => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: "system", content: "You are a weather assistant." },
      { role: "user", content: "Weather in Paris, and do I need an umbrella?" },
    ];
    const first = await turn(client, messages, tools);
    messages.push({
      role: "assistant",
      content: first.text === "" ? null : first.text,
      tool_calls: first.calls.map((call) => ({
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: call.arguments },
      })),
    });
    for (const call of first.calls)
      messages.push({ role: "tool", tool_call_id: call.id, content: results.get(call.id) ?? "unknown tool" });
    const second = await turn(client, messages, tools);
    parent.end();
    return { traceId: parent.spanContext().traceId, text: second.text };
  });
  await provider.forceFlush();
  return { ...run, spans: [...memory.getFinishedSpans()] };
}
