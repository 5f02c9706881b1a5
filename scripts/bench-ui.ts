// npm run bench:ui — how the dashboard holds up at scale, each figure beside a baseline from the same run:
//   1. server render of the thread page (TTFB and full HTML, median/p95) for a 10,000-call thread,
//      against the same page for a 100-call thread;
//   2. in Chromium, the longest main-thread task (PerformanceObserver "longtask") while opening a call
//      whose result is a 20,000-line diff, and while expanding it, against a 20-line diff.
// Data is seeded through the services (not HTTP) into a fresh SQLite file; the production server runs in
// its own process on a free port. Options: --runs <n> (HTTP samples, 25), --browser-runs <n> (5), --skip-build.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { findChromium } from "../e2e/support/chromium.ts";
import { nodeScriptArgs } from "../lib/testing/node-command.ts";
import { openDatabase, setDatabase, type Database } from "../lib/db/client.ts";
import { resolveDatabaseTarget } from "../lib/db/database-url.ts";
import { applyMigrations } from "../lib/db/migrate.ts";
import { recordEvents } from "../lib/events/service.ts";
import { acceptToolResult } from "../lib/ingest/service.ts";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? Number(args[index + 1]) : fallback;
};
const HTTP_RUNS = option("runs", 25);
const BROWSER_RUNS = option("browser-runs", 5);
const DIST_DIR = ".next-bench-ui";
const work = fs.mkdtempSync(path.join(os.tmpdir(), "toolscope-bench-ui-"));
const target = resolveDatabaseTarget(`file:${path.join(work, "bench.db")}`);

// ─── seeding (services, not HTTP) ─────────────────────────────────────────────────────────────────

async function events(db: Database, batch: unknown[]): Promise<void> {
  for (let start = 0; start < batch.length; start += 1000) {
    const reply = await recordEvents(batch.slice(start, start + 1000), { database: db });
    if (reply.status !== 207 && reply.status >= 300) throw new Error(`seeding failed: ${JSON.stringify(reply.body).slice(0, 300)}`);
  }
}

async function results(messages: Record<string, unknown>[]): Promise<void> {
  // Submitted together, the callback writer commits them in groups, as it would under load.
  for (let start = 0; start < messages.length; start += 500) {
    const replies = await Promise.all(
      messages.slice(start, start + 500).map((message) => {
        const body = Buffer.from(JSON.stringify({ type: "tool_result", ...message }));
        return acceptToolResult({
          body,
          tooLarge: false,
          receivedBytes: body.length,
          contentType: "application/json",
          signature: { id: null, timestamp: null, signature: null },
          remoteAddress: null,
          receivedAt: new Date(),
        });
      }),
    );
    const failed = replies.find((reply) => reply.status !== 200);
    if (failed) throw new Error(`result seeding failed: ${JSON.stringify(failed.body).slice(0, 300)}`);
  }
}

async function seedThread(db: Database, group: string, calls: number): Promise<void> {
  const batch: unknown[] = [{ type: "message", group_id: group, role: "user", text: "Check the weather everywhere and summarise." }];
  for (let i = 0; i < calls; i += 1) {
    if (i % 40 === 0) batch.push({ type: "reasoning", group_id: group, text: `Step ${i / 4}: fanning out four more lookups.` });
    batch.push({ type: "tool_call", group_id: group, id: `call_${i}`, name: i % 3 === 0 ? "search_docs" : "get_weather", arguments: JSON.stringify({ city: `city-${i}`, units: "metric" }), step: Math.floor(i / 4) });
  }
  await events(db, batch);
  const answered: Record<string, unknown>[] = [];
  for (let i = 0; i < calls; i += 4) {
    answered.push({ group_id: group, id: `call_${i}`, text: JSON.stringify({ success: true, data: { temp: i % 35 }, confidence: (i % 100) / 100, source: "weather_api", nextAction: "continue", error: null }) });
  }
  await results(answered);
}

function unifiedDiff(lines: number): string {
  const body: string[] = [];
  for (let i = 0; i < lines; i += 1) body.push(i % 2 === 0 ? `-  const value${i} = compute(${i}); // old` : `+  const value${i} = computeFaster(${i}, cache); // new`);
  return `--- a/src/generated/table.ts\n+++ b/src/generated/table.ts\n@@ -1,${lines / 2} +1,${lines / 2} @@\n${body.join("\n")}\n`;
}

async function seedDiffCall(db: Database, group: string, lines: number): Promise<void> {
  await events(db, [{ type: "tool_call", group_id: group, id: "edit", name: "apply_patch", arguments: { path: "src/generated/table.ts" } }]);
  const patch = unifiedDiff(lines);
  await results([{ group_id: group, id: "edit", text: patch, display_as: [{ type: "diff", content: { path: "src/generated/table.ts", patch } }, { type: "text", content: `${lines} lines changed` }] }]);
}

async function callRowId(db: Database, group: string): Promise<number> {
  const call = await db.client.toolCall.findUniqueOrThrow({ where: { groupId_callKey: { groupId: group, callKey: "edit" } }, select: { id: true } });
  return call.id;
}

