// Views that must hold at scale: replay sends only the chosen step (and opens in the thread's own encoding),
// a 400-hunk diff stays virtualized with a hunk navigator, and a timed-out call stays on the pending page.
import { expect, test } from "@playwright/test";
import type { TraceEvent } from "../lib/events/schemas.ts";
import {
  findCallRowId,
  postEventBatches,
  postResult,
  postResults,
  registerCall,
  uniqueGroup,
  type ToolResultInput,
} from "./support/seed.ts";
import { keysReady } from "./support/keys.ts";

test("replay of a 2,000-call thread: the page carries one step, steps by key and keeps the step in the URL", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const group = uniqueGroup("e2e-replay-big");
  // The first event names the vendor: it becomes the thread's, and the replay's default encoding.
  const events: TraceEvent[] = [];
  for (let i = 0; i < 2000; i += 1)
    events.push({
      type: "tool_call",
      group_id: group,
      id: `call_${i}`,
      name: "lookup",
      arguments: { i, pad: "x".repeat(400) },
      step: i,
      vendor: "openai-responses",
    });
  await postEventBatches(request, events);
  const results: ToolResultInput[] = [];
  for (let i = 0; i < 2000; i += 1)
    results.push({ group_id: group, id: `call_${i}`, text: `result ${i} ${"y".repeat(400)}` });
  await postResults(request, results);

  const url = `/threads/${encodeURIComponent(group)}/replay`;
  // The whole history is ~2 MB of JSON; the page at its last step stays far below that.
  const last = await request.get(url);
  expect(last.status()).toBe(200);
  expect((await last.body()).length).toBeLessThan(1024 * 1024);

  await page.goto(`${url}?step=5`);
  await expect(page.getByTestId("replay-position")).toHaveText("Step 5 of 4000 · 5 pending");
  // Calls from the OpenAI Responses API replay in that encoding unless the URL says otherwise.
  await expect(page.getByTestId("replay-vendor")).toHaveValue("openai-responses");
  await expect(page.getByTestId("replay-json")).toContainText('"input": [');
  await keysReady(page, "replay");
  await page.getByRole("heading", { name: "Timeline" }).click();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("replay-position")).toHaveText("Step 6 of 4000 · 6 pending");
  await expect(page).toHaveURL(/step=6/);
  await expect(page.getByTestId("replay-json")).toContainText("call_5");
  await page.keyboard.press("End");
  await expect(page.getByTestId("replay-position")).toHaveText("Step 4000 of 4000");
  await expect(page.getByTestId("replay-json")).toContainText("result 1999");
  // All 2,000 calls were asked for in one turn: the request is rendered from the window on, with the calls its
  // results answer (and the opening call), and the page says how many of that turn's calls it leaves out.
  await expect(page.getByText(/Showing the last 60 input \(rendered from event 3,521 on/)).toBeVisible();
  await expect(page.getByTestId("replay-partial-turn")).toContainText(
    "asked for 2,000 tool calls: 1,519 tool calls of that turn are not shown",
  );
  await expect(page.getByTestId("replay-partial-turn")).toContainText(
    "The request holds the other 481: those its results answer and those from event 3,521 on.",
  );
  // The step list holds the events around the step, not all 4,000.
  expect(await page.getByTestId("replay-events").getByRole("listitem").count()).toBeLessThan(250);
  await page.screenshot({ path: "test-results/screenshots/replay-big.png" });
});

function multiHunk(hunks: number, perHunk: number): string {
  const out = ["--- a/src/big.ts", "+++ b/src/big.ts"];
  for (let h = 0; h < hunks; h += 1) {
    out.push(`@@ -${h * 100 + 1},${perHunk / 2} +${h * 100 + 1},${perHunk / 2} @@ function block${h}()`);
    for (let i = 0; i < perHunk; i += 1)
      out.push(i % 2 === 0 ? `-  const v${h}_${i} = old(${i});` : `+  const v${h}_${i} = next(${i}, cache);`);
  }
  return `${out.join("\n")}\n`;
}

test("a 400-hunk, 20,000-line diff: bounded DOM, hunk navigator, Unified and Split", async ({ page, request }) => {
  const group = uniqueGroup("e2e-diff-400");
  await registerCall(request, { group_id: group, id: "edit", name: "apply_patch", arguments: { path: "src/big.ts" } });
  const patch = multiHunk(400, 50);
  await postResult(request, {
    group_id: group,
    id: "edit",
    text: patch,
    display_as: [{ type: "diff", content: { path: "src/big.ts", patch } }],
  });
  await page.goto(`/calls/${await findCallRowId(request, group, "edit")}`);
  const diff = page.getByTestId("diff-viewer");
  await expect(diff).toContainText("400 hunks");
  const navigator = diff.getByTestId("diff-navigator");
  await expect(navigator).toBeVisible();
  await expect(diff.getByTestId("diff-hunk").first()).toContainText("function block0()");
  const nodes = () => page.evaluate(() => document.getElementsByTagName("*").length);
  expect(await nodes()).toBeLessThan(5000);

  await navigator.getByLabel("Go to hunk").selectOption({ index: 299 });
  await expect(diff.getByTestId("diff-hunk").filter({ hasText: "function block299()" })).toBeInViewport();
  // ] and [ work from the page (not from inside the picker, which keeps its own keys).
  await page.evaluate(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement.blur() : undefined,
  );
  await keysReady(page, "diff");
  await page.keyboard.press("]");
  await expect(diff.getByTestId("diff-hunk").filter({ hasText: "function block300()" })).toBeInViewport();
  // (Clicking Split scrolls the page up to the toolbar; the navigator brings the hunk back.)
  await diff.getByRole("button", { name: "Split" }).click();
  await expect(diff.locator("table.diff-split").first()).toBeVisible();
  await navigator.getByLabel("Go to hunk").selectOption({ index: 300 });
  await expect(diff.locator("td.diff-code-insert").filter({ hasText: "const v300_1 = next(1, cache);" })).toBeVisible();
  expect(await nodes()).toBeLessThan(5000);
  await page.screenshot({ path: "test-results/screenshots/diff-400-split.png" });
});

test("a call that times out stays on the pending page, marked timed out", async ({ page, request }) => {
  const group = uniqueGroup("e2e-timeout");
  await registerCall(request, { group_id: group, id: "slow", name: "slow_tool", timeout_ms: 1000 });
  // Newest first: the page lists 500 calls, and the specs before this one leave more than that pending.
  await page.goto("/pending?sort=newest");
  await expect(page.getByTestId("pending-calls").locator('[data-call-key="slow"]')).toBeVisible();
  const timedOut = page.getByTestId("pending-timed-out").locator('[data-call-key="slow"]');
  await expect(timedOut).toBeVisible({ timeout: 15_000 });
  await expect(timedOut.locator("[data-status]")).toHaveText("timed out");
});
