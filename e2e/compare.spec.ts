// Compare a run and its re-run: both imported through the public API, compared on /compare.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import type { TraceEvent } from "../lib/events/schemas.ts";
import { postEventBatches, uniqueGroup } from "./support/seed.ts";

const FIXTURES = path.join(import.meta.dirname, "fixtures");

test("compares two threads: calls aligned by tool, argument and result diffs", async ({ page, request }) => {
  const suffix = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const run = `e2e-run-${suffix}`;
  const rerun = `e2e-rerun-${suffix}`;
  for (const [groupId, file] of [
    [run, "openai-chat-run.json"],
    [rerun, "openai-chat-rerun.json"],
  ] as const) {
    const response = await request.post(`/api/import?group_id=${groupId}`, {
      headers: { "content-type": "application/json" },
      data: fs.readFileSync(path.join(FIXTURES, file), "utf8"),
    });
    expect(response.status(), await response.text()).toBe(201);
    expect(await response.json()).toMatchObject({ group_id: groupId, format: "openai-chat", created: true });
  }

  await page.goto("/compare");
  await expect(page.getByRole("heading", { name: "Compare threads" })).toBeVisible();
  await page.getByLabel("Thread A (e.g. the run)").fill(run);
  await page.getByLabel("Thread B (e.g. the re-run)").fill(rerun);
  await page.getByRole("button", { name: "Compare" }).click();
  await expect(page).toHaveURL(new RegExp(`/compare\\?a=${run}&b=${rerun}`));

  await expect(page.getByTestId("compare-summary")).toContainText(
    "2 aligned · 2 with different arguments · 1 with different results · 0 only in A · 1 only in B",
  );
  const rows = page.getByTestId("compare-row");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText("search_flights");
  await expect(rows.nth(0)).toContainText("differs");
  await expect(rows.nth(1)).toContainText("only in B");
  await expect(rows.nth(1)).toContainText("get_exchange_rate");
  await expect(rows.nth(2)).toContainText("book_flight");

  // The arguments diff: JSON compared pretty-printed, so one changed field is one changed line.
  const argumentsDiff = rows.nth(0).getByRole("group", { name: "Arguments diff" });
  await expect(argumentsDiff.locator(".diff-code-delete")).toHaveText(['  "to": "HND",']);
  await expect(argumentsDiff.locator(".diff-code-insert")).toHaveText(['  "to": "NRT",']);
  // The last call's result is the same on both sides; only its arguments differ.
  await expect(rows.nth(2).locator(".compare-section").nth(1)).toContainText("identical");
  await page.screenshot({ path: "test-results/screenshots/compare.png", fullPage: true });

  await page.goto(`/compare?a=${run}&b=${run}-nope`);
  await expect(page.getByTestId("compare-error")).toContainText(`No thread "${run}-nope"`);
});

test("compare says what it left out at scale, shows only differences on request, and diffs the text answers", async ({
  page,
  request,
}) => {
  const a = uniqueGroup("e2e-cmp-big");
  const b = uniqueGroup("e2e-cmp-small");
  const calls = (group: string, count: number): TraceEvent[] =>
    Array.from({ length: count }, (_, i) => ({
      type: "tool_call" as const,
      group_id: group,
      id: `call_${i}`,
      name: "lookup",
      arguments: JSON.stringify({ i }),
    }));
  await postEventBatches(request, [...calls(a, 1005), { type: "output_text", group_id: a, text: "The answer is 42." }]);
  await postEventBatches(request, [...calls(b, 1002), { type: "output_text", group_id: b, text: "The answer is 41." }]);
  await page.goto(`/compare?a=${a}&b=${b}`);
  const summary = page.getByTestId("compare-summary");
  // Only the first 1,000 calls of each side are compared: said, not reported as "never diverge".
  await expect(summary).toContainText("Of the first 1,000 calls of each side:");
  await expect(page.getByTestId("compare-divergence")).toContainText(
    "No divergence in the first 1,000 calls of each side; the other 5 calls of A and 2 of B were not compared.",
  );
  await expect(page.getByTestId("compare-divergence")).not.toContainText("never diverge");
  // The model's final answers differ, and the page shows how.
  const answers = page.getByTestId("compare-answers");
  await expect(answers).toContainText("A: 1 · B: 1");
  await expect(answers.getByRole("group", { name: "Difference in the model's text answers" })).toContainText(
    "The answer is 41.",
  );
  // 1,000 identical rows, then "only differences": none left, and the page says so.
  await expect(page.getByTestId("compare-row")).toHaveCount(1000);
  await page.getByTestId("compare-only-differences").click();
  await expect(page).toHaveURL(/[?&]show=differences/);
  await expect(page.getByTestId("compare-row")).toHaveCount(0);
  await expect(page.getByText("No differences among the compared calls.")).toBeVisible();
  await page.getByTestId("compare-only-differences").click();
  await expect(page.getByTestId("compare-row")).toHaveCount(1000);
});
