// Sharing and copying what is on screen: the thread page writes its search, filter and the reader's row into the
// address (a reload or a shared link opens the same view); the call page copies ids and arguments in one click,
// shows a multi-line string argument (a patch) as text, as a diff on request, and the arguments as a tree.
import { expect, test } from "@playwright/test";
import type { TraceEvent } from "../lib/events/schemas.ts";
import { keysReady } from "./support/keys.ts";
import { findCallRowId, postEventBatches, postResults, uniqueGroup } from "./support/seed.ts";

const key = (i: number) => `call_${i}`;

test("the thread page writes ?q=, ?only= and ?call= to the address, and a reload opens the same view", async ({
  page,
  request,
}) => {
  const group = uniqueGroup("e2e-share");
  const events: TraceEvent[] = [];
  for (let i = 0; i < 40; i += 1)
    events.push({ type: "tool_call", group_id: group, id: key(i), name: "lookup", arguments: { city: `city-${i}` } });
  await postEventBatches(request, events);
  await postResults(request, [{ group_id: group, id: key(12), text: "Error: upstream 503" }]);
  const threadPath = `/threads/${encodeURIComponent(group)}`;
  await page.goto(threadPath);
  const feed = page.getByRole("feed", { name: "Thread timeline" });
  const row = (i: number) => feed.getByRole("article").filter({ has: page.getByText(key(i), { exact: true }) });
  await expect(row(0)).toBeVisible();
  await keysReady(page, "thread");

  // Search: the address says so.
  await page.getByTestId("thread-search").fill("city-3");
  await page.getByTestId("thread-search").press("Enter");
  await expect(page.getByTestId("thread-matches")).toHaveText(/match/);
  await expect(page).toHaveURL(/[?&]q=city-3(&|$)/);
  // Show only errors (the search cleared): ?only= replaces ?q=.
  await page.getByTestId("thread-search").fill("");
  await page.getByTestId("thread-search").press("Enter");
  await expect(page).not.toHaveURL(/[?&]q=/);
  await page.getByTestId("thread-only").selectOption("errors");
  await expect(page.getByTestId("thread-matches")).toHaveText("1 match");
  await expect(page).toHaveURL(/[?&]only=errors(&|$)/);
  await page.reload();
  await expect(page.getByTestId("thread-only")).toHaveValue("errors");
  await expect(feed.getByRole("article")).toHaveCount(1);
  await expect(row(12)).toBeVisible();

  // The reader's row: j moves it, the address names the call; a reload opens there.
  await page.getByRole("button", { name: "Clear" }).click();
  await expect(page).not.toHaveURL(/[?&]only=/);
  await expect(row(0)).toBeVisible();
  await keysReady(page, "thread");
  await page.keyboard.press("j");
  await expect(row(1)).toHaveAttribute("tabindex", "0");
  await expect(page).toHaveURL(new RegExp(`[?&]call=${key(1)}(&|$)`));
  await page.reload();
  await expect(row(1)).toHaveClass(/tl-focused/);
});

test("the call page copies ids and arguments, shows a patch argument as text or as a diff, and a JSON tree", async ({
  page,
  request,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const group = uniqueGroup("e2e-copy");
  const patch = [
    "--- a/src/main.rs",
    "+++ b/src/main.rs",
    "@@ -1,3 +1,3 @@",
    " fn main() {",
    '-    println!("bye");',
    '+    println!("hello");',
    " }",
  ].join("\n");
  const args = JSON.stringify({ path: "src/main.rs", patch, options: { dry_run: false } });
  await postEventBatches(request, [
    { type: "tool_call", group_id: group, id: "edit_1", call_id: "toolu_edit_1", name: "apply_patch", arguments: args },
  ]);
  await page.goto(`/calls/${await findCallRowId(request, group, "edit_1")}`);
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

  await page.getByRole("button", { name: "Copy id", exact: true }).click();
  await expect.poll(clipboard).toBe("edit_1");
  await page.getByRole("button", { name: "Copy call_id" }).click();
  await expect.poll(clipboard).toBe("toolu_edit_1");
  await page.getByRole("button", { name: "Copy arguments" }).click();
  await expect.poll(clipboard).toBe(args);

  // The patch inside the arguments reads as lines of text, not one escaped JSON string.
  const text = page.getByRole("region", { name: "Arguments: patch" });
  await expect(text.locator("pre")).toHaveText(patch);
  await expect(text).toContainText("7 lines");
  await text.getByRole("button", { name: "Copy patch" }).click();
  await expect.poll(clipboard).toBe(patch);
  await text.getByRole("button", { name: "View as diff" }).click();
  await expect(text.getByTestId("diff-viewer")).toBeVisible();
  await expect(text.getByTestId("diff-viewer")).toContainText('println!("hello");');

  // The arguments as a collapsible tree.
  await page.getByRole("button", { name: "Tree" }).click();
  const tree = page.getByRole("list", { name: "Arguments (tree)" });
  await expect(tree).toBeVisible();
  await expect(tree).toContainText("dry_run");
});
