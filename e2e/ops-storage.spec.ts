// Operations in a production build: missing thread and call pages answer 404 with navigation; the storage
// view shows size, rows per table and what retention removes next; its API and prune answer as documented.
import { expect, test } from "@playwright/test";

test("missing thread and call pages answer 404 and offer a way back", async ({ page, request }) => {
  for (const path of ["/threads/no-such-thread-e2e", "/calls/999999999"]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(404);
    await page.goto(path);
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  }
  expect((await request.get("/calls/1e3")).status()).toBe(404);
});

test("the storage view shows the database and what retention removes next", async ({ page, request }) => {
  const group = `e2e-storage-${Date.now()}`;
  expect(
    (
      await request.post("/api/events", { data: { type: "tool_call", group_id: group, id: "c1", name: "lookup" } })
    ).status(),
  ).toBe(201);
  expect(
    (
      await request.post("/api/callback", { data: { type: "tool_result", group_id: group, id: "c1", text: "found" } })
    ).status(),
  ).toBe(200);

  const storage = await (await request.get("/api/storage")).json();
  expect(storage.database.provider).toBe("sqlite");
  expect(storage.database.autoVacuum).toBe("incremental");
  const results = storage.tables.find((row: { table: string }) => row.table === "ToolResult").rows;
  expect(results).toBeGreaterThanOrEqual(1);

  const dryRun = await request.post("/api/storage/prune", { data: { dry_run: true, days: 3650 } });
  expect(dryRun.status()).toBe(200);
  expect(await dryRun.json()).toMatchObject({ dryRun: true, threads: [] });
  const wrongType = await request.post("/api/storage/prune", { headers: { "content-type": "text/plain" }, data: "{}" });
  expect(wrongType.status()).toBe(415);

  await page.goto("/settings/storage");
  await expect(page.getByRole("heading", { name: "Storage" })).toBeVisible();
  await expect(page.getByTestId("rows-ToolResult")).toContainText(String(results));
  await expect(page.getByTestId("retention-settings")).toContainText("Off");
  await page.screenshot({ path: "test-results/screenshots/storage.png", fullPage: true });
});

test.describe("in dark mode", () => {
  test.use({ colorScheme: "dark" });

  test("the storage view is drawn with the dark palette: facts in two columns, tables with the theme's header and rules", async ({
    page,
  }) => {
    await page.goto("/settings/storage");
    await expect(page.getByRole("heading", { name: "Storage", level: 1 })).toBeVisible();
    const palette = await page.evaluate(() => {
      // Resolve a theme variable to the colour the browser computes for it.
      const probe = document.createElement("span");
      document.body.append(probe);
      const resolve = (name: string) => {
        probe.style.color = `var(${name})`;
        return getComputedStyle(probe).color;
      };
      const result = { surface2: resolve("--surface-2"), border: resolve("--border"), muted: resolve("--text-muted") };
      probe.remove();
      return result;
    });
    expect(palette.surface2, "the dark palette is in force").toBe("rgb(29, 34, 43)");

    // Database facts: a term column and a value column, terms in the muted text colour (not an indented browser list).
    const facts = page.locator("dl").filter({ hasText: "Oldest delivery" });
    expect(await facts.evaluate((dl) => getComputedStyle(dl).display)).toBe("grid");
    expect(
      await facts
        .locator("dt")
        .first()
        .evaluate((dt) => getComputedStyle(dt).color),
    ).toBe(palette.muted);
    expect(
      await facts
        .locator("dd")
        .first()
        .evaluate((dd) => getComputedStyle(dd).marginLeft),
    ).toBe("0px");

    // Rows per table: the theme's header shade, a rule under each row, padded cells, counts right-aligned.
    const table = page.getByRole("table", { name: "Rows per table" });
    const header = table.getByRole("columnheader", { name: "Table" });
    expect(await header.evaluate((th) => getComputedStyle(th).backgroundColor)).toBe(palette.surface2);
    const cell = table.getByTestId("rows-ToolResult");
    const style = await cell.evaluate((td) => {
      const computed = getComputedStyle(td);
      return {
        border: computed.borderBottomColor,
        borderWidth: computed.borderBottomWidth,
        padding: computed.paddingLeft,
        align: computed.textAlign,
      };
    });
    expect(style).toEqual({ border: palette.border, borderWidth: "1px", padding: "12px", align: "right" });
    await page.screenshot({ path: "test-results/screenshots/storage-dark.png", fullPage: true });
  });
});
