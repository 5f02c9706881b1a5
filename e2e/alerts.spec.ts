// Alerts as an on-call engineer sets them up: a rule created on the Alerts page, an errored result, the signed
// webhook arriving at a local receiver (verified with the standardwebhooks reference library), the alert in the
// history linking to the call, and "send a test" from the rule's row.
import { Webhook } from "standardwebhooks";
import { expect, test } from "@playwright/test";
import { RuntimeStandIn } from "../lib/testing/runtime-stand-in.ts";
import { ALERTS_RECEIVER_PORT, E2E_ALERTS_SECRET } from "./support/alerts.ts";
import { postResult, registerCall, uniqueGroup } from "./support/seed.ts";

const receiver = new RuntimeStandIn();
test.beforeAll(async () => {
  await receiver.start(ALERTS_RECEIVER_PORT);
});
test.afterAll(async () => {
  await receiver.stop();
});

type Payload = { kind: string; title: string; count: number; rule: { name: string }; calls: { id: string }[] };
const received = (ruleName: string) =>
  receiver.received
    .filter((delivery) => delivery.path === "/callback/ops")
    .map((delivery) => ({ delivery, payload: JSON.parse(delivery.body.toString()) as Payload }))
    .filter(({ payload }) => payload.rule.name === ruleName);

test("a rule made on the page fires on an errored result: signed webhook, history, link to the call", async ({
  page,
  request,
}) => {
  const group = uniqueGroup("e2e-alerts");
  const tool = `deploy_${group.slice(-8)}`;
  const ruleName = `deploy failures ${group}`;

  await page.goto("/alerts");
  await expect(page.getByRole("heading", { name: "Alerts", level: 1 })).toBeVisible();
  const form = page.getByRole("form", { name: "New alert rule" });
  await form.getByLabel("Name", { exact: true }).fill(ruleName);
  await form.getByLabel("When").selectOption("result_errored");
  await form.getByLabel("Tool", { exact: true }).fill(tool);
  await expect(form.getByLabel("e2e-ops (webhook)")).toBeChecked();
  await form.getByRole("button", { name: "Add alert rule" }).click();
  const row = page.getByTestId("alert-rule").filter({ hasText: ruleName });
  await expect(row).toContainText("never fired");

  await registerCall(request, { group_id: group, id: "call_1", name: tool });
  await postResult(request, { group_id: group, id: "call_1", text: "Error: rollout failed" });
  await expect.poll(() => received(ruleName).length, { timeout: 15_000 }).toBe(1);
  const [first] = received(ruleName);
  if (!first) throw new Error("no alert arrived");
  const { delivery, payload } = first;
  const headers = Object.fromEntries(
    ["webhook-id", "webhook-timestamp", "webhook-signature"].map((name) => [name, String(delivery.headers[name])]),
  );
  expect(() => new Webhook(E2E_ALERTS_SECRET).verify(delivery.body, headers)).not.toThrow();
  expect(payload).toMatchObject({ kind: "first", count: 1, calls: [{ id: "call_1" }] });

  await page.goto("/alerts/history");
  const alert = page.getByTestId("alert-row").filter({ hasText: ruleName }).first();
  await expect(alert).toContainText(`${ruleName}: 1 result errored (tool ${tool})`);
  await expect(alert).toContainText("delivered");
  await alert.getByRole("link", { name: `${tool} call_1` }).click();
  await expect(page).toHaveURL(/\/calls\/\d+$/);

  await page.goto("/alerts");
  await expect(row).toContainText("last sent");
  await row.getByRole("button", { name: "Send a test" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Test message queued" })).toBeVisible();
  await expect.poll(() => received(ruleName).map(({ payload: sent }) => sent.kind)).toEqual(["first", "test"]);
});