// ─── server ───────────────────────────────────────────────────────────────────────────────────────

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function waitReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 300_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/ready on /.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("exit", (code) => reject(new Error(`server exited (${code}):\n${output}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.on("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

// ─── measurements ─────────────────────────────────────────────────────────────────────────────────

type Sample = { ttfb: number; full: number; bytes: number };

function fetchTimed(url: string): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    http
      .get(url, (response) => {
        const ttfb = performance.now() - started;
        let bytes = 0;
        response.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
        });
        response.on("end", () => {
          if (response.statusCode !== 200) reject(new Error(`${url}: HTTP ${response.statusCode}`));
          else resolve({ ttfb, full: performance.now() - started, bytes });
        });
      })
      .on("error", reject);
  });
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

type PageFigures = { ttfb: { median: number; p95: number }; full: { median: number; p95: number }; bytes: number };

function summarise(samples: Sample[]): PageFigures {
  const ttfb = samples.map((s) => s.ttfb);
  const full = samples.map((s) => s.full);
  return { ttfb: { median: percentile(ttfb, 50), p95: percentile(ttfb, 95) }, full: { median: percentile(full, 50), p95: percentile(full, 95) }, bytes: samples[0]?.bytes ?? 0 };
}

/** Requests alternate between the pages, so drift (GC, caches, the deadline sweep) hits both alike. */
async function measurePages(urls: string[]): Promise<PageFigures[]> {
  for (let i = 0; i < 3; i += 1) for (const url of urls) await fetchTimed(url); // warm-up
  const samples: Sample[][] = urls.map(() => []);
  for (let i = 0; i < HTTP_RUNS; i += 1) for (const [index, url] of urls.entries()) samples[index]?.push(await fetchTimed(url));
  return samples.map(summarise);
}

const LONG_TASKS = `
  window.__longTasks = [];
  new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.__longTasks.push(entry.duration); })
    .observe({ type: "longtask", buffered: true });
`;

type BrowserFigures = { open: number; expand: number | null };

async function longestTasks(browser: Browser, url: string, expandLabel: RegExp | null): Promise<BrowserFigures> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(LONG_TASKS);
  await page.goto(url, { waitUntil: "load" });
  await page.getByTestId("diff-viewer").waitFor();
  await page.waitForLoadState("networkidle");
  // Let pending tasks report before reading them.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 200))));
  const readMax = () =>
    page.evaluate(() => {
      const tasks: unknown = Reflect.get(window, "__longTasks");
      return Array.isArray(tasks) ? Math.max(0, ...tasks.filter((task): task is number => typeof task === "number")) : 0;
    });
  const open = await readMax();
  let expand: number | null = null;
  if (expandLabel) {
    await page.evaluate(() => Reflect.set(window, "__longTasks", []));
    await page.getByRole("button", { name: expandLabel }).click();
    await page.locator(".dv-progress").waitFor({ state: "detached", timeout: 120_000 });
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 200))));
    expand = await readMax();
  }
  await context.close();
  return { open, expand };
}

/** Opens the thread page, loads every history page and jumps to the last row: the longest task on the way. */
async function longestTaskThread(browser: Browser, url: string): Promise<{ open: number; toEnd: number }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(LONG_TASKS);
  await page.goto(url, { waitUntil: "load" });
  await page.getByRole("feed", { name: "Thread timeline" }).waitFor();
  await page.waitForLoadState("networkidle");
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 200))));
  const readMax = () =>
    page.evaluate(() => {
      const tasks: unknown = Reflect.get(window, "__longTasks");
      return Array.isArray(tasks) ? Math.max(0, ...tasks.filter((task): task is number => typeof task === "number")) : 0;
    });
  const open = await readMax();
  await page.evaluate(() => Reflect.set(window, "__longTasks", []));
  await page.getByRole("button", { name: "Load all & jump to end" }).click();
  await page.getByTestId("timeline-status").filter({ hasText: "Live" }).waitFor({ timeout: 120_000 });
  await page.getByRole("article").filter({ hasText: "call_9999" }).waitFor();
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 200))));
  const toEnd = await readMax();
  await context.close();
  return { open, toEnd };
}

async function browserRuns(browser: Browser, url: string, expandLabel: RegExp | null): Promise<{ open: number[]; expand: number[] }> {
  const open: number[] = [];
  const expand: number[] = [];
  for (let i = 0; i < BROWSER_RUNS; i += 1) {
    const figures = await longestTasks(browser, url, expandLabel);
    open.push(figures.open);
    if (figures.expand !== null) expand.push(figures.expand);
  }
  return { open, expand };
}

// ─── run ──────────────────────────────────────────────────────────────────────────────────────────

const ms = (value: number) => `${value.toFixed(1)} ms`;
const taskMs = (value: number) => (value === 0 ? "none ≥ 50 ms" : ms(value));

console.log(`bench:ui — SQLite, production build, ${os.cpus().length} cores, node ${process.version}`);
const chromiumPath = findChromium();
if (!chromiumPath) {
  console.error("No Chromium found: apt-get install -y chromium (or set CHROMIUM_PATH).");
  process.exit(1);
}
if (!args.includes("--skip-build")) {
  console.log(`building the production app into ${DIST_DIR}…`);
  execFileSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NEXT_DIST_DIR: DIST_DIR },
  });
}

await applyMigrations(target);
const db = await openDatabase(target);
setDatabase(db);
const seeded = Date.now();
await seedThread(db, "bench-10k", 10_000);
await seedThread(db, "bench-100", 100);
await seedDiffCall(db, "bench-diff-20k", 20_000);
await seedDiffCall(db, "bench-diff-20", 20);
const bigDiffCall = await callRowId(db, "bench-diff-20k");
const smallDiffCall = await callRowId(db, "bench-diff-20");
console.log(`seeded 10,100 calls (2,525 results) and two diff results through the services in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);
await db.close();

