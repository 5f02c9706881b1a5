// The home page of a production build reports the database and what it holds.
import { expect, test } from "@playwright/test";

test("home page shows the database and its figures", async ({ page, request }) => {
  const health = await (await request.get("/api/health")).json();
  expect(health.database.provider).toBe("sqlite");
  expect(health.migrations.state).toBe("up_to_date");

  const group = `e2e-home-${Date.now()}`;
  const registered = await request.post("/api/events", {
    data: { type: "tool_call", group_id: group, id: "call_1", name: "search_docs", arguments: '{"q":"toolscope"}' },
  });
  expect(registered.status()).toBe(201);
  const delivered = await request.post("/api/callback", {
    data: { type: "tool_result", group_id: group, id: "call_1", text: "3 documents found" },
  });
  expect(delivered.status()).toBe(200);
  const after = await (await request.get("/api/health")).json();

  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(page.getByTestId("database-provider")).toHaveText("SQLite");
  await expect(page.getByTestId("migration-state")).toContainText("up to date");
  await expect(page.getByTestId("count-threads")).toContainText(after.counts.threads.toLocaleString("en-US"));
  await expect(page.getByTestId("count-calls")).toContainText(after.counts.calls.toLocaleString("en-US"));
  await expect(page.getByTestId("count-results")).toContainText(after.counts.results.toLocaleString("en-US"));
  expect(after.counts.results).toBeGreaterThanOrEqual(1);
  await page.screenshot({ path: "test-results/screenshots/home.png", fullPage: true });
});
