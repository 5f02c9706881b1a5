// The calls explorer (/calls) against a production build: filters live in the URL, full-text search, keyset
// paging, drill-in from Insights, the call page's verdict and "replay at this step", and 390 px wide.
// Seeded only through the API, with a unique tool name so earlier runs' data does not matter.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { postResults, registerCall, uniqueGroup } from "./support/seed.ts";

function envelope(fields: Record<string, unknown>): string {
  return JSON.stringify({
    success: true,
    data: {},
    confidence: 0.9,
    source: [],
    nextAction: "continue",
    error: null,
    meta: { toolName: "t", toolVersion: "1", traceId: "x", durationMs: 10, cached: false },
    ...fields,
  });
}

async function seed(request: APIRequestContext) {
  const group = uniqueGroup("explorer");
  const suffix = group.split("-").slice(-3).join("_");
  const tool = `deploy_${suffix}`;
  const word = `flamingo${suffix.replaceAll("_", "")}`;
  // 60 calls of one tool: 5 failed deploys with a timeout (slow), the rest fine; one mentions the search word.
  for (let i = 0; i < 60; i++)
    await registerCall(request, { group_id: group, id: `c${i}`, name: tool, arguments: JSON.stringify({ i }) });
  await postResults(
    request,
    Array.from({ length: 60 }, (_, i) => ({
      group_id: group,
      id: `c${i}`,
      text:
        i < 5
          ? envelope({
              success: false,
              confidence: 0,
              nextAction: "retry",
              error: { type: "timeout", message: "upstream slow", retryable: true },
              meta: { toolName: "t", toolVersion: "1", traceId: "x", durationMs: 2500 + i, cached: false },
            })
          : envelope({
              confidence: i === 7 ? 0.3 : 0.9,
              nextAction: i === 7 ? "ask_user" : "continue",
              data: { note: i === 42 ? `found the ${word}` : "nothing" },
            }),
    })),
  );
  return { group, tool, word };
}

test("filters, search and keyset pages live in the URL; Insights bars drill in", async ({ page, request }) => {
  const { group, tool, word } = await seed(request);

  // The API: filters and the example ("every failed deploy over 2 s").
  const api = await (await request.get(`/api/calls?tool=${tool}&status=errored&latencyMin=2000`)).json();
  expect(api.items).toHaveLength(5);
  expect(api.items[0]).toMatchObject({
    toolName: tool,
    groupId: group,
    errorType: "timeout",
    nextAction: "retry",
    verdict: { state: "failed", action: "retry" },
  });
  expect((await request.get("/api/calls?latencyMin=abc")).status()).toBe(422);

  // The page: a filter chosen in the form lands in the URL, and the URL alone reproduces the view.
  await page.goto(`/calls?tool=${tool}`);
  await expect(page.getByRole("heading", { name: "Calls", level: 1 })).toBeVisible();
  await expect(page.getByTestId("explorer-row")).toHaveCount(50);
  await page.getByLabel("Status").selectOption("errored");
  await expect(page).toHaveURL(new RegExp(`status=errored`));
  await expect(page.getByTestId("explorer-row")).toHaveCount(5);
  await expect(page.getByTestId("explorer-row").first()).toContainText("failed · retry");
  await page.reload();
  await expect(page.getByTestId("explorer-row")).toHaveCount(5);
  await expect(page.getByLabel("Status")).toHaveValue("errored");

  // Full-text search in result text.
  await page.goto(`/calls?tool=${tool}`);
  await page.getByLabel("Search arguments and results").fill(word);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(new RegExp(`q=${word}`));
  await expect(page.getByTestId("explorer-row")).toHaveCount(1);
  await expect(page.getByTestId("explorer-row")).toHaveAttribute("data-call-key", "c42");

  // Keyset paging: 60 calls → 50 + 10, no repeats.
  await page.goto(`/calls?tool=${tool}`);
  const first = await page
    .getByTestId("explorer-row")
    .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-call-key")));
  await page.getByTestId("explorer-next").click();
  await expect(page).toHaveURL(/cursor=/);
  await expect(page.getByTestId("explorer-row")).toHaveCount(10);
  const second = await page
    .getByTestId("explorer-row")
    .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-call-key")));
  expect(new Set([...first, ...second]).size).toBe(60);
  await expect(page.getByText("End of the list.")).toBeVisible();

  // Drill-in: the Insights error bar for this tool's timeouts lists exactly those calls.
  await page.goto("/insights");
  const errors = page.getByRole("region", { name: "Error types by tool" });
  await errors
    .getByRole("row", { name: new RegExp(tool) })
    .getByRole("link", { name: /timeout 5/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`/calls\\?tool=${tool}&errorType=timeout`));
  await expect(page.getByTestId("explorer-row")).toHaveCount(5);
  await page.screenshot({ path: "test-results/screenshots/calls-explorer.png", fullPage: true });

  // The call page: the verdict first, and replay at this step.
  await page.getByTestId("explorer-row").first().getByRole("link").first().click();
  const verdict = page.getByTestId("verdict-panel");
  await expect(verdict).toContainText("failed · retry");
  await expect(verdict.getByTestId("verdict-advice")).toHaveText("The call failed. Retry the call.");
  await expect(verdict.getByTestId("replay-at-step")).toHaveAttribute(
    "href",
    new RegExp(`/threads/${group}/replay\\?step=\\d+`),
  );
});

test("usable at 390 px wide", async ({ page, request }) => {
  const { tool } = await seed(request);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/calls?tool=${tool}&status=errored`);
  await expect(page.getByTestId("explorer-row")).toHaveCount(5);
  // Nothing wider than the screen but the table's own scroller.
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await expect(page.getByTestId("explorer-row").first().getByRole("link").first()).toBeInViewport();
  await page.screenshot({ path: "test-results/screenshots/calls-explorer-390.png", fullPage: true });
});

test("one filter form, whatever the number of client-side filter changes", async ({ page, request }) => {
  const { tool, word } = await seed(request);
  await page.goto(`/calls?tool=${tool}`);
  await expect(page.getByRole("search")).toHaveCount(1);
  await page.getByLabel("Status").selectOption("errored");
  await expect(page).toHaveURL(/status=errored/);
  await expect(page.getByTestId("explorer-row")).toHaveCount(5);
  await page.getByLabel("Status").selectOption("completed");
  await expect(page).toHaveURL(/status=completed/);
  await page.getByLabel("Search arguments and results").fill(word);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(new RegExp(`q=${word}`));
  await expect(page.getByTestId("explorer-row")).toHaveCount(1);
  await expect(page.getByRole("search")).toHaveCount(1);
  await expect(page.getByLabel("Status")).toHaveValue("completed");
});

test("each latency says what it measures: tool-reported beside observed, on the list and the call page", async ({
  page,
  request,
}) => {
  const { tool } = await seed(request);
  await page.goto(`/calls?tool=${tool}&status=errored&sort=slowest`);
  await expect(page.getByRole("columnheader", { name: /Latency tool-reported · observed/ })).toBeVisible();
  const row = page.getByTestId("explorer-row").first();
  await expect(row).toHaveAttribute("data-call-key", "c4");
  const latency = row.getByTestId("latency");
  await expect(latency.locator('[data-latency="reported"]')).toHaveText("2.50 s tool-reported");
  await expect(latency.locator('[data-latency="observed"]')).toContainText("observed");
  await row.getByRole("link").first().click();
  await expect(page.getByTestId("call-took")).toContainText("observed");
  await expect(page.getByTestId("envelope-duration")).toHaveText(/tool-reported$/);
});
