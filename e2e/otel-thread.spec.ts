// An agent instrumented with the Vercel AI SDK's OpenTelemetry integration, exported with the real OTLP
// protobuf exporter to Toolscope's /v1/traces, read as a person reads it: the conversation's thread with its
// messages, calls and results. `npm run docs:screenshots` (DOCS_SCREENSHOTS=1) also saves the README's picture
// to public/docs/otel-thread.png; otherwise the screenshot goes to test-results.
import { ExportResultCode } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { runAiSdkToolLoop } from "../lib/otel/testing/ai-sdk-run.ts";
import { findCallRowId, uniqueGroup } from "./support/seed.ts";

function exportSpans(exporter: OTLPTraceExporter, spans: ReadableSpan[]): Promise<{ code: number; error?: Error }> {
  return new Promise((resolve) => exporter.export(spans, resolve));
}

test("an AI SDK agent's OTLP spans become its conversation's thread, call by call", async ({
  page,
  baseURL,
  request,
}) => {
  const conversationId = uniqueGroup("weather-agent");
  // Two runs of one conversation (the second asks a follow-up), as an app would emit them.
  const first = await runAiSdkToolLoop({ mode: "otel", conversationId });
  const second = await runAiSdkToolLoop({
    mode: "otel",
    conversationId,
    prompt: "Check Paris again, please.",
    callIds: ["call-weather-2", "call-fail-2"],
  });
  const exporter = new OTLPTraceExporter({ url: `${baseURL}/v1/traces`, compression: "gzip" as never });
  expect(await exportSpans(exporter, [...first.spans, ...second.spans])).toEqual({ code: ExportResultCode.SUCCESS });
  await exporter.shutdown();

  await page.setViewportSize({ width: 1280, height: 1100 });
  await page.goto(`/threads/${encodeURIComponent(conversationId)}`);
  const feed = page.getByRole("feed", { name: "Thread timeline" });
  await expect(feed).toBeVisible();
  await expect(feed).toContainText("What is the weather in Paris?");
  await expect(feed).toContainText("Check Paris again, please.");
  // A call's own row: the last row with a status that names it (a parallel batch's row contains its calls').
  const callRow = (callKey: string) =>
    feed
      .getByRole("article")
      .filter({ hasText: callKey, has: page.locator("[data-status]") })
      .last();
  const weather = callRow("call-weather-1");
  await expect(weather).toContainText("weather");
  await expect(weather).toContainText('{"city":"Paris"}');
  await expect(weather.locator("[data-status]").first()).toHaveText("completed");
  const flaky = callRow("call-fail-1");
  await expect(flaky.locator("[data-status]").first()).toHaveText("errored");
  await expect(feed).toContainText("upstream timed out (attempt 1)");
  await expect(feed).toContainText("It is sunny in Paris, 21 °C.");
  await expect(callRow("call-weather-2").locator("[data-status]").first()).toHaveText("completed");

  const path =
    process.env.DOCS_SCREENSHOTS === "1" ? "public/docs/otel-thread.png" : "test-results/screenshots/otel-thread.png";
  await page.screenshot({ path, fullPage: true });

  // The call's spans panel (h2) titles each span's parts one level down (h3), never skipping to h4.
  await page.goto(`/calls/${await findCallRowId(request, conversationId, "call-weather-1")}`);
  await expect(page.getByRole("heading", { name: /OpenTelemetry spans/, level: 2 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Attributes", level: 3 }).first()).toBeVisible();
  const headingOrder = await new AxeBuilder({ page }).withRules(["heading-order"]).analyze();
  expect(headingOrder.violations.flatMap((violation) => violation.nodes.map((node) => node.target.join(" ")))).toEqual(
    [],
  );
});

test("a thread open in the browser follows a re-mapping that rewrites rows it shows, without a reload", async ({
  page,
  baseURL,
}) => {
  // Exporters send spans as they end: the tool executions (children) before the model calls that requested them.
  const run = await runAiSdkToolLoop({ mode: "otel", conversationId: uniqueGroup("late-chat") });
  const traceId = run.spans[0]?.spanContext().traceId ?? "";
  const exporter = new OTLPTraceExporter({ url: `${baseURL}/v1/traces` });
  expect(
    await exportSpans(
      exporter,
      run.spans.filter((span) => span.name.startsWith("execute_tool")),
    ),
  ).toEqual({ code: ExportResultCode.SUCCESS });

  // Until the conversation id arrives (with the agent's spans), the trace is its own thread.
  await page.goto(`/threads/${encodeURIComponent(traceId)}`);
  const feed = page.getByRole("feed", { name: "Thread timeline" });
  const callRows = (callKey: string) =>
    feed.getByRole("article").filter({ hasText: callKey, has: page.locator("[data-status]") });
  await expect(callRows("call-weather-1")).toHaveCount(1);
  await expect(feed).not.toContainText("What is the weather in Paris?");

  // The model calls arrive: the trace is mapped again, its rows deleted and written in conversation order.
  expect(
    await exportSpans(
      exporter,
      run.spans.filter((span) => span.name.startsWith("chat")),
    ),
  ).toEqual({ code: ExportResultCode.SUCCESS });
  await exporter.shutdown();
  await expect(feed).toContainText("What is the weather in Paris?");
  await expect(feed).toContainText("It is sunny in Paris, 21 °C.");
  // The rows shown before were replaced, not kept beside their replacements; the question comes first.
  await expect(callRows("call-weather-1")).toHaveCount(1);
  await expect(callRows("call-fail-1")).toHaveCount(1);
  const text = await feed.innerText();
  expect(text.indexOf("What is the weather in Paris?")).toBeLessThan(text.indexOf("call-weather-1"));
});
