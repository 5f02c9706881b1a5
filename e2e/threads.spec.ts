// The threads list: search (group id, tool name, result text), filters, keyset pages in the URL, empty state.
import { expect, test } from "@playwright/test";
import { postResult, registerCall, uniqueGroup } from "./support/seed.ts";

test("threads list searches, filters and pages on the server", async ({ page, request }) => {
  const prefix = uniqueGroup("e2e-list");
  const tool = `deploy_${Date.now().toString(36)}`;
  const needle = `needle${Date.now().toString(36)}`;
  await registerCall(request, { group_id: `${prefix}-alpha`, id: "c1", name: tool });
  await registerCall(request, { group_id: `${prefix}-beta`, id: "c1", name: "search_docs" });
  await postResult(request, { group_id: `${prefix}-beta`, id: "c1", text: `found the ${needle} in the haystack` });
  await registerCall(request, { group_id: `${prefix}-gamma`, id: "c1", name: "search_docs" });
  await postResult(request, { group_id: `${prefix}-gamma`, id: "c1", text: "Error: upstream unavailable" });

  const rows = page.getByTestId("thread-row");
  await page.goto("/threads");
  await expect(page.getByRole("heading", { name: "Threads", level: 1 })).toBeVisible();

  await page.getByRole("searchbox", { name: "Search threads" }).fill(prefix);
  await page.getByRole("searchbox", { name: "Search threads" }).press("Enter");
  await expect(page).toHaveURL(new RegExp(`q=${prefix}`));
  await expect(rows).toHaveCount(3);
  // Most recent activity first.
  await expect(rows.first()).toContainText(`${prefix}-gamma`);
  await expect(rows.filter({ hasText: `${prefix}-beta` })).toContainText("search_docs");

  await page.getByRole("checkbox", { name: "Has errors" }).check();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`${prefix}-gamma`);
  await page.getByRole("checkbox", { name: "Has errors" }).uncheck();
  await expect(rows).toHaveCount(3);

  await page.getByRole("combobox", { name: "Call status" }).selectOption("pending");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`${prefix}-alpha`);
  await page.screenshot({ path: "test-results/screenshots/threads.png", fullPage: true });

  // Tool name search, then result text (only when asked for).
  await page.goto(`/threads?q=${tool}`);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`${prefix}-alpha`);
  await page.goto(`/threads?q=${needle}`);
  await expect(page.getByRole("status").filter({ hasText: "No threads match these filters" })).toBeVisible();
  await page.getByRole("combobox", { name: "Search in" }).selectOption("text");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`${prefix}-beta`);

  // Keyset pages: the cursor lives in the URL, both directions.
  await page.goto(`/threads?q=${prefix}&limit=2`);
  await expect(rows).toHaveCount(2);
  await page.getByRole("link", { name: "Older →" }).click();
  await expect(page).toHaveURL(/after=/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`${prefix}-alpha`);
  await page.getByRole("link", { name: "← Newer" }).click();
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText(`${prefix}-gamma`);

  // A thread name is a link to its timeline.
  await rows
    .first()
    .getByRole("link", { name: `${prefix}-gamma` })
    .click();
  await expect(page.getByTestId("thread-title")).toHaveText(`${prefix}-gamma`);
});

test("threads API answers one error shape for bad parameters", async ({ request }) => {
  const bad = await request.get("/api/threads?status=weird");
  expect(bad.status()).toBe(422);
  expect(await bad.json()).toMatchObject({ error: { code: "invalid", path: "status" } });
  const cursor = await request.get("/api/threads?after=not-a-cursor");
  expect(cursor.status()).toBe(422);
  const missing = await request.get(`/api/threads/${uniqueGroup("nope")}/timeline`);
  expect(missing.status()).toBe(404);
  expect(await missing.json()).toMatchObject({ error: { code: "not_found" } });
});

test("a group id with spaces, slashes, # and % opens its thread from the list and by URL", async ({
  page,
  request,
}) => {
  const prefix = uniqueGroup("e2e-odd");
  const group = `${prefix} team/run #1 ünï %41`;
  await registerCall(request, { group_id: group, id: "c1", name: "deploy" });
  await page.goto(`/threads?q=${encodeURIComponent(prefix)}`);
  await page.getByRole("link", { name: group }).click();
  await expect(page.getByTestId("thread-title")).toHaveText(group);
  await page.goto(`/threads/${encodeURIComponent(group)}`);
  await expect(page.getByTestId("thread-title")).toHaveText(group);
  await expect(page.getByRole("feed", { name: "Thread timeline" }).getByRole("article")).toContainText("deploy");
});
