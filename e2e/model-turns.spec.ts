// Model turns on the thread, read as a person reads them: an OTLP `chat` span (content capture off: model,
// tokens and timing only) shows as a timeline row and a waterfall bar with its model, tokens, latency and stop
// reason, and the thread header and the threads list total its tokens and cost. DOCS_SCREENSHOTS=1 saves the
// docs' pictures of a thread with model turns (light and dark) to docs/images/.
import { ExportResultCode } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { expect, test, type Page } from "@playwright/test";
import { uniqueGroup } from "./support/seed.ts";

// Each test sends spans, opens two or three pages and (for the docs) takes a screenshot: on a loaded 2-core box
// that ran past the 60 s default while every assertion was still passing.
test.describe.configure({ timeout: 180_000 });

type Chat = { model: string; input: number; output: number; ms: number; cached?: number; at: number; call?: string };

/** chat spans (and, for a chat that requested a tool, its execute_tool span) of one conversation. */
function agentSpans(groupId: string, chats: Chat[]): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer("agent");
  const base = Date.now() - 60_000;
  chats.forEach((chat, index) => {
    const start = base + chat.at;
    const output = chat.call
      ? [
          {
            role: "assistant",
            parts: [{ type: "tool_call", id: chat.call, name: "get_weather", arguments: { city: "Paris" } }],
          },
        ]
      : null;
    tracer
      .startSpan(`chat ${chat.model}`, {
        startTime: new Date(start),
        attributes: {
          "gen_ai.conversation.id": groupId,
          "gen_ai.operation.name": "chat",
          "gen_ai.request.model": chat.model,
          "gen_ai.response.id": `resp_${index}`,
          "gen_ai.response.finish_reasons": [chat.call ? "tool_calls" : "stop"],
          "gen_ai.usage.input_tokens": chat.input,
          "gen_ai.usage.output_tokens": chat.output,
          ...(chat.cached === undefined ? {} : { "gen_ai.usage.cache_read.input_tokens": chat.cached }),
          ...(output ? { "gen_ai.output.messages": JSON.stringify(output) } : {}),
        },
      })
      .end(new Date(start + chat.ms));
    if (chat.call)
      tracer
        .startSpan("execute_tool get_weather", {
          startTime: new Date(start + chat.ms + 20),
          attributes: {
            "gen_ai.conversation.id": groupId,
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": "get_weather",
            "gen_ai.tool.call.id": chat.call,
            "gen_ai.tool.call.arguments": '{"city":"Paris"}',
            "gen_ai.tool.call.result": '{"sky":"sunny","celsius":21}',
          },
        })
        .end(new Date(start + chat.ms + 340));
  });
  return exporter.getFinishedSpans();
}

async function send(baseURL: string | undefined, spans: ReadableSpan[]): Promise<void> {
  const exporter = new OTLPTraceExporter({ url: `${baseURL}/v1/traces` });
  const result = await new Promise<{ code: number }>((resolve) => exporter.export(spans, resolve));
  expect(result.code).toBe(ExportResultCode.SUCCESS);
  await exporter.shutdown();
}

async function openThread(page: Page, groupId: string) {
  await page.goto(`/threads/${encodeURIComponent(groupId)}`);
  const feed = page.getByRole("feed", { name: "Thread timeline" });
  await expect(feed).toBeVisible();
  return feed;
}

test("an OTLP chat span shows as a model-turn row and bar, with the thread's token totals and cost", async ({
  page,
  baseURL,
  request,
}) => {
  const groupId = uniqueGroup("chat-span");
  await send(baseURL, agentSpans(groupId, [{ model: "gpt-4.1", input: 812, output: 37, ms: 900, at: 0 }]));

  const feed = await openThread(page, groupId);
  const row = feed.getByTestId("model-turn-row");
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("model-turn-model")).toHaveText("gpt-4.1");
  await expect(row.getByTestId("model-turn-tokens")).toHaveText("812 in · 37 out");
  await expect(row.getByTestId("model-turn-latency")).toHaveText("900 ms");
  await expect(row).toContainText("stop");
  // gpt-4.1 at $2 in / $8 out per million tokens: 812 × 2 + 37 × 8 = 1,920 µ$.
  await expect(row).toContainText("$0.0019");

  const usage = page.getByRole("group", { name: "Model turns and tokens" });
  await expect(usage.getByTestId("usage-turns")).toHaveText("1 model turn");
  await expect(usage.getByTestId("usage-input")).toHaveText("812 tokens in");
  await expect(usage.getByTestId("usage-output")).toHaveText("37 out");
  await expect(usage.getByTestId("usage-cost")).toContainText("$0.0019");

  const summary = await (await request.get(`/api/threads/${encodeURIComponent(groupId)}/summary`)).json();
  expect(summary.usage).toEqual({ inputTokens: 812, outputTokens: 37, cachedInputTokens: 0, reasoningTokens: 0 });
  expect(summary.cost.usd).toBeCloseTo(0.00192, 10);

  await page.getByRole("button", { name: "Waterfall", exact: true }).click();
  const bar = page.getByTestId("waterfall-turn");
  await expect(bar).toHaveCount(1);
  await expect(bar).toHaveAttribute(
    "aria-label",
    /model turn gpt-4\.1: starts at \+0 ms, took 900 ms, 812 in · 37 out, stopped: stop/,
  );
  await expect(bar.getByTestId("waterfall-turn-tokens")).toHaveText("812 in · 37 out");

  await page.goto(`/threads?q=${encodeURIComponent(groupId)}`);
  const listRow = page.getByTestId("thread-row").filter({ hasText: groupId });
  await expect(listRow.getByTestId("thread-tokens")).toHaveText("812 in · 37 out");
  await expect(listRow.getByTestId("thread-cost")).toHaveText("$0.0019");
});

test('a model the price table does not know costs "unknown model", not $0', async ({ page, baseURL }) => {
  const groupId = uniqueGroup("unknown-model");
  await send(baseURL, agentSpans(groupId, [{ model: "my-local-llama", input: 50, output: 5, ms: 120, at: 0 }]));
  const feed = await openThread(page, groupId);
  await expect(feed.getByTestId("model-turn-row")).toContainText("unknown model");
  await expect(page.getByTestId("usage-cost")).toContainText("unknown model");
  await expect(page.getByTestId("usage-cost")).not.toContainText("$0");
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`a thread with model turns and tool calls (${colorScheme})`, async ({ page, baseURL }) => {
    const groupId = uniqueGroup("weather-agent");
    await send(
      baseURL,
      agentSpans(groupId, [
        { model: "gpt-4.1", input: 812, output: 37, ms: 900, at: 0, call: "call_weather_1" },
        { model: "gpt-4.1", input: 1_204, output: 58, cached: 768, ms: 1_150, at: 1_400 },
        { model: "claude-sonnet-4-5-20250929", input: 2_310, output: 412, cached: 1_024, ms: 3_200, at: 2_800 },
      ]),
    );
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width: 1280, height: 800 });
    const feed = await openThread(page, groupId);
    await expect(feed.getByTestId("model-turn-row")).toHaveCount(3);
    await expect(page.getByTestId("usage-input")).toHaveText("4,326 tokens in");
    await expect(page.getByTestId("usage-cached")).toHaveText("1,792 cached");
    const dir = process.env.DOCS_SCREENSHOTS === "1" ? "docs/images" : "test-results/screenshots";
    await page.screenshot({ path: `${dir}/thread-model-turns-${colorScheme}.png` });
  });
}
