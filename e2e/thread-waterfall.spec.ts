// The waterfall when something is still open: finished calls keep their width (the scale ends where they end, the
// open bar is capped at the right edge and marked), a selection zooms, and the view and zoom live in the address.
import { expect, test, type Locator } from "@playwright/test";
import { keysReady } from "./support/keys.ts";
import { postResults, registerCall, uniqueGroup } from "./support/seed.ts";

/** A bar's width as a share of its track. */
const share = (line: Locator) =>
  line.locator(".wf-track").evaluate((track) => {
    const bar = track.querySelector(".wf-bar");
    return bar ? bar.getBoundingClientRect().width / track.getBoundingClientRect().width : 0;
  });

test("an open call no longer squashes finished ones; zoom by selection or by range; the mode is in the address", async ({
  page,
  request,
}) => {
  const group = uniqueGroup("e2e-wf-open");
  await registerCall(request, { group_id: group, id: "first", name: "fetch_page", step: 0 });
  await registerCall(request, { group_id: group, id: "second", name: "summarize", step: 1 });
  await postResults(request, [
    { group_id: group, id: "first", text: "page" },
    { group_id: group, id: "second", text: "summary" },
  ]);
  // Still running as the page opens, and for the whole test: the old scale ran to now, squashing the rest.
  await registerCall(request, { group_id: group, id: "open", name: "long_job", step: 2 });

  await page.goto(`/threads/${encodeURIComponent(group)}`);
  await keysReady(page, "thread");
  await page.keyboard.press("w");
  await expect(page).toHaveURL(/[?&]view=waterfall(&|$)/);
  const waterfall = page.getByRole("list", { name: "Waterfall of calls" });
  const line = (tool: string) => waterfall.getByRole("listitem").filter({ hasText: tool });
  await expect(line("long_job")).toBeVisible();
  // The first call ran until about when the open one started: most of the width, whatever time it is now.
  await expect.poll(() => share(line("fetch_page"))).toBeGreaterThan(0.25);
  await expect(line("long_job").getByTestId("waterfall-bar")).toHaveClass(/wf-past-end/);
  await expect(page.getByTestId("waterfall-scale")).toContainText("runs on past the right edge");

  // Zoom to a range with the fields (keyboard): the address keeps it, a reload shows the same.
  const zoomForm = page.getByRole("form", { name: "Zoom the waterfall" });
  await zoomForm.getByLabel("From (ms)").fill("0");
  await zoomForm.getByLabel("to (ms)").fill("1");
  await zoomForm.getByRole("button", { name: "Zoom" }).click();
  await expect(page).toHaveURL(/[?&]wf=0-1(&|$)/);
  await expect(page.getByTestId("waterfall-scale")).toContainText("shown: +0 ms to +1 ms");
  await page.reload();
  await expect(waterfall).toBeVisible();
  await expect(page.getByTestId("waterfall-scale")).toContainText("shown: +0 ms to +1 ms");
  await page.getByRole("button", { name: "Reset zoom" }).click();
  await expect(page).not.toHaveURL(/[?&]wf=/);

  // Zoom by dragging across the ruler: the right half of the scale.
  const ruler = page.getByTestId("waterfall-ruler");
  const box = await ruler.boundingBox();
  if (!box) throw new Error("the ruler is not rendered");
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2, { steps: 4 });
  await page.mouse.move(box.x + box.width * 0.99, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  await expect(page).toHaveURL(/[?&]wf=\d+-\d+(&|$)/);
  await expect(page.getByRole("button", { name: "Reset zoom" })).toBeVisible();

  // Back to rows: the address drops the view and the zoom.
  await keysReady(page, "thread");
  await page.locator("h1").click();
  await page.keyboard.press("w");
  await expect(page.getByRole("feed", { name: "Thread timeline" })).toBeVisible();
  await expect(page).not.toHaveURL(/[?&](view|wf)=/);
});
