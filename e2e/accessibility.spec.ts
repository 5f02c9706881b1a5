// Accessibility and the app frame against a production build: no serious or critical axe-core violation, and no
// skipped heading level, on any page in light or dark mode; not-found answers HTTP 404 and keeps the navigation; the favicon; a skip link; the
// `?` shortcuts dialog; and every page usable at 390 px (the navigation folds, nothing scrolls the page sideways).
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { SHORTCUTS } from "../components/layout/shortcuts.ts";
import { enqueueAnswers } from "./support/fake-provider.ts";
import { findCallRowId, postEvent, postResult, registerCall, uniqueGroup } from "./support/seed.ts";
import { keysReady } from "./support/keys.ts";

/**
 * Every page the audit visits, light and dark. `{group}` is a thread with ok, failed, low-confidence, diff and
 * pending calls; `{fork}` a fork of it; `{diffCall}` / `{okCall}` call row ids in it. Add new pages here.
 */
const PAGES = [
  "/",
  "/threads",
  "/threads?status=errored",
  "/threads/{group}",
  "/threads/{group}/replay",
  // An early step: the events after it are listed too, set apart (they once were by opacity, under 4.5:1).
  "/threads/{group}/replay?step=2",
  "/threads/{group}/forks/new?step=3",
  "/threads/{fork}/fork",
  "/calls/{diffCall}",
  "/calls/{okCall}",
  "/pending",
  "/subscriptions",
  "/deliveries",
  "/deliveries/outbox",
  "/held",
  "/approvals",
  "/breakpoints",
  "/faults",
  "/alerts",
  "/alerts/history",
  "/insights",
  "/import",
  "/compare",
  "/compare?a={group}&b={fork}",
  "/settings/models",
  "/calls",
  "/calls?status=errored&sort=slowest",
  "/settings/access",
  "/settings/access-log",
  "/settings/storage",
  "/setup",
  "/sign-in",
  "/no-such-page",
];

type Seeded = Record<"group" | "fork" | "diffCall" | "okCall", string>;
let seeded: Seeded | null = null;

const PATCH =
  '--- src/main.rs\n+++ src/main.rs\n@@ -1,4 +1,4 @@\n fn main() {\n-    println!("bye");\n+    println!("hello");\n     run();\n }\n';

async function seed(request: APIRequestContext): Promise<Seeded> {
  const group = uniqueGroup("e2e-a11y");
  await postEvent(request, { type: "message", group_id: group, role: "user", text: "Fix the greeting and deploy it." });
  await registerCall(request, {
    group_id: group,
    id: "edit",
    name: "edit_file",
    arguments: { path: "src/main.rs" },
    step: 0,
  });
  await postResult(request, {
    group_id: group,
    id: "edit",
    text: "Replaced 1 line",
    display_as: [{ type: "diff", content: { path: "src/main.rs", patch: PATCH } }],
  });
  await registerCall(request, { group_id: group, id: "ok", name: "search_docs", step: 1 });
  await postResult(request, {
    group_id: group,
    id: "ok",
    text: JSON.stringify({ success: true, data: { hits: 3 }, confidence: 0.92, nextAction: "continue", error: null }),
  });
  await registerCall(request, { group_id: group, id: "low", name: "lookup_order", step: 2 });
  await postResult(request, {
    group_id: group,
    id: "low",
    text: JSON.stringify({ success: true, data: null, confidence: 0.2, nextAction: "ask_user", error: null }),
  });
  await registerCall(request, { group_id: group, id: "deploy", name: "deploy", step: 3 });
  await postResult(request, { group_id: group, id: "deploy", text: "Error: permission denied for env prod" });
  await registerCall(request, { group_id: group, id: "wait", name: "long_job", step: 4, subscription: true });
  await postResult(request, { group_id: group, id: "ghost", text: "lost" }, { expectStatus: 404 });

  const fork = `${group}-fork`;
  await enqueueAnswers("e2e-chat", [{ text: "Deploying again with the right environment." }]);
  const forked = await request.post(`/api/threads/${encodeURIComponent(group)}/forks`, {
    data: { step: 3, model: "fake-chat", group_id: fork },
  });
  expect(forked.status(), await forked.text()).toBe(201);
  return {
    group,
    fork,
    diffCall: String(await findCallRowId(request, group, "edit")),
    okCall: String(await findCallRowId(request, group, "ok")),
  };
}

