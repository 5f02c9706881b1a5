// The call/result detail: a diff segment drawn as a diff with the raw text one click away and exact,
// envelopes (low confidence warned), hostile text rendered inert, flags, deliveries and a 5 MB result.
import { expect, test, type Page } from "@playwright/test";
import { findCallRowId, postResult, registerCall, uniqueGroup } from "./support/seed.ts";

/** Fails the test on any dialog, and records requests leaving the app's origin (other than data: URLs we build). */
function watchForEscapes(page: Page, baseURL: string) {
  const dialogs: string[] = [];
  const foreignRequests: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(baseURL) && !url.startsWith("data:")) foreignRequests.push(url);
  });
  return { dialogs, foreignRequests };
}

test("split view: the empty side beside an added line is ruled in the border colour, not a deletion red", async ({
  page,
  request,
}) => {
  const group = uniqueGroup("e2e-diff-omit");
  const patch = "--- a.ts\n+++ a.ts\n@@ -1,1 +1,2 @@\n export const a = 1;\n+export const b = 2;\n";
  await registerCall(request, { group_id: group, id: "edit", name: "edit_file" });
  await postResult(request, {
    group_id: group,
    id: "edit",
    text: "Edited a.ts",
    display_as: [{ type: "diff", content: { path: "a.ts", patch } }],
  });
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/calls/${await findCallRowId(request, group, "edit")}`);
    const diff = page.getByTestId("diff-viewer");
    await diff.getByRole("button", { name: "Split" }).click();
    const omitted = diff.locator("td.diff-gutter-omit").first();
    await expect(omitted).toBeAttached();
    const [line, border] = await omitted.evaluate((cell) => {
      const probe = document.createElement("span");
      probe.style.backgroundColor = "var(--border)";
      cell.closest(".dv-viewer")?.append(probe);
      const colours = [getComputedStyle(cell, "::before").backgroundColor, getComputedStyle(probe).backgroundColor];
      probe.remove();
      return colours;
    });
    // react-diff-view's default rule is #cb2a1d: on the old side of an addition it read as "deleted".
    expect(line, scheme).toBe(border);
  }
});

test("split needs room: on a 390 px phone the diff is drawn unified with whole lines, and split comes back when wide", async ({
  page,
  request,
}) => {
  const group = uniqueGroup("e2e-diff-narrow");
  const patch =
    "--- src/limits.ts\n+++ src/limits.ts\n@@ -1,2 +1,2 @@\n export const retries = 3;\n-export const timeoutMs = 30_000; // the gateway closes idle sockets after 30 s\n+export const timeoutMs = 25_000; // below the gateway's idle close, so we never reuse a dead socket\n";
  await registerCall(request, { group_id: group, id: "edit", name: "edit_file" });
  await postResult(request, {
    group_id: group,
    id: "edit",
    text: "Edited src/limits.ts",
    display_as: [{ type: "diff", content: { path: "src/limits.ts", patch } }],
  });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/calls/${await findCallRowId(request, group, "edit")}`);
  const diff = page.getByTestId("diff-viewer");
  await diff.getByRole("button", { name: "Split" }).click();
  await expect(diff.locator("table.diff-split")).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  // Side by side at 390 px left each side ~20 characters: every line wrapped into slivers.
  await expect(diff.locator("table.diff-unified")).toBeVisible();
  await expect(diff.locator("table.diff-split")).toHaveCount(0);
  await expect(diff.getByRole("button", { name: "Split" })).toHaveCount(0);
  await expect(diff.getByTestId("diff-split-waits")).toBeVisible();
  const code = diff.locator("td.diff-code-insert");
  await expect(code).toHaveText(
    "export const timeoutMs = 25_000; // below the gateway's idle close, so we never reuse a dead socket",
  );
  // Split gave each side ~55 px of code (8 characters a line); unified gives the code column the rest of the row.
  expect((await code.boundingBox())?.width ?? 0, "the code column keeps most of the diff's width").toBeGreaterThan(150);
  // The two line-number gutters are sized to one-digit numbers (react-diff-view's fixed 7ch each took ~107 px).
  const gutters = await diff
    .locator("tr:has(td.diff-code-insert) td.diff-gutter")
    .evaluateAll((cells) => cells.map((cell) => cell.getBoundingClientRect().width));
  expect(gutters).toHaveLength(2);
  expect(
    gutters.reduce((sum, width) => sum + width, 0),
    `gutters ${gutters.join(" + ")} px`,
  ).toBeLessThan(50);
  // The raw text stays one click away.
  await page.getByRole("button", { name: "Raw text" }).click();
  await expect(page.getByLabel("Raw result text")).toHaveText("Edited src/limits.ts");

  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(diff.locator("table.diff-split")).toBeVisible();
  await expect(diff.getByRole("button", { name: "Split" })).toHaveAttribute("aria-pressed", "true");
});

