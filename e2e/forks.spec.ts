// Fork → answer → continue → compare in Chromium, against the fake model provider speaking OpenAI Chat's SSE:
// the answer streams into the page, the model's parallel calls are answered from the recording and by hand,
// Continue ends the run, usage shows, the comparison highlights the first divergence; no key on any page.
import { expect, test, type Page } from "@playwright/test";
import { enqueueAnswers, FAKE_PROVIDER_KEY } from "./support/fake-provider.ts";
import { postEvent, postResult, registerCall, uniqueGroup } from "./support/seed.ts";

const WEATHER = {
  name: "get_weather",
  description: "Current weather for a city",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

async function expectNoKey(page: Page): Promise<void> {
  expect(await page.content()).not.toContain(FAKE_PROVIDER_KEY);
}

test("forks a thread at a step with an edited result, answers, continues and compares", async ({ page, request }) => {
  const original = uniqueGroup("e2e-fork-original");
  await postEvent(request, {
    type: "message",
    group_id: original,
    role: "user",
    text: "Umbrella in Paris or Rome today?",
  });
  await registerCall(request, {
    group_id: original,
    id: "call_paris",
    name: "get_weather",
    arguments: '{"city":"Paris"}',
    declaration: WEATHER,
    step: 0,
  });
  await registerCall(request, {
    group_id: original,
    id: "call_rome",
    name: "get_weather",
    arguments: '{"city":"Rome"}',
    declaration: WEATHER,
    step: 0,
  });
  await postResult(request, { group_id: original, id: "call_paris", text: '{"city":"Paris","rain":true}' });
  await postResult(request, { group_id: original, id: "call_rome", text: '{"city":"Rome","rain":false}' });
  await postEvent(request, { type: "output_text", group_id: original, text: "Take one in Paris." });

  // The first answer streams slowly enough to watch, and asks for two calls in parallel.
  const streamed = "The Paris report changed, so let me check Paris again and compare with Berlin before I answer you.";
  await enqueueAnswers("e2e-chat", [
    {
      text: streamed,
      toolCalls: [
        { id: "call_f1", name: "get_weather", arguments: { city: "Paris" } },
        { id: "call_f2", name: "get_weather", arguments: { city: "Berlin" } },
      ],
      usage: { input: 812, output: 64 },
      delayMs: 60,
    },
    { text: "Take an umbrella in Berlin; Paris stays dry.", usage: { input: 990, output: 15 } },
  ]);

  // From the replay at step 5 (the results are in, the final answer is not).
  await page.goto(`/threads/${original}/replay?step=5`);
  await page.getByRole("link", { name: "Fork here…" }).click();
  await expect(page.getByRole("heading", { name: "Fork and re-run" })).toBeVisible();
  await expect(page.getByLabel("Fork at step (events kept)")).toHaveValue("5");
  await expect(page.getByTestId("fork-event")).toHaveCount(5);

  // Edit what Paris's weather said; the edit is marked.
  const parisResult = page.getByTestId("fork-event").filter({ hasText: "call_paris →" });
  await parisResult.getByRole("button", { name: "Edit result" }).click();
  await page
    .getByLabel("Result text of call_paris (what the model sees)")
    .fill('{"city":"Paris","rain":false,"note":"dry all day"}');
  await expect(parisResult.getByText("edited", { exact: true })).toBeVisible();
  await page.getByLabel("Model target").selectOption("fake-chat");
  await expect(page.getByRole("option", { name: /unkeyed.*key E2E_KEY_THAT_IS_NOT_SET not set/ })).toBeDisabled();
  await page.screenshot({ path: "test-results/screenshots/fork-form.png", fullPage: true });
  await page.getByRole("button", { name: "Fork and run" }).click();

  // The fork's page: the answer streams in, then the turn completes with its calls.
  await expect(page.getByRole("heading", { name: "Fork run" })).toBeVisible();
  const firstTurn = page.getByTestId("fork-turn").first();
  await expect(firstTurn.getByTestId("fork-turn-status")).toHaveText("streaming…");
  await expect(firstTurn.getByTestId("fork-turn-text")).toContainText("The Paris report");
  await expect(firstTurn.getByTestId("fork-turn-text")).not.toContainText("before I answer you.");
  await page.screenshot({ path: "test-results/screenshots/fork-streaming.png", fullPage: true });
  await expect(firstTurn.getByTestId("fork-turn-status")).toHaveText("completed", { timeout: 20_000 });
  await expect(firstTurn.getByTestId("fork-turn-text")).toHaveText(streamed);
  await expect(page.getByTestId("fork-status")).toHaveText("waiting for tool results");
  await expect(page.getByTestId("fork-call")).toHaveCount(2);
  await expect(page.getByRole("button", { name: "Continue" })).toBeDisabled();

  // Paris: from the recording (the original's own result); Berlin: no recording, so by hand.
  const paris = page.getByTestId("fork-call").filter({ hasText: "Paris" });
  await paris.getByRole("button", { name: "Answer from the recording" }).click();
  await expect(paris.getByTestId("fork-call-answered-by")).toHaveText("from the recording");
  await expect(paris.locator("pre")).toContainText('"rain":true');
  const berlin = page.getByTestId("fork-call").filter({ hasText: "Berlin" });
  await expect(berlin.getByText("no recording to answer from")).toBeVisible();
  await berlin.getByLabel(/Result for call_f2, by hand/).fill('{"city":"Berlin","rain":true}');
  await berlin.getByRole("button", { name: "Answer by hand" }).click();
  await expect(berlin.getByTestId("fork-call-answered-by")).toHaveText("typed by hand");

  // Continue: the model answers without a tool, so the run is over; usage adds up both turns.
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByTestId("fork-turn")).toHaveCount(2);
  await expect(page.getByTestId("fork-status")).toHaveText("finished (no tool called)", { timeout: 20_000 });
  await expect(page.getByTestId("fork-turn").nth(1).getByTestId("fork-turn-text")).toHaveText(
    "Take an umbrella in Berlin; Paris stays dry.",
  );
  await expect(page.getByRole("definition").first()).toBeVisible();
  await expect(page.getByLabel("Tokens used by this fork")).toContainText("1,881");
  await expect(page.getByTestId("fork-continue-blocked")).toContainText("the run is over");
  await page.screenshot({ path: "test-results/screenshots/fork-finished.png", fullPage: true });
  await expectNoKey(page);

  // Compare: the edit is marked, the first divergence is the model's Berlin call after the fork point.
  await page.getByRole("link", { name: "Compare with the original" }).click();
  await expect(page.getByTestId("compare-divergence")).toContainText("First divergence: call #3");
  await expect(page.getByTestId("compare-divergence")).toContainText("1 edited in the fork");
  await expect(page.getByTestId("compare-fork-point")).toContainText("Fork point (step 5)");
  const rows = page.getByTestId("compare-row");
  await expect(rows.nth(0)).toContainText("edited in the fork");
  await expect(rows.nth(2)).toContainText("first divergence");
  await expect(rows.nth(2)).toContainText("only in B");
  await page.screenshot({ path: "test-results/screenshots/fork-compare.png", fullPage: true });

  // Both threads show the link.
  await page.goto(`/threads/${original}`);
  await expect(page.getByTestId("forks-of-thread")).toContainText("1 fork");
  await expectNoKey(page);
});

