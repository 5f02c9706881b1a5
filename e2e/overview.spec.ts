// The overview against a production build: figures match the data and link to the lists behind them, the
// short lists show what was seeded, and a new thread appears without a reload. Seeded only through the API.
import { expect, test, type Page } from "@playwright/test";
import { postResult, registerCall, uniqueGroup } from "./support/seed.ts";

const count = (n: number) => n.toLocaleString("en-US");

async function figureValue(page: Page, testId: string): Promise<string> {
  return (await page.getByTestId(testId).locator(".stat-value").textContent()) ?? "";
}

test("overview figures match the data and link to the filtered lists", async ({ page, request }) => {
  const group = uniqueGroup("overview");
  await registerCall(request, { group_id: group, id: "deploy_1", name: "deploy" });
  await postResult(request, { group_id: group, id: "deploy_1", text: "Error: permission denied for env prod" });
  await registerCall(request, { group_id: group, id: "search_1", name: "search_docs" });
  await postResult(request, {
    group_id: group,
    id: "search_1",
    text: JSON.stringify({
      success: true,
      data: { items: [] },
      confidence: 0.21,
      source: [],
      nextAction: "ask_user",
      error: null,
    }),
  });
  await postResult(
    request,
    { group_id: uniqueGroup("overview-ghost"), id: "nobody", text: "lost" },
    { expectStatus: 404 },
  );

  await page.goto("/");
  const api = await (await request.get("/api/overview")).json();
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  await expect(page.getByTestId("database-provider")).toHaveText("SQLite");
  // Local mode: whoever sees the page runs the machine, so the file is named.
  await expect(page.getByTestId("database-location")).toContainText(".db");
  await expect(page.getByRole("status").filter({ hasText: "Live" })).toBeVisible();

  // Each figure is the number behind its link.
  const links: [string, string][] = [
    ["count-threads", "/threads"],
    ["count-deliveries", "/deliveries"],
    ["figure-pending", "/pending"],
    ["figure-completed", "/calls?status=completed"],
    ["figure-errored", "/calls?status=errored"],
    ["figure-timed-out", "/calls?status=timed_out"],
    ["figure-cancelled", "/calls?status=cancelled"],
    ["figure-results-hour", "/threads?range=1h"],
    ["figure-low-confidence", `/calls?confidenceBelow=${api.lowConfidence.below}&sort=confidence_low`],
    ["figure-subscriptions", "/subscriptions"],
  ];
  for (const [testId, href] of links) await expect(page.getByTestId(testId)).toHaveAttribute("href", href);
  await expect(page.getByTestId("count-calls")).toContainText(count(api.counts.calls));
  await expect(page.getByTestId("figure-errored")).toContainText(count(api.callsByStatus.errored));
  expect(api.callsByStatus.errored).toBeGreaterThanOrEqual(1);
  await expect(page.getByTestId("figure-low-confidence")).toContainText(count(api.lowConfidence.total));

  // A 7-digit count stays inside its card (the cards are as narrow as 8 to a row at 1280 px).
  for (const testId of ["figure-errored", "figure-low-confidence"]) {
    const figure = page.getByTestId(testId);
    await figure.locator(".stat-value").evaluate((node) => (node.textContent = "8,888,888"));
    const fits = await figure.evaluate((card) => {
      const value = card.querySelector(".stat-value");
      if (!value) return false;
      const inner = card.getBoundingClientRect();
      const text = value.getBoundingClientRect();
      return value.scrollWidth <= value.clientWidth && text.right <= inner.right && text.left >= inner.left;
    });
    expect(fits, `${testId} holds 8,888,888`).toBe(true);
  }
  await page.reload();

  // Newest low-confidence result first, with its confidence and suggested action.
  const lowRow = page.getByTestId("overview-low-confidence").getByRole("row").nth(1);
  await expect(lowRow).toContainText("0.21");
  await expect(lowRow).toContainText("ask_user");
  await expect(lowRow.getByRole("link", { name: "search_1" })).toHaveAttribute("href", /^\/calls\/\d+$/);

  // The thread is among the recent ones; the unknown-call delivery is one click from the audit log.
  await expect(page.getByTestId("overview-threads").getByRole("link", { name: group })).toHaveAttribute(
    "href",
    `/threads/${encodeURIComponent(group)}`,
  );
  await expect(page.getByRole("link", { name: /^unknown call$/ })).toHaveAttribute(
    "href",
    "/deliveries?outcome=unknown_call",
  );

  // Live: a thread registered now shows up without a reload.
  const calls = await figureValue(page, "count-calls");
  const late = uniqueGroup("overview-live");
  await registerCall(request, { group_id: late, id: "fresh", name: "lookup_order" });
  await expect(page.getByTestId("overview-threads").getByRole("link", { name: late })).toBeVisible();
  await expect(page.getByTestId("count-calls").locator(".stat-value")).not.toHaveText(calls);
  await page.screenshot({ path: "test-results/screenshots/overview.png", fullPage: true });

  // The figure leads to its list.
  await page.getByTestId("figure-pending").click();
  await expect(page).toHaveURL(/\/pending$/);
  await expect(page.getByRole("heading", { name: "Pending calls", level: 1 })).toBeVisible();
});

test.describe("in dark mode", () => {
  test.use({ colorScheme: "dark" });

  test("the overview is readable", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe("rgb(15, 18, 23)");
    await page.screenshot({ path: "test-results/screenshots/overview-dark.png", fullPage: true });
  });
});