async function pages(request: APIRequestContext): Promise<Seeded> {
  seeded ??= await seed(request);
  return seeded;
}

function fill(template: string, values: Seeded): string {
  return template.replace(/\{(group|fork|diffCall|okCall)\}/g, (_, key: keyof Seeded) =>
    encodeURIComponent(values[key]),
  );
}

/**
 * Rules enforced whatever axe's impact says: a skipped heading level ("moderate") breaks navigating by headings,
 * the way screen-reader users skim a page, and left h1 → h3 on the comparison and h2 → h4 under spans.
 */
const ALWAYS_ENFORCED = new Set(["heading-order"]);

async function audit(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter(
      (violation) =>
        violation.impact === "serious" || violation.impact === "critical" || ALWAYS_ENFORCED.has(violation.id),
    )
    .flatMap((violation) =>
      violation.nodes.map(
        (node) =>
          `${violation.impact} ${violation.id}: ${violation.help} — ${node.target.join(" ")}\n    ${node.failureSummary ?? ""}`,
      ),
    );
}

for (const colorScheme of ["light", "dark"] as const) {
  test.describe(`axe, ${colorScheme} mode`, () => {
    test.use({ colorScheme });
    for (const template of PAGES) {
      test(`${template} has no serious or critical violations and skips no heading level`, async ({
        page,
        request,
      }) => {
        const url = fill(template, await pages(request));
        await page.goto(url);
        await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
        // Audit the settled page: loaded, and nothing still marked as loading (skeletons, windows being read).
        await page.waitForFunction(
          () => document.readyState === "complete" && document.querySelector('[aria-busy="true"]') === null,
        );
        expect(await audit(page), url).toEqual([]);
      });
    }
  });
}

test("a large collapsed hunk's button is named by its visible text (label in name)", async ({ page, request }) => {
  const group = uniqueGroup("e2e-a11y-hunk");
  const lines = ["--- a/big.ts", "+++ b/big.ts", "@@ -1,250 +1,250 @@"];
  for (let i = 0; i < 250; i += 1) lines.push(`-const v${i} = ${i};`, `+const v${i} = ${i * 2};`);
  await registerCall(request, { group_id: group, id: "big", name: "edit_file", arguments: { path: "big.ts" } });
  await postResult(request, {
    group_id: group,
    id: "big",
    text: "Edited big.ts",
    display_as: [{ type: "diff", content: { path: "big.ts", patch: lines.join("\n") } }],
  });
  await page.goto(`/calls/${await findCallRowId(request, group, "big")}`);
  // Voice control users say what they see: the button's name starts with its visible text.
  await expect(page.getByRole("button", { name: "Expand 500 lines" })).toBeVisible();
  expect(await audit(page)).toEqual([]);
});

test("an opened tool declaration keeps the heading levels (h2 Arguments, then h3 schemas)", async ({
  page,
  request,
}) => {
  const group = uniqueGroup("e2e-a11y-declaration");
  const declaration = {
    name: "get_weather",
    description: "Current weather",
    inputSchema: { type: "object", properties: { city: { type: "string" } } },
  };
  await registerCall(request, {
    group_id: group,
    id: "w",
    name: "get_weather",
    arguments: { city: "Paris" },
    declaration,
  });
  await postResult(request, { group_id: group, id: "w", text: "sunny" });
  await page.goto(`/calls/${await findCallRowId(request, group, "w")}`);
  await page.getByText("Tool declaration").click();
  await expect(page.getByRole("heading", { name: "inputSchema", level: 3 })).toBeVisible();
  expect(await audit(page)).toEqual([]);
});

test("tall JSON (deeply nested arguments) scrolls by keyboard", async ({ page, request }) => {
  const group = uniqueGroup("e2e-a11y-deep");
  let deep: Record<string, unknown> = { leaf: "bottom" };
  for (let i = 0; i < 30; i += 1) deep = { [`level${i}`]: deep, n: i };
  await registerCall(request, { group_id: group, id: "deep", name: "query_graph", arguments: deep });
  await postResult(request, { group_id: group, id: "deep", text: "ok" });
  await page.goto(`/calls/${await findCallRowId(request, group, "deep")}`);
  const args = page.getByLabel(/\(formatted JSON\)/);
  await expect(args).toBeVisible();
  expect(await args.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);
  expect(await args.getAttribute("tabindex")).toBe("0");
  expect(await audit(page)).toEqual([]);
});

