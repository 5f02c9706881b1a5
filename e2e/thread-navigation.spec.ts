// Moving around a big thread without loading it: next / previous error, pending and low confidence from the
// keyboard (no row focused first), go to a step or a call id, search and "show only", the waterfall, and the
// header counts updating live. Seeded through the public API only.
import { expect, test, type APIRequestContext } from "@playwright/test";
import type { TraceEvent } from "../lib/events/schemas.ts";
import { postEventBatches, postResults, registerCall, uniqueGroup, type ToolResultInput } from "./support/seed.ts";
import { keysReady } from "./support/keys.ts";

const TOTAL = 3000;
// The current row is the one with tabindex 0 (a roving tabindex: keys work from the document, no DOM focus needed);
// once a key or a jump has moved it, DOM focus is on it too, also after its window was replaced (use-row-focus.ts).
const key = (i: number) => `call_${i}`;
const envelope = (success: boolean, confidence: number) =>
  JSON.stringify({
    success,
    data: { ok: success },
    confidence,
    nextAction: "continue",
    error: success ? null : { type: "upstream", message: "503" },
  });

async function seedBigThread(request: APIRequestContext, group: string): Promise<void> {
  const events: TraceEvent[] = [{ type: "message", group_id: group, role: "user", text: "Check every city." }];
  for (let i = 0; i < TOTAL; i += 1) {
    events.push({
      type: "tool_call",
      group_id: group,
      id: key(i),
      name: i % 3 === 0 ? "search_docs" : "get_weather",
      arguments: JSON.stringify({ city: `city-${i}` }),
      step: Math.floor(i / 4),
    });
  }
  await postEventBatches(request, events);
  // Every call answered except call_2001 (pending); call_1500 and call_2700 fail; call_2500 has confidence 0.2.
  const results: ToolResultInput[] = [];
  for (let i = 0; i < TOTAL; i += 1) {
    if (i === 2001) continue;
    results.push({ group_id: group, id: key(i), text: envelope(i !== 1500 && i !== 2700, i === 2500 ? 0.2 : 0.9) });
  }
  await postResults(request, results);
}

