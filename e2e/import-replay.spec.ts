// Import a transcript through the upload control, step through it on the replay page, copy and download the
// history at a step, export it; and replay a live thread recorded through the public API.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { keysReady } from "./support/keys.ts";

const FIXTURES = path.join(import.meta.dirname, "fixtures");
const SCREENSHOTS = "test-results/screenshots";

function uniqueGroup(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
}

test("import through the upload control, step through the replay, copy and download the history", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const groupId = uniqueGroup("e2e-trip");

  await page.goto("/import");
  await expect(page.getByRole("heading", { name: "Import a transcript" })).toBeVisible();
  await page.getByLabel("Transcript file").setInputFiles(path.join(FIXTURES, "anthropic-trip.json"));
  await page.getByLabel("Group id (optional)").fill(groupId);
  await page.getByRole("button", { name: "Import", exact: true }).click();

  const result = page.getByTestId("import-result");
  await expect(result).toContainText(`Imported ${groupId}`);
  await expect(result).toContainText("Anthropic Messages");
  await expect(result.getByText("1 import issue (nothing was dropped")).toBeVisible();
  await expect(result).toContainText("messages[2].content[3] result for unknown call toolu_e2e_stale");
  await page.screenshot({ path: `${SCREENSHOTS}/import.png`, fullPage: true });

  await result.getByRole("link", { name: "Replay" }).click();
  await expect(page).toHaveURL(new RegExp(`/threads/${groupId}/replay`));
  await expect(page.getByRole("heading", { name: "Replay", exact: true })).toBeVisible();
  // Opens at the end: every event of the transcript, nothing pending.
  await expect(page.getByTestId("replay-position")).toHaveText("Step 14 of 14");
  await expect(page.getByTestId("replay-vendor")).toHaveValue("anthropic");

  // Buttons.
  await page.getByRole("button", { name: "First step" }).click();
  await expect(page.getByTestId("replay-position")).toHaveText("Step 0 of 14");
  await expect(page.getByTestId("replay-json")).toContainText('"messages": []');

  // Keyboard: → three times from the page (not from a form control), then End and Home.
  await keysReady(page, "replay");
  await page.getByRole("heading", { name: "Timeline" }).click();
  for (let i = 0; i < 6; i += 1) await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("replay-position")).toHaveText("Step 6 of 14 · 3 pending");
  const pending = page.getByTestId("replay-pending");
  await expect(pending).toContainText("get_weather toolu_e2e_paris");
  await expect(pending).toContainText("get_local_time toolu_e2e_time");
  await expect(page.locator(".replay-event.is-pending")).toHaveCount(3);
  await page.keyboard.press("End");
  await expect(page.getByTestId("replay-position")).toHaveText("Step 14 of 14");
  await page.keyboard.press("Home");
  await expect(page.getByTestId("replay-position")).toHaveText("Step 0 of 14");

  // The slider: step 8 = two of the three parallel results are in.
  await page.getByRole("slider", { name: "Step" }).fill("8");
  await expect(page.getByTestId("replay-position")).toHaveText("Step 8 of 14 · 1 pending");
  await expect(page).toHaveURL(/step=8/);
  await expect(page.getByRole("button", { name: /^8\s*result/ })).toHaveAttribute("aria-current", "step");

  // Another encoding: OpenAI Chat pairs results by tool_call_id, right after the assistant message.
  await page.getByTestId("replay-vendor").selectOption("openai-chat");
  await expect(page.getByTestId("replay-json")).toContainText('"tool_call_id": "toolu_e2e_tokyo"');
  await page.screenshot({ path: `${SCREENSHOTS}/replay.png`, fullPage: true });

  await page.getByRole("button", { name: "Copy JSON" }).click();
  await expect(page.getByTestId("replay-notice")).toContainText("Copied the OpenAI Chat Completions history at step 8");
  const copied: unknown = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
  expect(copied).toEqual({
    messages: [
      { role: "system", content: "You are a travel assistant. Use the tools for live data." },
      { role: "user", content: "Weather in Paris and Tokyo, and the time in Tokyo?" },
      {
        role: "assistant",
        content: "Looking all three up at once.",
        tool_calls: [
          {
            id: "toolu_e2e_paris",
            type: "function",
            function: { name: "get_weather", arguments: '{"location":"Paris, France"}' },
          },
          {
            id: "toolu_e2e_tokyo",
            type: "function",
            function: { name: "get_weather", arguments: '{"location":"Tokyo, Japan"}' },
          },
          {
            id: "toolu_e2e_time",
            type: "function",
            function: { name: "get_local_time", arguments: '{"timezone":"Asia/Tokio"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "toolu_e2e_paris", content: '{"temp_c":18,"conditions":"cloudy"}' },
      { role: "tool", tool_call_id: "toolu_e2e_tokyo", content: '{"temp_c":24,"conditions":"sunny"}' },
    ],
    tools: [
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "Current weather for a city.",
          parameters: { type: "object", properties: { location: { type: "string" } }, required: ["location"] },
        },
      },
      {
        type: "function",
        function: {
          name: "get_local_time",
          description: "Local time in an IANA time zone.",
          parameters: { type: "object", properties: { timezone: { type: "string" } }, required: ["timezone"] },
        },
      },
    ],
  });

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download JSON" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${groupId}-openai-chat-step-8.json`);
  const downloaded: unknown = JSON.parse(fs.readFileSync(await download.path(), "utf8"));
  expect(downloaded).toEqual(copied);

  // The view is in the URL: reloading keeps the step and the encoding.
  await page.reload();
  await expect(page.getByTestId("replay-position")).toHaveText("Step 8 of 14 · 1 pending");
  await expect(page.getByTestId("replay-vendor")).toHaveValue("openai-chat");

  // Export the thread and import the export under a new id: the same thread again.
  const [exported] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-button").click()]);
  expect(exported.suggestedFilename()).toBe(`${groupId}.toolscope.jsonl`);
  const exportPath = await exported.path();
  const exportText = fs.readFileSync(exportPath, "utf8");
  expect(JSON.parse(exportText.split("\n")[0] ?? "")).toEqual({
    kind: "toolscope-export",
    version: 1,
    group_id: groupId,
  });
  const copyId = `${groupId}-copy`;
  await page.goto("/import");
  await page.getByLabel("Transcript file").setInputFiles({
    name: `${groupId}.toolscope.jsonl`,
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(exportText),
  });
  await page.getByLabel("Group id (optional)").fill(copyId);
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page.getByTestId("import-result")).toContainText(`Imported ${copyId}`);
  await expect(page.getByTestId("import-result")).toContainText("Toolscope JSONL export");
});

