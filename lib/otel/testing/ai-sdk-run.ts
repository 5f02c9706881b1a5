// Test support: runs the Vercel AI SDK (ai@7 with @ai-sdk/otel) against its mock language model with two tools
// — one that answers, one that throws — over a multi-step tool loop, and returns the spans the real SDK emitted.
import { OpenTelemetry, LegacyOpenTelemetry } from "@ai-sdk/otel";
import type { ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { z } from "zod";
import { tracerProvider } from "./tracer-provider.ts";

export type AiSdkRunOptions = {
  mode: "otel" | "legacy";
  conversationId?: string;
  prompt?: string;
  /** Tool call ids the mock model uses (a real provider makes them unique; the mock repeats them per run). */
  callIds?: [string, string];
  spanProcessor?: SimpleSpanProcessor;
};

const usage = {
  inputTokens: { total: 12, noCache: 12, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 7, text: 7, reasoning: 0 },
};

export async function runAiSdkToolLoop(options: AiSdkRunOptions): Promise<{ text: string; spans: ReadableSpan[] }> {
  const { provider, memory } = tracerProvider();
  memory.reset();
  const [weatherId, failId] = options.callIds ?? ["call-weather-1", "call-fail-1"];
  let turn = 0;
  const model = new MockLanguageModelV4({
    doGenerate: async () => {
      turn += 1;
      if (turn === 1) {
        return {
          content: [
            { type: "text", text: "Let me check the weather." },
            { type: "tool-call", toolCallId: weatherId, toolName: "weather", input: JSON.stringify({ city: "Paris" }) },
            { type: "tool-call", toolCallId: failId, toolName: "flaky", input: JSON.stringify({ attempt: 1 }) },
          ],
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage,
          warnings: [],
        };
      }
      return {
        content: [{ type: "text", text: "It is sunny in Paris, 21 °C." }],
        finishReason: { unified: "stop", raw: "stop" },
        usage,
        warnings: [],
      };
    },
  });
  const tracer = provider.getTracer("ai-sdk-test");
  const telemetry =
    options.mode === "legacy"
      ? new LegacyOpenTelemetry({ tracer })
      : new OpenTelemetry({ tracer, runtimeContext: true });
  const result = await generateText({
    model,
    system: "You are a weather assistant.",
    prompt: options.prompt ?? "What is the weather in Paris?",
    tools: {
      weather: tool({
        description: "Current weather for a city",
        inputSchema: z.object({ city: z.string() }),
        execute: async ({ city }) => ({ city, sky: "sunny", celsius: 21 }),
      }),
      flaky: tool({
        description: "A tool that always fails",
        inputSchema: z.object({ attempt: z.number() }),
        execute: async ({ attempt }): Promise<{ attempt: number }> => {
          throw new Error(`upstream timed out (attempt ${attempt})`);
        },
      }),
    },
    stopWhen: stepCountIs(4),
    runtimeContext: { conversationId: options.conversationId ?? "conv-weather" },
    telemetry: {
      isEnabled: true,
      functionId: "weather-agent",
      includeRuntimeContext: { conversationId: true },
      integrations: [telemetry],
    },
  });
  await provider.forceFlush();
  return { text: result.text, spans: [...memory.getFinishedSpans()] };
}