test("the navigation marks exactly one link as the current page", async ({ page }) => {
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const [url, label] of [
    ["/settings/access-log", "Access log"],
    ["/settings/access", "Access"],
    ["/threads", "Threads"],
    ["/", "Overview"],
  ] as const) {
    await page.goto(url);
    await expect(nav.locator('[aria-current="page"]'), url).toHaveCount(1);
    await expect(nav.getByRole("link", { name: label, exact: true }), url).toHaveAttribute("aria-current", "page");
  }
});

test("not-found answers 404 and keeps the navigation", async ({ page, request }) => {
  for (const url of ["/threads/no-such-thread-e2e", "/calls/999999999", "/no/such/page"]) {
    const response = await page.goto(url);
    expect(response?.status(), url).toBe(404);
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    await expect(
      page
        .getByRole("heading", { level: 1, name: /not found|no such/i })
        .or(page.getByRole("heading", { level: 2, name: /not found|no such/i })),
    ).toBeVisible();
  }
  const api = await request.get("/no/such/page");
  expect(api.status()).toBe(404);
});

test("the favicon and static assets are served", async ({ request, page }) => {
  const icon = await request.get("/favicon.ico");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
  expect((await icon.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
  for (const asset of ["/icon.svg", "/apple-touch-icon.png", "/site.webmanifest", "/robots.txt"])
    expect((await request.get(asset)).status(), asset).toBe(200);
  await page.goto("/");
  await expect(page.locator('link[rel="icon"][href^="/favicon.ico"]')).toHaveCount(1);
});

test("the skip link is the first Tab stop and moves focus to the page", async ({ page }) => {
  await page.goto("/pending");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.locator("main#main")).toBeFocused();
  await page.keyboard.press("Tab");
  // The next stop is inside the page, past the header's links.
  expect(await page.evaluate(() => document.activeElement?.closest("main") !== null)).toBe(true);
});

test("? lists every shortcut; Escape closes it; g t goes to threads", async ({ page }) => {
  await page.goto("/");
  const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await keysReady(page, "global");
  await page.keyboard.press("?");
  await expect(dialog).toBeVisible();
  for (const shortcut of SHORTCUTS) await expect(dialog.getByText(shortcut.description, { exact: true })).toBeVisible();
  expect(await audit(page)).toEqual([]);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await page.keyboard.press("g");
  await page.keyboard.press("t");
  await expect(page).toHaveURL(/\/threads$/);
  // Typing in a field is typing, not a shortcut.
  await page.goto("/deliveries");
  const field = page.getByRole("textbox").first();
  if ((await field.count()) > 0) {
    await field.fill("?");
    await expect(dialog).toBeHidden();
  }
});

test.describe("at 390 px", () => {
  test.use({ viewport: { width: 390, height: 844 } });
  for (const template of PAGES) {
    test(`${template} fits and its navigation folds`, async ({ page, request }, testInfo) => {
      const url = fill(template, await pages(request));
      await page.goto(url);
      await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      await page.screenshot({ path: testInfo.outputPath("390.png"), fullPage: true });
      expect(overflow, `${url} scrolls sideways by ${overflow} px`).toBeLessThanOrEqual(0);
      // Wide tables scroll inside their card; any other card or panel that scrolls sideways hides its content.
      const scrolling = await page.evaluate(() =>
        Array.from(
          document.querySelectorAll(
            "main .card:not(.table-wrap):not(:has(> table)), main .panel:not(:has(> .table-wrap, > .table-scroll, > table))",
          ),
        )
          .filter((element) => element.scrollWidth > element.clientWidth + 1)
          .map((element) => `${element.className} (${element.scrollWidth - element.clientWidth} px)`),
      );
      expect(scrolling, `${url}: cards scrolling sideways`).toEqual([]);
      const menu = page.getByRole("button", { name: "Menu" });
      await expect(menu).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
      await menu.click();
      await expect(
        page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Deliveries" }),
      ).toBeVisible();
    });
  }
});
