// npm run demo against a production build: scripts/demo.ts loads its threads through the public API and
// every dashboard page shows them.
import { expect, test } from "@playwright/test";
import { loadDemo } from "../scripts/demo.ts";

test("the demo loads realistic threads that the dashboard shows", async ({ page, baseURL }) => {
  if (!baseURL) throw new Error("baseURL is not configured");
  const demo = await loadDemo(baseURL);
  expect(demo.threads.map((t) => t.vendor).sort()).toEqual([
    "anthropic",
    "anthropic",
    "gemini",
    "mcp",
    "openai-chat",
    "openai-responses",
  ]);
  expect(demo.calls).toBe(27);
  expect(demo.deliveries.filter((d) => d.status !== 200)).toEqual([
    { id: "toolu_01Dp4Lx9Wq2Er7Ty", status: 409 },
    { id: "call_ghost_01", status: 404 },
  ]);
  const group = (key: string) => demo.threads.find((t) => t.key === key)?.groupId ?? "";

  await page.goto("/");
  const recent = page.getByTestId("overview-threads");
  for (const key of ["ops", "travel", "mcp"])
    await expect(recent.getByRole("link", { name: group(key) })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/demo-overview.png", fullPage: true });

  await page.goto(`/deliveries?outcome=unknown_call&group=${encodeURIComponent(demo.unknownGroupId)}`);
  await expect(page.getByTestId("delivery-row")).toContainText(
    `No registered call "call_ghost_01" in thread "${demo.unknownGroupId}"`,
  );
  await page.goto(`/deliveries?group=${encodeURIComponent(group("ops"))}`);
  for (const outcome of ["accepted", "duplicate", "conflict"])
    await expect(page.locator(`[data-testid="delivery-row"][data-outcome="${outcome}"]`).first()).toBeVisible();

  await page.goto("/subscriptions");
  const cancelled = page
    .getByTestId("subscriptions-cancelled-table")
    .getByTestId("subscription-row")
    .filter({ has: page.getByRole("link", { name: group("ops"), exact: true }) });
  await expect(cancelled).toContainText("rollout finished");
  await expect(cancelled.getByTestId("subscription-results")).toHaveText("3");

  await page.goto("/pending?sort=newest");
  const travel = (callKey: string) =>
    page
      .locator(`[data-testid="pending-row"][data-call-key="${callKey}"]`)
      .filter({ has: page.getByRole("link", { name: group("travel"), exact: true }) });
  await expect(travel("gemini-fc-4")).toBeVisible();
  // check_visa_requirements had a 2 s timeout and no result: it leaves the pending list when it times out.
  await expect(travel("gemini-fc-3")).toHaveCount(0, { timeout: 15_000 });
  await page.screenshot({ path: "test-results/screenshots/demo-pending.png", fullPage: true });

  await page.goto("/insights");
  await expect(
    page.getByRole("region", { name: "Error types by tool" }).getByRole("row", { name: /get_weather_data/ }),
  ).toContainText(/MCP isError \d+/);
  await page.screenshot({ path: "test-results/screenshots/demo-insights.png", fullPage: true });
});