test("a 3,000-call thread: keys jump to errors, pending and low confidence; go to a step or a call; search and filter; waterfall; live counts", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const group = uniqueGroup("e2e-nav");
  await seedBigThread(request, group);
  await page.goto(`/threads/${encodeURIComponent(group)}`);
  const feed = page.getByRole("feed", { name: "Thread timeline" });
  await expect(feed.getByRole("article").filter({ hasText: key(0) })).toBeVisible();
  const row = (i: number) => feed.getByRole("article").filter({ has: page.getByText(key(i), { exact: true }) });
  // Keys go to the document: wait until the timeline has hydrated and listens.
  await keysReady(page, "thread");

  // e / Shift+E from the document (nothing focused): the server finds the row, the page reads a window around it.
  await page.keyboard.press("e");
  await expect(row(1500)).toHaveAttribute("tabindex", "0");
  await expect(row(1500).locator("[data-status]")).toHaveText("errored");
  await page.keyboard.press("e");
  await expect(row(2700)).toHaveAttribute("tabindex", "0");
  await page.keyboard.press("Shift+E");
  await expect(row(1500)).toHaveAttribute("tabindex", "0");
  await page.keyboard.press("p");
  await expect(row(2001)).toHaveAttribute("tabindex", "0");
  await expect(row(2001).locator("[data-status]")).toHaveText("pending");
  await page.keyboard.press("c");
  await expect(row(2500)).toHaveAttribute("tabindex", "0");
  await page.keyboard.press("c");
  await expect(page.getByTestId("timeline-message")).toHaveText("No later low-confidence result.");
  // Only a window is ever loaded: never the whole thread.
  expect(await feed.getByRole("article").count()).toBeLessThan(120);

  // Go to: a step number (step 600 starts with call_2400), then a call id.
  await page.keyboard.press("g");
  await expect(page.getByTestId("thread-goto")).toBeFocused();
  await page.keyboard.type("600");
  await page.keyboard.press("Enter");
  await expect(row(2400)).toHaveAttribute("tabindex", "0");
  await page.getByTestId("thread-goto").fill(key(7));
  await page.getByTestId("thread-goto").press("Enter");
  await expect(row(7)).toHaveAttribute("tabindex", "0");
  // End reads the last window directly.
  await page.keyboard.press("End");
  await expect(row(TOTAL - 1)).toHaveAttribute("tabindex", "0");
  await expect(row(TOTAL - 1)).toBeFocused();
  await page.keyboard.press("k");
  await expect(row(TOTAL - 2)).toHaveAttribute("tabindex", "0");
  await expect(row(TOTAL - 2)).toBeFocused();
  await page.keyboard.press("k");
  await expect(row(TOTAL - 3)).toBeFocused();

  // Search in the thread (arguments, results, tool names) and "show only".
  await page.keyboard.press("/");
  await expect(page.getByTestId("thread-search")).toBeFocused();
  await page.keyboard.type("city-2222");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("thread-matches")).toHaveText("1 match");
  await expect(feed.getByRole("article")).toHaveCount(1);
  await expect(row(2222)).toBeVisible();
  await page.getByTestId("thread-search").fill("");
  await page.getByTestId("thread-search").press("Enter");
  // Picked at once, before the cleared search has landed: the newest choice wins, whichever read returns last.
  await page.getByTestId("thread-only").selectOption("errors");
  await expect(page.getByTestId("thread-matches")).toHaveText("2 matches");
  await expect(feed.getByRole("article")).toHaveCount(2);
  await page.getByTestId("thread-only").selectOption("low_confidence");
  await expect(page.getByTestId("thread-matches")).toHaveText("1 match");
  await expect(row(2500)).toBeVisible();
  await page.getByRole("button", { name: "Clear" }).click();
  await expect(feed.getByRole("article").filter({ hasText: key(0) })).toBeVisible();

  // The waterfall: one line per call with its start offset and duration; parallel calls carry their step.
  await page.keyboard.press("w");
  const waterfall = page.getByRole("list", { name: "Waterfall of calls" });
  await expect(waterfall).toBeVisible();
  const first = waterfall.getByRole("listitem").first();
  await expect(first).toHaveAttribute("aria-label", /search_docs call_0: starts at \+0 ms, took/);
  await expect(first).toContainText("s0");
  expect(await waterfall.getByRole("listitem").count()).toBeLessThan(120);
  await page.screenshot({ path: "test-results/screenshots/thread-waterfall.png" });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "test-results/screenshots/thread-waterfall-390.png" });
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.keyboard.press("w");

  // The header counts follow the database without a reload.
  const figures = page.getByTestId("thread-figures");
  await expect(figures).toContainText("3,000 calls");
  await expect(figures).toContainText("1 pending");
  await registerCall(request, { group_id: group, id: "late_call", name: "deploy", step: 9999 });
  await expect(figures).toContainText("3,001 calls", { timeout: 5000 });
  await expect(figures).toContainText("2 pending");
});

test("a link to a call opens the thread around it", async ({ page, request }) => {
  const group = uniqueGroup("e2e-deeplink");
  const events: TraceEvent[] = [];
  for (let i = 0; i < 1200; i += 1)
    events.push({ type: "tool_call", group_id: group, id: key(i), name: "lookup", arguments: { i }, step: i });
  await postEventBatches(request, events);
  await page.goto(`/threads/${encodeURIComponent(group)}?call=${key(1111)}`);
  const feed = page.getByRole("feed", { name: "Thread timeline" });
  const target = feed.getByRole("article").filter({ has: page.getByText(key(1111), { exact: true }) });
  await expect(target).toHaveClass(/tl-focused/);
  await expect(target).toBeInViewport();
  await keysReady(page, "thread");
  await page.keyboard.press("j");
  await expect(feed.getByRole("article").filter({ has: page.getByText(key(1112), { exact: true }) })).toHaveAttribute(
    "tabindex",
    "0",
  );
  await page.goto(`/threads/${encodeURIComponent(group)}?step=700`);
  const step700 = feed.getByRole("article").filter({ has: page.getByText(key(700), { exact: true }) });
  await expect(step700).toHaveClass(/tl-focused/);
  await expect(step700).toBeInViewport();
});

