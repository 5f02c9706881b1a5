// Insights against a production build: the charts render the seeded envelopes and their numbers are
// readable as text. Seeded only through the API.
import { expect, test } from "@playwright/test";
import { postResult, registerCall, uniqueGroup } from "./support/seed.ts";

function envelope(confidence: number, extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    success: true,
    data: {},
    confidence,
    source: [],
    nextAction: confidence >= 0.5 ? "continue" : "ask_user",
    error: null,
    meta: { toolName: "t", toolVersion: "1", traceId: "x", durationMs: 40, cached: false },
    ...extra,
  });
}

test("insights chart confidence bands, next actions, errors by tool and slow tools", async ({ page, request }) => {
  const group = uniqueGroup("insights");
  const tool = `slow_tool_${group.split("-").slice(-3).join("_")}`;
  const seeds: [string, string][] = [
    ["high", envelope(0.95)],
    ["medium", envelope(0.65)],
    ["low", envelope(0.15)],
    [
      "failed",
      envelope(0, {
        success: false,
        nextAction: "stop",
        error: { type: "not_found", message: "no such order", retryable: false },
      }),
    ],
    // Longer than any earlier run's slow tool (the e2e database may be reused), so this one is the slowest.
    [
      "slow",
      envelope(0.9, {
        meta: {
          toolName: "t",
          toolVersion: "1",
          traceId: "y",
          durationMs: Date.now() - Date.parse("2020-01-01T00:00:00Z"),
          cached: false,
        },
      }),
    ],
  ];
  for (const [id, text] of seeds) {
    await registerCall(request, { group_id: group, id, name: tool });
    await postResult(request, { group_id: group, id, text });
  }
  const api = await (await request.get("/api/insights")).json();

  await page.goto("/insights");
  await expect(page.getByRole("heading", { name: "Insights", level: 1 })).toBeVisible();

  const confidence = page.getByRole("region", { name: "Confidence distribution" });
  await expect(confidence.getByRole("group", { name: /^Confidence distribution\./ })).toBeVisible();
  await confidence.getByText("Data table").click();
  const top = api.confidence.buckets[9];
  await expect(confidence.getByRole("row", { name: /^0\.9–1\.0/ })).toContainText(String(top.count));
  await expect(confidence.getByTestId("band-low")).toContainText(String(api.confidence.bands[2].count));

  const actions = page.getByRole("region", { name: "Next actions" });
  const stop = api.nextActions.find((a: { action: string }) => a.action === "stop");
  await expect(actions.getByRole("row", { name: /stop/ })).toContainText(String(stop.count));

  const errors = page.getByRole("region", { name: "Error types by tool" });
  await expect(errors.getByRole("row", { name: new RegExp(tool) })).toContainText("not_found 1");

  const slow = page.getByRole("region", { name: "Slowest tools" });
  await expect(slow.getByRole("row").nth(1)).toContainText(tool);
  await expect(slow.getByRole("row").nth(1)).toContainText(/\d+ d/);
  await page.screenshot({ path: "test-results/screenshots/insights.png", fullPage: true });
});