test("shows a provider's error verbatim and lists targets without keys", async ({ page, request }) => {
  const original = uniqueGroup("e2e-fork-error");
  await postEvent(request, { type: "message", group_id: original, role: "user", text: "Hello?" });
  const error = { type: "error", error: { type: "overloaded_error", message: "Overloaded" }, request_id: "req_e2e" };
  await enqueueAnswers("e2e-claude", [{ error: { status: 529, body: error } }]);
  await page.goto(`/threads/${original}/forks/new`);
  await page.getByLabel("Model target").selectOption("fake-claude");
  await page.getByRole("button", { name: "Fork and run" }).click();
  await expect(page.getByTestId("fork-status")).toHaveText("failed", { timeout: 20_000 });
  await expect(page.getByTestId("fork-turn-error")).toContainText("The provider answered HTTP 529:");
  await expect(page.getByTestId("fork-turn-error").locator("pre")).toHaveText(JSON.stringify(error));
  await expect(page.getByRole("button", { name: "Continue" })).toBeEnabled();
  await page.screenshot({ path: "test-results/screenshots/fork-error.png", fullPage: true });

  await page.goto("/settings/models");
  const table = page.getByRole("table", { name: "Model targets" });
  await expect(table.getByRole("row")).toHaveCount(6);
  await expect(table.getByRole("row", { name: /unkeyed/ })).toContainText("not set");
  await expect(table.getByRole("row", { name: /fake-chat/ })).toContainText("E2E_FAKE_PROVIDER_KEY");
  await expectNoKey(page);
  await page.screenshot({ path: "test-results/screenshots/settings-models.png", fullPage: true });
});

test("forks after editing a result whose confidence is off the 0.05 grid (0.32)", async ({ page, request }) => {
  const original = uniqueGroup("e2e-fork-confidence");
  await postEvent(request, { type: "message", group_id: original, role: "user", text: "Weather in Oslo?" });
  await registerCall(request, { group_id: original, id: "call_oslo", name: "get_weather", declaration: WEATHER });
  const envelope = {
    success: true,
    data: { city: "Oslo", rain: true },
    confidence: 0.32,
    source: [],
    nextAction: "ask_user",
    error: null,
    meta: { toolName: "get_weather", toolVersion: "1", traceId: "t", durationMs: 5, cached: false },
  };
  await postResult(request, { group_id: original, id: "call_oslo", text: JSON.stringify(envelope) });
  await enqueueAnswers("e2e-chat", [{ text: "Take a coat.", usage: { input: 10, output: 3 } }]);

  await page.goto(`/threads/${original}/forks/new`);
  const result = page.getByTestId("fork-event").filter({ hasText: "call_oslo →" });
  await result.getByRole("button", { name: "Edit result" }).click();
  await page
    .getByLabel("Result text of call_oslo (what the model sees)")
    .fill(JSON.stringify({ ...envelope, data: { city: "Oslo", rain: false } }));
  await expect(page.getByRole("spinbutton", { name: "confidence" })).toHaveValue("0.32");
  await page.getByLabel("Model target").selectOption("fake-chat");
  await page.getByRole("button", { name: "Fork and run" }).click();
  await expect(page.getByRole("heading", { name: "Fork run" })).toBeVisible();
});