test("a diff segment is drawn as a diff and the raw text is reachable and exact", async ({
  page,
  request,
  context,
  baseURL,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const group = uniqueGroup("e2e-diff");
  await registerCall(request, {
    group_id: group,
    id: "edit",
    name: "edit_file",
    arguments: { path: "src/main.rs" },
    call_id: "toolu_01",
  });
  const patch =
    '--- src/main.rs\n+++ src/main.rs\n@@ -1,3 +1,3 @@\n fn main() {\n-    println!("bye");\n+    println!("hello");\n }\n';
  const text = "Replaced text in src/main.rs\n  1 insertion(+), 1 deletion(-)\n\ttabs and  spaces kept\n";
  const message = {
    group_id: group,
    id: "edit",
    call_id: "toolu_01",
    text,
    display_as: [
      { type: "chart", content: { bars: [1, 2] } },
      { type: "diff", content: { path: "src/main.rs", patch } },
      { type: "text", content: "edit_file src/main.rs" },
    ],
  };
  const accepted = await postResult(request, message);
  await postResult(request, message); // a duplicate: same answer, audited
  await postResult(request, { ...message, text: "something else" }, { expectStatus: 409 }); // a conflict: first result kept

  await page.goto(`/calls/${await findCallRowId(request, group, "edit")}`);
  await expect(page.getByRole("heading", { name: "edit_file", level: 1 })).toBeVisible();
  await expect(page.getByTestId("call-thread-link")).toHaveText(group);

  const display = page.getByTestId("display-section");
  await expect(display).toContainText("diff segment #2");
  await expect(display.getByTestId("skipped-segments")).toContainText("unsupported segment type");
  const diff = display.getByTestId("diff-viewer");
  await expect(diff.getByTestId("diff-file-path")).toHaveText("src/main.rs");
  await expect(diff.getByTestId("diff-file-stat")).toHaveText("+1 −1");
  await expect(diff.locator("td.diff-code-insert")).toHaveText('    println!("hello");');
  await expect(diff.locator("td.diff-code-delete")).toHaveText('    println!("bye");');
  await diff.getByRole("button", { name: "Split" }).click();
  await expect(diff.getByRole("button", { name: "Split" })).toHaveAttribute("aria-pressed", "true");
  await expect(diff.locator("table.diff-split")).toBeVisible();
  await expect(diff.locator("td.diff-code-insert")).toHaveText('    println!("hello");');

  // Raw text: one click away, byte-exact, with its sha256.
  await page.getByRole("button", { name: "Raw text" }).click();
  const raw = page.getByLabel("Raw result text");
  await expect(raw).toBeVisible();
  expect(await raw.evaluate((element) => element.textContent)).toBe(text);
  await expect(page.getByTestId("raw-text-sha256")).toHaveText(String(accepted.body.text_sha256));
  const download = await request.get(
    `${baseURL}${await page.getByRole("link", { name: "Download" }).getAttribute("href")}`,
  );
  expect(download.headers()["content-type"]).toBe("text/plain; charset=utf-8");
  expect(download.headers()["content-disposition"]).toContain("attachment");
  expect(await download.text()).toBe(text);
  await page.getByRole("button", { name: "Copy original" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Copied the original text" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text);

  // Every delivery that reached the call, with its raw body on demand.
  const deliveries = page.getByTestId("delivery-row");
  await expect(deliveries).toHaveCount(3);
  await expect(deliveries.nth(0)).toContainText("accepted");
  await expect(deliveries.nth(1)).toContainText("duplicate");
  await expect(deliveries.nth(2)).toContainText("conflict");
  await expect(deliveries.nth(2)).toContainText("409");
  await deliveries.nth(2).getByRole("button", { name: "View raw body" }).click();
  await expect(page.getByLabel(/Raw body of delivery/)).toContainText('"text":"something else"');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: "test-results/screenshots/call-detail.png", fullPage: true });
});

test("an envelope with low confidence is shown with its warning; only http(s) sources are links", async ({
  page,
  request,
}) => {
  const group = uniqueGroup("e2e-envelope");
  await registerCall(request, { group_id: group, id: "kb", name: "kb_lookup", arguments: { q: "refund policy" } });
  const envelope = {
    success: true,
    data: { policy: "30 days" },
    confidence: 0.31,
    source: [
      { type: "document", id: "kb-12", label: "Refund policy", url: "https://example.com/refunds" },
      { type: "api", id: "evil", label: "Evil source", url: "javascript:alert(1)" },
    ],
    nextAction: "ask_user",
    error: null,
    meta: { toolName: "kb_lookup", toolVersion: "2.1.0", traceId: "trace-9", durationMs: 123, cached: false },
  };
  await postResult(request, { group_id: group, id: "kb", text: JSON.stringify(envelope) });
  await registerCall(request, { group_id: group, id: "partial", name: "kb_lookup" });
  await postResult(request, {
    group_id: group,
    id: "partial",
    text: JSON.stringify({ success: true, confidence: 1.7 }),
  });

  await page.goto(`/calls/${await findCallRowId(request, group, "kb")}`);
  const panel = page.getByTestId("envelope-panel");
  await expect(panel.getByTestId("envelope-kind")).toHaveText("valid");
  await expect(panel.getByRole("meter", { name: "Confidence" })).toHaveAttribute("aria-valuenow", "0.31");
  await expect(panel.getByTestId("confidence-band")).toHaveText("low");
  // The verdict sits above everything else and says what to do once: the envelope's own nextAction, not an override.
  const verdict = page.getByTestId("verdict-panel");
  await expect(verdict.getByTestId("verdict-next-action")).toHaveText("ask the user");
  await expect(verdict.getByTestId("verdict-confidence")).toHaveText("0.31 (low)");
  await expect(
    page.getByText("Do not rely on it: ask the user for more information or hand over to a human."),
  ).toHaveCount(1);
  const verdictBox = await verdict.boundingBox();
  expect(verdictBox?.y ?? Infinity).toBeLessThan(400);
  await expect(panel).toContainText("ask_user");
  await expect(panel).toContainText("trace-9");
  const link = panel.getByRole("link", { name: "Refund policy" });
  await expect(link).toHaveAttribute("href", "https://example.com/refunds");
  await expect(link).toHaveAttribute("rel", "noreferrer noopener");
  await expect(panel.getByRole("link", { name: "Evil source" })).toHaveCount(0);
  await expect(panel.getByTestId("envelope-sources")).toContainText("javascript:alert(1)");
  await page.screenshot({ path: "test-results/screenshots/call-envelope.png", fullPage: true });

  await page.goto(`/calls/${await findCallRowId(request, group, "partial")}`);
  await expect(page.getByTestId("envelope-kind")).toHaveText("invalid");
  await expect(page.getByTestId("envelope-problems")).toContainText("confidence: must be between 0 and 1");
  await expect(page.getByTestId("envelope-problems")).toContainText("data: missing");
  // Invalid: the claimed 1.7 is shown but not banded, and the verdict says so (issue 13's "high — reliable" contradiction).
  await expect(page.getByTestId("confidence-band")).toHaveText("not trusted");
  await expect(page.getByTestId("verdict-panel")).toContainText("invalid envelope");
  await expect(page.getByText("Reliable enough", { exact: false })).toHaveCount(0);
});

test("an envelope field sent with a wrong value is shown as invalid, never as missing", async ({ page, request }) => {
  const group = uniqueGroup("e2e-envelope-wrong");
  await registerCall(request, { group_id: group, id: "bad", name: "lookup" });
  await postResult(request, {
    group_id: group,
    id: "bad",
    text: JSON.stringify({ success: "yes", data: null, confidence: 0.9, nextAction: "explode", error: null, meta: {} }),
  });
  await page.goto(`/calls/${await findCallRowId(request, group, "bad")}`);
  const panel = page.getByTestId("envelope-panel");
  await expect(page.getByTestId("envelope-kind")).toHaveText("invalid");
  // The tool did send success and nextAction: the fields say what was wrong with them.
  await expect(panel.getByTestId("envelope-success-invalid")).toContainText('must be a boolean (got "yes")');
  await expect(panel.getByTestId("envelope-nextAction-invalid")).toContainText('"explode"');
  await expect(panel.locator("dl.kv > dd").first()).not.toContainText("missing");
});

test("hostile text, diff file names and hunk headers are rendered inert", async ({ page, request, baseURL }) => {
  const watch = watchForEscapes(page, baseURL ?? "");
  const group = uniqueGroup("e2e-xss");
  const img = "<img src=x onerror=alert(1)>";
  const script = "<script>alert(2)</script>";
  await registerCall(request, {
    group_id: group,
    id: "x1",
    name: `tool${img}`,
    arguments: JSON.stringify({ q: script }),
  });
  const patch = [
    `--- a/${script}.js`,
    `+++ b/${img}.js`,
    `@@ -1 +1 @@ ${img}`,
    `-${script}`,
    `+<a href="javascript:alert(3)">click</a>${img}`,
    "",
  ].join("\n");
  const text = `${img}${script}<svg onload=alert(4)><iframe src="https://evil.example/"></iframe>`;
  await postResult(request, {
    group_id: group,
    id: "x1",
    text,
    display_as: [{ type: "diff", content: { path: `${img}.js`, patch } }],
  });
  await registerCall(request, { group_id: group, id: "x2", name: "mcp_tool" });
  const mcp = {
    content: [
      { type: "text", text: img },
      { type: "image", mimeType: "image/svg+xml", data: "PHN2ZyBvbmxvYWQ9YWxlcnQoNSk+PC9zdmc+" },
      { type: "resource_link", uri: "javascript:alert(6)", name: "bad link" },
    ],
    isError: false,
  };
  await postResult(request, {
    group_id: group,
    id: "x2",
    text: JSON.stringify(mcp),
    display_as: [{ type: "text", content: `${script}${img}` }],
  });

  await page.goto(`/threads/${encodeURIComponent(group)}`);
  await expect(page.getByRole("feed", { name: "Thread timeline" })).toContainText(`tool${img}`);
  await expect(page.getByRole("feed", { name: "Thread timeline" })).toContainText(script);

  await page.goto(`/calls/${await findCallRowId(request, group, "x1")}`);
  const diff = page.getByTestId("diff-viewer");
  await expect(diff.getByTestId("diff-file-path")).toContainText(`${img}.js`);
  await expect(diff.getByTestId("diff-hunk").first()).toContainText(`@@ -1 +1 @@ ${img}`);
  await expect(diff.locator("td.diff-code-delete")).toHaveText(script);
  await page.getByRole("button", { name: "Raw text" }).click();
  expect(await page.getByLabel("Raw result text").evaluate((element) => element.textContent)).toBe(text);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`tool${img}`);
  await page.screenshot({ path: "test-results/screenshots/call-xss.png", fullPage: true });

  await page.goto(`/calls/${await findCallRowId(request, group, "x2")}`);
  await expect(page.getByTestId("display-section")).toContainText(`${script}${img}`);
  await expect(page.getByTestId("mcp-panel")).toContainText("not displayed");
  await expect(page.getByTestId("mcp-panel").getByRole("link", { name: /alert/ })).toHaveCount(0);

  // Nothing ran, nothing was fetched from elsewhere, no markup became elements.
  await expect(page.locator('img[src="x"], iframe, svg[onload], a[href^="javascript:"]')).toHaveCount(0);
  expect(watch.dialogs).toEqual([]);
  expect(watch.foreignRequests).toEqual([]);
});

