// bench:ui in Chromium: the longest main-thread task (PerformanceObserver "longtask", ≥ 50 ms) and what else a
// person would notice — first paint, DOM size — while opening and using the thread, replay and diff pages.
import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "@playwright/test";

const LONG_TASKS = `
  window.__longTasks = [];
  new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.__longTasks.push(entry.duration); })
    .observe({ type: "longtask", buffered: true });
`;

async function open(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(LONG_TASKS);
  // A cold replay of a 100k-call thread renders its whole trace first: allow it the time.
  await page.goto(url, { waitUntil: "load", timeout: 180_000 });
  return page;
}

/** Lets pending tasks finish and report. */
const settle = (page: Page) =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 250))));

export async function longestTask(page: Page): Promise<number> {
  return page.evaluate(() => {
    const tasks: unknown = Reflect.get(window, "__longTasks");
    return Array.isArray(tasks) ? Math.max(0, ...tasks.filter((task): task is number => typeof task === "number")) : 0;
  });
}
const resetTasks = (page: Page) => page.evaluate(() => Reflect.set(window, "__longTasks", []));
const domNodes = (page: Page) => page.evaluate(() => document.getElementsByTagName("*").length);
const firstPaint = (page: Page) =>
  page.evaluate(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? 0);
const heapMb = (page: Page) =>
  page
    .evaluate(
      () => (Reflect.get(performance, "memory") as { usedJSHeapSize?: number } | undefined)?.usedJSHeapSize ?? 0,
    )
    .then((bytes) => bytes / 1048576);

/** Opening a call whose result is a diff, and (when a label is given) expanding a collapsed hunk. */
export async function diffOpen(
  browser: Browser,
  url: string,
  expandLabel: RegExp | null,
): Promise<{ open: number; expand: number | null }> {
  const page = await open(browser, url);
  await page.getByTestId("diff-viewer").waitFor();
  await page.waitForLoadState("networkidle");
  await settle(page);
  const openTask = await longestTask(page);
  let expand: number | null = null;
  if (expandLabel) {
    await resetTasks(page);
    await page.getByRole("button", { name: expandLabel }).click();
    await page.locator(".dv-progress").waitFor({ state: "detached", timeout: 120_000 });
    await settle(page);
    expand = await longestTask(page);
  }
  await page.context().close();
  return { open: openTask, expand };
}

/** A multi-hunk diff: DOM nodes once open, and the longest task on Unified → Split. */
export async function diffSplit(
  browser: Browser,
  url: string,
): Promise<{ open: number; nodes: number; split: number; nodesSplit: number }> {
  const page = await open(browser, url);
  await page.getByTestId("diff-viewer").waitFor();
  await page.waitForLoadState("networkidle");
  await settle(page);
  const openTask = await longestTask(page);
  const nodes = await domNodes(page);
  await resetTasks(page);
  await page.getByTestId("diff-viewer").getByRole("button", { name: "Split" }).click();
  await page.locator("table.diff-split").first().waitFor();
  await settle(page);
  const split = await longestTask(page);
  const nodesSplit = await domNodes(page);
  await page.context().close();
  return { open: openTask, nodes, split, nodesSplit };
}

export type ThreadFigures = {
  firstPaint: number;
  open: number;
  toEnd: number;
  toEndMs: number;
  heapMb: number;
  nodes: number;
};

/** Opens the thread page, then jumps to the end (End key: a window read around the last row). */
export async function threadOpenAndEnd(browser: Browser, url: string, lastCall: string): Promise<ThreadFigures> {
  const page = await open(browser, url);
  await page.getByRole("feed", { name: "Thread timeline" }).waitFor();
  await page.waitForLoadState("networkidle");
  await settle(page);
  const paint = await firstPaint(page);
  const openTask = await longestTask(page);
  await resetTasks(page);
  const started = Date.now();
  await page.keyboard.press("End");
  await page.getByRole("article").filter({ hasText: lastCall }).first().waitFor({ timeout: 120_000 });
  const toEndMs = Date.now() - started;
  await page.waitForLoadState("networkidle");
  await settle(page);
  const figures = {
    firstPaint: paint,
    open: openTask,
    toEnd: await longestTask(page),
    toEndMs,
    heapMb: await heapMb(page),
    nodes: await domNodes(page),
  };
  await page.context().close();
  return figures;
}

/** Opens the replay page at a step: the longest task until the history is on screen. */
export async function replayOpen(browser: Browser, url: string): Promise<number> {
  const page = await open(browser, url);
  await page.getByTestId("replay-json").waitFor({ timeout: 120_000 });
  await page.waitForLoadState("networkidle");
  await settle(page);
  const task = await longestTask(page);
  await page.context().close();
  return task;
}

/**
 * axe-core on a settled page at full size, in a colour scheme: its serious and critical violations (as the e2e
 * accessibility spec audits the pages of its own small threads), one line per node.
 */
export async function axeAudit(
  browser: Browser,
  url: string,
  colorScheme: "light" | "dark",
  options: { width?: number; view?: "waterfall" } = {},
): Promise<string[]> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1400, height: 900 }, colorScheme });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: "load", timeout: 180_000 });
    await page.waitForFunction(
      () => document.readyState === "complete" && document.querySelector('[aria-busy="true"]') === null,
      undefined,
      { timeout: 120_000 },
    );
    await page.waitForLoadState("networkidle");
    if (options.view === "waterfall") {
      await page.keyboard.press("w");
      await page.getByRole("list", { name: "Waterfall of calls" }).getByRole("listitem").first().waitFor();
    }
    const results = await new AxeBuilder({ page }).analyze();
    return results.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .flatMap((violation) =>
        violation.nodes.map((node) => `${violation.impact} ${violation.id} — ${node.target.join(" ")}`),
      );
  } finally {
    await context.close();
  }
}
