// The fork run page against each of the other three APIs' real streaming wire formats (the full flow runs on
// OpenAI Chat in forks.spec.ts): the answer streams in, the model's parallel calls appear, and one answered
// from the recording lets Continue finish the run.
import { expect, test } from "@playwright/test";
import { enqueueAnswers } from "./support/fake-provider.ts";
import { postEvent, postResult, registerCall, uniqueGroup } from "./support/seed.ts";

const TARGETS = [
  { target: "fake-responses", model: "e2e-responses" },
  { target: "fake-claude", model: "e2e-claude" },
  { target: "fake-gemini", model: "e2e-gemini" },
];

for (const { target, model } of TARGETS) {
  test(`forks to ${target}: streamed answer, parallel calls, recording, Continue`, async ({ page, request }) => {
    const original = uniqueGroup(`e2e-fork-${target}`);
    await postEvent(request, {
      type: "message",
      group_id: original,
      role: "user",
      text: "What is the weather in Oslo?",
    });
    await registerCall(request, {
      group_id: original,
      id: "call_oslo",
      name: "get_weather",
      arguments: '{"city":"Oslo"}',
      step: 0,
    });
    const envelope = JSON.stringify({
      success: true,
      data: { city: "Oslo", snow: true },
      confidence: 0.9,
      nextAction: "continue",
      error: null,
    });
    await postResult(request, { group_id: original, id: "call_oslo", text: envelope });
    await enqueueAnswers(model, [
      {
        text: "Checking Oslo and Bergen side by side.",
        reasoning: "Two cities, two calls.",
        toolCalls: [
          { name: "get_weather", arguments: { city: "Oslo" } },
          { name: "get_weather", arguments: { city: "Bergen" } },
        ],
        delayMs: 20,
      },
      { text: "Snow in Oslo, rain in Bergen." },
    ]);
    await page.goto(`/threads/${original}/forks/new?step=3`);
    // The envelope's fields, edited in place: the model will see a low-confidence failure.
    await page
      .getByTestId("fork-event")
      .filter({ hasText: "call_oslo →" })
      .getByRole("button", { name: "Edit result" })
      .click();
    const fields = page.getByRole("group", { name: "Envelope of call_oslo" });
    await fields.getByLabel("success").uncheck();
    await fields.getByLabel("confidence").fill("0.3");
    await fields.getByLabel("nextAction").selectOption("ask_user");
    await fields.getByLabel("error type").selectOption("timeout");
    const edited = JSON.parse(await page.getByLabel("Result text of call_oslo (what the model sees)").inputValue());
    expect(edited).toEqual({
      success: false,
      data: { city: "Oslo", snow: true },
      confidence: 0.3,
      nextAction: "ask_user",
      error: { message: "", type: "timeout" },
    });
    await page.screenshot({ path: `test-results/screenshots/fork-envelope-${target}.png` });
    await page.getByLabel("Model target").selectOption(target);
    await page.getByRole("button", { name: "Fork and run" }).click();
    const turn = page.getByTestId("fork-turn").first();
    await expect(turn.getByTestId("fork-turn-status")).toHaveText("completed", { timeout: 20_000 });
    await expect(turn.getByTestId("fork-turn-text")).toHaveText("Checking Oslo and Bergen side by side.");
    await expect(page.getByTestId("fork-call")).toHaveCount(2);
    await page
      .getByTestId("fork-call")
      .filter({ hasText: "Oslo" })
      .getByRole("button", { name: "Answer from the recording" })
      .click();
    const bergen = page.getByTestId("fork-call").filter({ hasText: "Bergen" });
    await bergen.getByLabel(/by hand/).fill("rain");
    await bergen.getByRole("button", { name: "Answer by hand" }).click();
    await expect(bergen.getByTestId("fork-call-answered-by")).toHaveText("typed by hand");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByTestId("fork-status")).toHaveText("finished (no tool called)", { timeout: 20_000 });
    await expect(page.getByTestId("fork-turn").nth(1).getByTestId("fork-turn-text")).toHaveText(
      "Snow in Oslo, rain in Bergen.",
    );
  });
}
