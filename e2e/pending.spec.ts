// The pending page against a production build: calls appear and leave without a reload, and a reader
// scrolled into the list gets an "N new" button instead of a moving list. Seeded only through the API.
import { expect, test, type Page } from "@playwright/test";
import { postEventBatches, postResult, registerCall, uniqueGroup } from "./support/seed.ts";

function pendingRow(page: Page, group: string, callKey: string) {
  return page
    .locator(`[data-testid="pending-row"][data-call-key="${callKey}"]`)
    .filter({ has: page.getByRole("link", { name: group, exact: true }) });
}

test("a call registered while the page is open appears without reload, and leaves when its result arrives", async ({
  page,
  request,
}) => {
  const group = uniqueGroup("pending");
  await registerCall(request, {
    group_id: group,
    id: "first",
    name: "lookup_order",
    timeout_ms: 30 * 60_000,
    vendor: "openai-chat",
    step: 1,
  });

  await page.goto("/pending?sort=newest");
  await expect(page.getByRole("heading", { name: "Pending calls", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Newest first" })).toHaveAttribute("aria-current", "page");
  const first = pendingRow(page, group, "first");
  await expect(first).toBeVisible();
  await expect(first).toContainText("lookup_order");
  await expect(first).toContainText("openai-chat");
  await expect(first.locator("time").last()).toHaveText(/^in \d+ min/);
  await expect(first.getByRole("link", { name: "first" })).toHaveAttribute("href", /^\/calls\/\d+$/);

  await registerCall(request, { group_id: group, id: "second", name: "refund_order" });
  const second = pendingRow(page, group, "second");
  await expect(second).toBeVisible();
  await expect(second).toContainText("none");

  await postResult(request, { group_id: group, id: "first", text: "order 1234: shipped" });
  await expect(first).toHaveCount(0);
  await page.screenshot({ path: "test-results/screenshots/pending.png", fullPage: true });
});

test("while the reader is scrolled down, new calls wait behind an 'N new' button", async ({ page, request }) => {
  const group = uniqueGroup("pending-scroll");
  await postEventBatches(
    request,
    Array.from({ length: 60 }, (_, i) => ({
      type: "tool_call" as const,
      group_id: group,
      id: `bulk_${i}`,
      name: "index_document",
      arguments: `{"doc":${i}}`,
    })),
  );
  await page.goto("/pending?sort=newest");
  const table = page.getByTestId("pending-calls");
  await expect(pendingRow(page, group, "bulk_59")).toBeVisible();
  await expect(table).toHaveAttribute("data-live-state", "following");

  await table.getByRole("row").last().scrollIntoViewIfNeeded();
  await expect(table).toHaveAttribute("data-live-state", "holding");
  const rowsBefore = await table.getByRole("row").count();

  await registerCall(request, { group_id: group, id: "arrived_later", name: "index_document" });
  const button = page.getByRole("button", { name: "1 new call" });
  await expect(button).toBeVisible();
  await expect(pendingRow(page, group, "arrived_later")).toHaveCount(0);
  expect(await table.getByRole("row").count()).toBe(rowsBefore);
  await page.screenshot({ path: "test-results/screenshots/pending-new-rows-held.png" });

  await button.focus();
  await page.keyboard.press("Enter");
  await expect(pendingRow(page, group, "arrived_later")).toBeVisible();
  await expect(page.getByRole("heading", { name: /Awaiting a result/ })).toBeFocused();
  await expect(button).toHaveCount(0);
});
