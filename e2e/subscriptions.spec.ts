// The subscriptions page against a production build: results counted live; a cancelled subscription moves to
// the cancelled table with its reason. Seeded only through the API.
import { expect, test } from "@playwright/test";
import { postEvent, postResult, registerCall, uniqueGroup } from "./support/seed.ts";

test("subscriptions count their results and move to cancelled, live", async ({ page, request }) => {
  const group = uniqueGroup("subs");
  await registerCall(request, { group_id: group, id: "watch_1", name: "watch_build", subscription: true });
  await postResult(request, { group_id: group, id: "watch_1", text: "build queued" });
  await postResult(request, { group_id: group, id: "watch_1", text: "build running" });

  await page.goto("/subscriptions");
  await expect(page.getByRole("heading", { name: "Subscriptions", level: 1 })).toBeVisible();
  const active = page.getByTestId("subscriptions-active-table");
  const row = active
    .getByTestId("subscription-row")
    .filter({ has: page.getByRole("link", { name: group, exact: true }) });
  await expect(row).toContainText("watch_build");
  await expect(row.getByTestId("subscription-results")).toHaveText("2");
  await expect(row.getByRole("link", { name: "watch_1" })).toHaveAttribute("href", /^\/calls\/\d+$/);

  await postResult(request, { group_id: group, id: "watch_1", text: "build passed" });
  await expect(row.getByTestId("subscription-results")).toHaveText("3");
  await page.screenshot({ path: "test-results/screenshots/subscriptions.png", fullPage: true });

  await postEvent(request, {
    type: "subscription_cancel",
    group_id: group,
    id: "watch_1",
    reason: "the user closed the build panel",
  });
  const cancelled = page
    .getByTestId("subscriptions-cancelled-table")
    .getByTestId("subscription-row")
    .filter({ has: page.getByRole("link", { name: group, exact: true }) });
  await expect(cancelled).toContainText("the user closed the build panel");
  await expect(cancelled.getByTestId("subscription-results")).toHaveText("3");
  await expect(row).toHaveCount(0);
});