test("the waterfall tells a timed-out call from an errored one by colour and by a word, wide and at 390 px", async ({
  page,
  request,
}) => {
  const group = uniqueGroup("e2e-wf-timeout");
  await registerCall(request, {
    group_id: group,
    id: "slow",
    name: "check_visa_requirements",
    timeout_ms: 300,
    step: 0,
  });
  await registerCall(request, { group_id: group, id: "broken", name: "deploy", step: 0 });
  await registerCall(request, { group_id: group, id: "fine", name: "lookup", step: 0 });
  await postResults(request, [
    { group_id: group, id: "broken", text: "Error: permission denied" },
    { group_id: group, id: "fine", text: "ok" },
  ]);
  // The deadline sweeper marks the call timed out.
  await expect(async () =>
    expect(
      (await (await request.get(`/api/calls?thread=${encodeURIComponent(group)}&status=timed_out`)).json()).items,
    ).toHaveLength(1),
  ).toPass();

  await page.goto(`/threads/${encodeURIComponent(group)}`);
  await keysReady(page, "thread");
  await page.keyboard.press("w");
  const waterfall = page.getByRole("list", { name: "Waterfall of calls" });
  const line = (tool: string) => waterfall.getByRole("listitem").filter({ hasText: tool });
  await expect(line("check_visa")).toHaveAttribute(
    "aria-label",
    /check_visa_requirements slow: starts at \+\d+ ms, timed out after/,
  );
  await expect(line("deploy")).toHaveAttribute("aria-label", /deploy broken: .*, errored after/);
  await expect(line("check_visa").getByTestId("waterfall-outcome")).toHaveText("timed out");
  await expect(line("deploy").getByTestId("waterfall-outcome")).toHaveText("errored");
  await expect(line("lookup").getByTestId("waterfall-outcome")).toHaveCount(0);
  const colour = (tool: string) =>
    line(tool)
      .locator(".wf-bar")
      .evaluate((bar) => getComputedStyle(bar).backgroundColor);
  const [timedOut, errored, finished] = [await colour("check_visa"), await colour("deploy"), await colour("lookup")];
  expect(
    new Set([timedOut, errored, finished]).size,
    `timed out ${timedOut}, errored ${errored}, finished ${finished}`,
  ).toBe(3);

  // At 390 px the figures give way to the track; the word stays.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(line("check_visa").getByTestId("waterfall-outcome")).toBeVisible();
  await expect(line("check_visa").getByTestId("waterfall-outcome")).toBeInViewport();
  // …and a name is not cut to a few letters: it gets its own row above the bar (one column left ~8 letters),
  // the lines measured so that none overlaps the next.
  await expect(async () => {
    expect(
      await line("check_visa")
        .locator(".wf-name")
        .evaluate((name) => name.scrollWidth <= name.clientWidth),
    ).toBe(true);
    const boxes = await waterfall.getByRole("listitem").evaluateAll((items) =>
      items
        .map((item) => item.getBoundingClientRect())
        .sort((a, b) => a.top - b.top)
        .map((box) => [box.top, box.bottom]),
    );
    expect(boxes).toHaveLength(3);
    for (let index = 1; index < boxes.length; index += 1)
      expect(boxes[index]?.[0] ?? 0).toBeGreaterThanOrEqual((boxes[index - 1]?.[1] ?? 0) - 1);
  }).toPass();
});
