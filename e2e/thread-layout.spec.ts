// The thread page has one scroller (issue: "the thread page scrolls twice"): the document is never taller than the
// viewport, so the last row after "Jump to end" and the "↓ N new" button are on screen — asserted as geometry,
// wide (1280×800) and on a phone held upright (390×844).
import { expect, test, type Locator, type Page } from "@playwright/test";
import type { TraceEvent } from "../lib/events/schemas.ts";
import { keysReady } from "./support/keys.ts";
import { postEvent, postEventBatches, uniqueGroup } from "./support/seed.ts";

const CALLS = 60;
const key = (i: number) => `call_${String(i).padStart(3, "0")}`;

/** How far the document overflows the viewport (0: one scroller). */
const documentOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);

async function expectInsideViewport(page: Page, locator: Locator, what: string): Promise<void> {
  const box = await locator.boundingBox();
  const height = page.viewportSize()?.height ?? 0;
  expect(box, `${what} is rendered`).not.toBeNull();
  expect(box?.y ?? -1, `${what} starts inside the viewport`).toBeGreaterThanOrEqual(0);
  expect((box?.y ?? 0) + (box?.height ?? 0), `${what} ends inside the viewport (${height} px)`).toBeLessThanOrEqual(
    height,
  );
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`one scroller at ${viewport.width}×${viewport.height}: the last row and the "new" button are on screen`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize(viewport);
    const group = uniqueGroup(`e2e-layout-${viewport.width}`);
    const events: TraceEvent[] = [{ type: "message", group_id: group, role: "user", text: "Look everything up." }];
    for (let i = 0; i < CALLS; i += 1)
      events.push({ type: "tool_call", group_id: group, id: key(i), name: "lookup", arguments: { i }, step: i });
    await postEventBatches(request, events);

    await page.goto(`/threads/${encodeURIComponent(group)}`);
    const feed = page.getByRole("feed", { name: "Thread timeline" });
    await expect(feed.getByRole("article").filter({ hasText: key(0) })).toBeVisible();
    await keysReady(page, "thread");
    expect(await documentOverflow(page), "the document is no taller than the viewport").toBeLessThanOrEqual(0);

    // Live rows arrive while the reader is at the top: the "↓ N new" button shows, inside the viewport.
    await postEvent(request, { type: "output_text", group_id: group, text: "All looked up." });
    const newRows = page.getByTestId("new-rows");
    await expect(newRows).toHaveText("↓ 1 new", { timeout: 5000 });
    await expectInsideViewport(page, newRows, 'the "↓ 1 new" button');
    expect(await documentOverflow(page)).toBeLessThanOrEqual(0);

    // Jump to end: the last call's row is on screen (not below an outer scroll).
    await page.getByRole("button", { name: "Jump to end" }).click();
    const last = feed.getByRole("article").filter({ hasText: key(CALLS - 1) });
    await expect(last).toBeVisible();
    await expect(last).toHaveAttribute("tabindex", "0");
    await expectInsideViewport(page, last, "the last row");
    expect(await documentOverflow(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `test-results/screenshots/thread-one-scroller-${viewport.width}.png` });
  });
}