const port = await freePort();
const server = spawn(process.execPath, nodeScriptArgs("scripts/start.ts"), {
  env: { ...process.env, DATABASE_URL: target.url, PORT: String(port), HOST: "127.0.0.1", TOOLSCOPE_SKIP_BUILD: "1", NODE_ENV: "production", NEXT_DIST_DIR: DIST_DIR, NEXT_TELEMETRY_DISABLED: "1" },
  stdio: ["ignore", "pipe", "pipe"],
});
let browser: Browser | null = null;
try {
  await waitReady(server);
  const base = `http://127.0.0.1:${port}`;

  const [big, small] = await measurePages([`${base}/threads/bench-10k`, `${base}/threads/bench-100`]);
  if (!big || !small) throw new Error("no samples");
  console.log(`\nThread page, server render (${HTTP_RUNS} runs each, alternating, after 3 warm-ups)`);
  console.log("| page | TTFB median | TTFB p95 | full HTML median | full HTML p95 | HTML size |");
  console.log("|---|---:|---:|---:|---:|---:|");
  console.log(`| 10,000-call thread | ${ms(big.ttfb.median)} | ${ms(big.ttfb.p95)} | ${ms(big.full.median)} | ${ms(big.full.p95)} | ${(big.bytes / 1024).toFixed(0)} KB |`);
  console.log(`| 100-call thread (baseline) | ${ms(small.ttfb.median)} | ${ms(small.ttfb.p95)} | ${ms(small.full.median)} | ${ms(small.full.p95)} | ${(small.bytes / 1024).toFixed(0)} KB |`);
  console.log(`ratio 10,000 ÷ 100 calls: TTFB ${(big.ttfb.median / small.ttfb.median).toFixed(2)}×, full HTML ${(big.full.median / small.full.median).toFixed(2)}×`);

  browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"] });
  const heavy = await browserRuns(browser, `${base}/calls/${bigDiffCall}`, /Expand hunk 1 \(20000 lines\)/);
  const light = await browserRuns(browser, `${base}/calls/${smallDiffCall}`, null);
  const threadOpen: number[] = [];
  const threadEnd: number[] = [];
  for (let i = 0; i < BROWSER_RUNS; i += 1) {
    const figures = await longestTaskThread(browser, `${base}/threads/bench-10k`);
    threadOpen.push(figures.open);
    threadEnd.push(figures.toEnd);
  }
  console.log(`\nCall detail in Chromium, longest main-thread task (${BROWSER_RUNS} runs, fresh context each; long tasks are ≥ 50 ms)`);
  console.log("| page | median | worst |");
  console.log("|---|---:|---:|");
  console.log(`| open a 20,000-line diff | ${taskMs(percentile(heavy.open, 50))} | ${taskMs(Math.max(...heavy.open))} |`);
  console.log(`| expand its 20,000 lines (drawn a chunk per frame) | ${taskMs(percentile(heavy.expand, 50))} | ${taskMs(Math.max(...heavy.expand))} |`);
  console.log(`| open a 20-line diff (baseline) | ${taskMs(percentile(light.open, 50))} | ${taskMs(Math.max(...light.open))} |`);
  console.log(`| open the 10,000-call thread | ${taskMs(percentile(threadOpen, 50))} | ${taskMs(Math.max(...threadOpen))} |`);
  console.log(`| load every history page and jump to the last call | ${taskMs(percentile(threadEnd, 50))} | ${taskMs(Math.max(...threadEnd))} |`);
  const baseline = Math.max(50, percentile(light.open, 50));
  console.log(`ratio 20,000 ÷ 20 lines (open, medians, baseline floored at 50 ms): ${(Math.max(50, percentile(heavy.open, 50)) / baseline).toFixed(2)}×`);
  const worst = Math.max(...heavy.open, ...heavy.expand);
  console.log(`target: no task over 200 ms — ${worst <= 200 ? "met" : `NOT met (worst ${ms(worst)})`}`);
} finally {
  await browser?.close();
  await stop(server);
  fs.rmSync(work, { recursive: true, force: true });
}