test("invisible characters are revealed and secrets masked until revealed", async ({ page, request }) => {
  const group = uniqueGroup("e2e-flags");
  const secret = "sk-proj-abcdefghij0123456789ABCDEFGH";
  await registerCall(request, { group_id: group, id: "f1", name: "read_file" });
  await postResult(request, { group_id: group, id: "f1", text: `invoice\u202Etxt.exe and key ${secret}` });
  await page.goto(`/calls/${await findCallRowId(request, group, "f1")}`);
  await expect(page.getByTestId("invisible-warning")).toContainText("U+202E");
  const raw = page.getByLabel("Raw result text");
  await expect(raw).toContainText("invoice⟨U+202E⟩txt.exe");
  await expect(raw).not.toContainText(secret);
  await expect(raw).toContainText("sk-p…[masked openai_key #");
  // The page holds the masked text only; "Reveal a value…" leads to the panel that asks the server for one value.
  await page.getByTestId("reveal-secrets").click();
  await page
    .getByTestId("secrets-panel")
    .getByRole("button", { name: /Reveal/ })
    .click();
  await expect(page.getByTestId("revealed-value")).toHaveText(secret);
  await expect(raw).not.toContainText(secret);
});

test("a 5 MB result is shown in part, with the rest one click away and byte-exact", async ({ page, request }) => {
  test.setTimeout(120_000);
  const group = uniqueGroup("e2e-big");
  await registerCall(request, { group_id: group, id: "dump", name: "dump_logs" });
  const line = "2026-11-22T10:00:00Z INFO request handled in 12 ms\n";
  const text = `${line.repeat(Math.floor((5 * 1024 * 1024) / line.length))}THE END`;
  await postResult(request, { group_id: group, id: "dump", text });
  await page.goto(`/calls/${await findCallRowId(request, group, "dump")}`);
  const raw = page.getByLabel("Raw result text");
  await expect(raw).toBeVisible();
  await expect(page.getByText(`of ${text.length.toLocaleString("en-US")} characters`)).toBeVisible();
  await page.getByRole("button", { name: /Show all \(5\.0 MiB\)/ }).click();
  await expect(async () => {
    expect(await raw.evaluate((element) => element.textContent?.length)).toBe(text.length);
  }).toPass({ timeout: 30_000 });
  expect(await raw.evaluate((element) => element.textContent?.endsWith("THE END"))).toBe(true);
});