test("the upload control shows the precise error for a malformed transcript", async ({ page }) => {
  await page.goto("/import");
  const broken = JSON.stringify({
    messages: [{ role: "user", content: [{ type: "tool_result", tool_use_id: 7, content: "x" }] }],
  });
  await page
    .getByLabel("Transcript file")
    .setInputFiles({ name: "broken.json", mimeType: "application/json", buffer: Buffer.from(broken) });
  await page.getByLabel("Format", { exact: true }).selectOption("anthropic");
  await page.getByRole("button", { name: "Import", exact: true }).click();
  const error = page.getByTestId("import-error");
  await expect(error).toHaveAttribute("role", "alert");
  await expect(error).toContainText(
    "Import failed (422 invalid): messages[0].content[0].tool_use_id: expected a string, got number",
  );
  await expect(error).toContainText("At messages[0].content[0].tool_use_id");
  await page.screenshot({ path: `${SCREENSHOTS}/import-error.png`, fullPage: true });
});

test("replays a live thread recorded through the public API, with the open call pending", async ({ page, request }) => {
  const groupId = uniqueGroup("e2e-live");
  const events = await request.post("/api/events", {
    data: [
      { type: "message", group_id: groupId, role: "user", text: "Deploy the API to prod, then check health." },
      {
        type: "tool_call",
        group_id: groupId,
        id: "call_deploy",
        name: "deploy",
        arguments: '{"service":"api","env":"prod"}',
      },
      { type: "tool_call", group_id: groupId, id: "call_health", name: "check_health", arguments: '{"service":"api"}' },
    ],
  });
  expect(events.status()).toBe(207);
  const delivered = await request.post("/api/callback", {
    data: {
      type: "tool_result",
      group_id: groupId,
      id: "call_deploy",
      text: "Deployment completed. Instance i-0abc123 is running.",
    },
  });
  expect(delivered.status()).toBe(200);

  await page.goto(`/threads/${groupId}/replay?vendor=gemini`);
  await expect(page.getByTestId("replay-position")).toHaveText("Step 4 of 4 · 1 pending");
  await expect(page.getByTestId("replay-pending")).toContainText("check_health call_health");
  const json = page.getByTestId("replay-json");
  await expect(json).toContainText('"functionResponse"');
  await expect(json).toContainText('"id": "call_deploy"');

  const api = await request.get(`/api/threads/${groupId}/replay?vendor=anthropic&step=3`);
  expect(api.status()).toBe(200);
  const body = await api.json();
  expect(body).toMatchObject({
    group_id: groupId,
    vendor: "anthropic",
    step: 3,
    total: 4,
    pending_call_ids: ["call_deploy", "call_health"],
  });
  expect((await request.get(`/api/threads/${groupId}-missing/replay`)).status()).toBe(404);
});

test("the history box opens at its end, where the step is, and follows the steps; a live event shows its own record", async ({
  page,
  request,
}) => {
  const groupId = uniqueGroup("e2e-replay-end");
  for (let i = 0; i < 6; i += 1) {
    const call = await request.post("/api/events", {
      data: { type: "tool_call", group_id: groupId, id: `call_${i}`, name: "read_log", arguments: { part: i } },
    });
    expect(call.status()).toBe(201);
    const text = Array.from({ length: 30 }, (_, line) => `part ${i} line ${line}`).join("\n");
    expect(
      (
        await request.post("/api/callback", { data: { type: "tool_result", group_id: groupId, id: `call_${i}`, text } })
      ).status(),
    ).toBe(200);
  }
  await page.goto(`/threads/${groupId}/replay?vendor=openai-chat`);
  await expect(page.getByTestId("replay-position")).toHaveText("Step 12 of 12");
  const json = page.getByTestId("replay-json");
  await expect(json).toContainText("part 5 line 29");
  const atEnd = () =>
    json.evaluate(
      (element) =>
        element.scrollHeight > element.clientHeight &&
        element.scrollTop + element.clientHeight >= element.scrollHeight - 2,
    );
  await expect.poll(atEnd).toBe(true);
  await page.getByRole("button", { name: /Previous/ }).click();
  // call_5 is requested at step 11 and answered at step 12: pending here (the count shows once the step loaded).
  await expect(page.getByTestId("replay-position")).toHaveText("Step 11 of 12 · 1 pending");
  await expect(json).toContainText('"tool_call_id": "call_4"');
  await expect.poll(atEnd).toBe(true);
  // The event came through the API: no vendor payload, so "as recorded" shows Toolscope's record, not `null`.
  await page.getByText(/Event 11 as recorded/).click();
  const recorded = page.locator(".replay-current pre");
  await expect(recorded).toContainText('"kind": "tool_call"');
  await expect(recorded).not.toHaveText("null");
});
