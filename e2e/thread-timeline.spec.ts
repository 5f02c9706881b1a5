// The thread timeline: events in order, a parallel batch, results paired with their calls, keyboard
// navigation, live updates without a reload, and a 10,000-call thread that opens, jumps to its end and scrolls up.
import { expect, test } from "@playwright/test";
import type { TraceEvent } from "../lib/events/schemas.ts";
import {
  postEvent,
  postEventBatches,
  postResult,
  postResults,
  registerCall,
  uniqueGroup,
  type ToolResultInput,
} from "./support/seed.ts";
import { keysReady } from "./support/keys.ts";

const threadUrl = (groupId: string) => `/threads/${encodeURIComponent(groupId)}`;

test("timeline shows a parallel batch, pairs results with calls and updates live", async ({ page, request }) => {
  const group = uniqueGroup("e2e-timeline");
  await postEvent(request, {
    type: "message",
    group_id: group,
    role: "user",
    text: "Weather in Paris, Tokyo and Oslo?",
  });
  for (const [id, city] of [
    ["w1", "Paris"],
    ["w2", "Tokyo"],
    ["w3", "Oslo"],
  ] as const) {
    await registerCall(request, {
      group_id: group,
      id,
      name: "get_weather",
      arguments: JSON.stringify({ city }),
      step: 1,
    });
  }
  await registerCall(request, {
    group_id: group,
    id: "e1",
    name: "edit_file",
    arguments: { path: "src/main.rs" },
    step: 2,
  });
  await postResult(request, {
    group_id: group,
    id: "w1",
    text: "21°C and sunny",
    display_as: [{ type: "text", content: "Paris: 21°C, sunny" }],
  });

  await page.goto(threadUrl(group));
  const feed = page.getByRole("feed", { name: "Thread timeline" });
  await expect(feed).toBeVisible();
  const batch = feed.getByRole("article", { name: /Parallel batch: step 1, 3 calls/ });
  await expect(batch).toContainText("3 parallel calls");
  const paris = feed.getByRole("article").filter({ hasText: "w1" });
  await expect(paris).toContainText("get_weather");
  await expect(paris).toContainText('{"city":"Paris"}');
  await expect(paris.getByTestId("call-result-preview")).toHaveText("Paris: 21°C, sunny");
  await expect(paris.locator("[data-status]")).toHaveText("completed");
  const tokyo = feed.getByRole("article").filter({ hasText: "w2" });
  await expect(tokyo.locator("[data-status]")).toHaveText("pending");
  await expect(tokyo).toContainText("waiting");
  await expect(page.getByTestId("timeline-status")).toContainText("Live");
  await page.screenshot({ path: "test-results/screenshots/thread.png", fullPage: true });

  // A result arriving while the page is open appears on its call's row, without a reload.
  const arrived = Date.now();
  await postResult(request, { group_id: group, id: "w2", text: "Error: rate limited, retry in 60 s" });
  await expect(tokyo.locator("[data-status]")).toHaveText("errored", { timeout: 4000 });
  expect(Date.now() - arrived).toBeLessThan(4000);
  await expect(tokyo.getByTestId("call-result-preview")).toContainText("rate limited");
  // So does a new event, at the end (the reader is following the end of this short thread).
  await postEvent(request, { type: "output_text", group_id: group, text: "Paris is sunny; Tokyo is rate limited." });
  await expect(feed.getByRole("article").filter({ hasText: "Paris is sunny; Tokyo is rate limited." })).toBeVisible({
    timeout: 4000,
  });

  // Keyboard: j/k move the focused row, x expands it (arguments load on demand), Enter opens the call.
  await keysReady(page, "thread");
  await feed
    .getByRole("article")
    .first()
    .click({ position: { x: 20, y: 10 } });
  await expect(feed.getByRole("article").first()).toBeFocused();
  await page.keyboard.press("j");
  await expect(batch).toBeFocused();
  await page.keyboard.press("j");
  await expect(paris).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(tokyo).toBeFocused();
  await page.keyboard.press("k");
  await expect(paris).toBeFocused();
  await page.keyboard.press("x");
  await expect(paris.getByTestId("call-row-details")).toContainText('"city": "Paris"');
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/calls\/\d+$/);
  await expect(page.getByRole("heading", { name: "get_weather", level: 1 })).toBeVisible();
});

test("a 10,000-call thread opens, jumps to its last call, reads older windows and stays virtualized", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const group = uniqueGroup("e2e-10k");
  const total = 10_000;
  const key = (i: number) => `call_${String(i).padStart(5, "0")}`;
  const events: TraceEvent[] = [];
  for (let i = 0; i < total; i += 1) {
    events.push({
      type: "tool_call",
      group_id: group,
      id: key(i),
      name: i % 3 === 0 ? "search_docs" : "get_weather",
      arguments: JSON.stringify({ i }),
      step: Math.floor(i / 4),
    });
  }
  await postEventBatches(request, events);
  const results: ToolResultInput[] = [];
  for (let i = 0; i < total; i += 5) results.push({ group_id: group, id: key(i), text: `result ${i}` });
  results.push({ group_id: group, id: key(total - 1), text: "the very last result" });
  await postResults(request, results);

  const opened = Date.now();
  await page.goto(threadUrl(group));
  const feed = page.getByRole("feed", { name: "Thread timeline" });
  await expect(feed.getByRole("article").filter({ hasText: key(0) })).toBeVisible();
  const openMs = Date.now() - opened;
  await expect(page.getByLabel("Thread figures")).toContainText(`${total.toLocaleString("en-US")} calls`);
  // Keys pressed before the thread's key scope is registered would be lost: wait for the layer's marker.
  await keysReady(page, "thread");

  // End reads the last window directly (no load-everything path); the last call is focused.
  const last = feed.getByRole("article").filter({ hasText: key(total - 1) });
  await page.keyboard.press("End");
  await expect(last).toBeFocused();
  await expect(last.getByTestId("call-result-preview")).toHaveText("the very last result");
  // Only a screenful of rows is in the DOM, whatever the thread's length.
  expect(await feed.getByRole("article").count()).toBeLessThan(120);
  // Scrolling up from there reads older windows in place.
  const older = feed.getByRole("article").filter({ hasText: key(total - 700) });
  await expect(async () => {
    await feed.evaluate((element) => element.scrollBy({ top: -4000 }));
    await expect(older).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 60_000 });
  await page.keyboard.press("End");
  await expect(page.getByTestId("timeline-status")).toContainText("Live");
  await expect(last).toBeFocused();
  await page.keyboard.press("k");
  await expect(feed.getByRole("article").filter({ hasText: key(total - 2) })).toBeFocused();
  await page.screenshot({ path: "test-results/screenshots/thread-10k.png" });
  test.info().annotations.push({ type: "open-ms", description: String(openMs) });
});
