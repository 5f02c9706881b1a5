// In the path, as a person supervising an agent uses it: a runtime stand-in (an HTTP server that runs an agent loop
// and waits for its tools' results at its callback_url) behind Toolscope's relay. The loop completes through the
// relay; a breakpoint edit made on the Held page changes what the agent receives; a hand answer on the call page
// completes a call whose tool never answers; an approval denied on the Approvals page stops the tool.
// (kill -9 of a relaying Toolscope mid-burst: lib/relay/durability.test.ts, with spawned servers on both databases.)
import { Webhook } from "standardwebhooks";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { RuntimeStandIn } from "../lib/testing/runtime-stand-in.ts";
import { E2E_RELAY_SECRET, RUNTIME_PORT } from "./support/relay.ts";
import { registerCall, uniqueGroup } from "./support/seed.ts";

const runtime = new RuntimeStandIn();
test.beforeAll(async () => {
  await runtime.start(RUNTIME_PORT);
});
test.afterAll(async () => {
  await runtime.stop();
});

/** What the agent received for one call: the text of the first delivery of each webhook-id, in arrival order. */
function agentReceived(group: string, id: string): string[] {
  return runtime
    .uniqueMessages()
    .filter((m) => m.message.group_id === group && m.message.id === id)
    .map((m) => String(m.message.text));
}

async function toolPosts(request: APIRequestContext, group: string, id: string, text: string) {
  const response = await request.post("/api/relay/e2e-runtime", {
    data: { type: "tool_result", group_id: group, id, text },
  });
  expect(response.status()).toBe(200);
}

test("an agent loop completes through the relay, each result signed and delivered", async ({ request, page }) => {
  const group = uniqueGroup("e2e-relay-loop");
  // The agent: call a tool, wait for its result at the callback URL, decide the next call from it.
  let next = "plan";
  const seen: string[] = [];
  for (let step = 0; step < 3; step++) {
    const id = `step_${step}`;
    await registerCall(request, { group_id: group, id, name: next });
    await toolPosts(request, group, id, step < 2 ? `next: ${["search", "deploy"][step]}` : "done");
    await expect.poll(() => agentReceived(group, id)).toHaveLength(1);
    const text = agentReceived(group, id)[0] ?? "";
    seen.push(text);
    next = text.replace("next: ", "");
  }
  expect(seen).toEqual(["next: search", "next: deploy", "done"]);
  const delivered = runtime.received.find((r) => r.body.toString().includes(group));
  const headers = Object.fromEntries(
    ["webhook-id", "webhook-timestamp", "webhook-signature"].map((name) => [name, String(delivered?.headers[name])]),
  );
  expect(() => new Webhook(E2E_RELAY_SECRET).verify(delivered?.body ?? "", headers)).not.toThrow();

  await page.goto("/deliveries/outbox?status=delivered");
  await expect(page.getByRole("heading", { name: "Outbox", level: 1 })).toBeVisible();
  await expect(page.getByTestId("outbox-row").filter({ hasText: "step_2" }).first()).toBeVisible();
});

test("a breakpoint edit on the Held page changes what the agent receives", async ({ request, page }) => {
  const group = uniqueGroup("e2e-relay-bp");
  await page.goto("/breakpoints");
  const form = page.getByRole("form", { name: "New breakpoint" });
  await form.getByLabel("Name").fill(`hold ${group}`);
  await form.getByLabel("Thread").fill(group);
  await form.getByRole("button", { name: "Add breakpoint" }).click();
  await expect(page.getByTestId("breakpoints-rule").filter({ hasText: `hold ${group}` })).toBeVisible();

  await registerCall(request, { group_id: group, id: "lookup", name: "search" });
  await toolPosts(request, group, "lookup", "3 stale results");
  await page.goto("/held");
  const held = page.getByTestId("held-result").filter({ hasText: "lookup" });
  await expect(held).toBeVisible();
  expect(agentReceived(group, "lookup")).toEqual([]);
  await held.getByRole("button", { name: "Edit…" }).click();
  await held.getByLabel("Result text delivered to the runtime").fill("1 fresh result");
  await held.getByRole("button", { name: "Deliver the edited result" }).click();
  await expect.poll(() => agentReceived(group, "lookup")).toEqual(["1 fresh result"]);
  const decided = page.getByTestId("decided-hold").filter({ hasText: "lookup" }).first();
  await expect(decided.getByTestId("hold-diff")).toContainText("− 3 stale results");
  await expect(decided.getByTestId("hold-diff")).toContainText("+ 1 fresh result");

  await page.goto("/breakpoints");
  const rule = page.getByTestId("breakpoints-rule").filter({ hasText: `hold ${group}` });
  await rule.getByRole("button", { name: "Switch off" }).click();
  await expect(rule.getByText("off", { exact: true })).toBeVisible();
});

test("a hand answer on the call page completes a call whose tool never answers", async ({ request, page }) => {
  const group = uniqueGroup("e2e-relay-answer");
  await registerCall(request, { group_id: group, id: "first", name: "search" });
  await toolPosts(request, group, "first", "the thread's first result"); // the thread's results come through the relay
  await registerCall(request, { group_id: group, id: "silent", name: "slow_tool" });
  const calls = await (await request.get(`/api/calls?thread=${encodeURIComponent(group)}&tool=slow_tool`)).json();
  await page.goto(`/calls/${calls.items[0].id}`);
  const form = page.getByRole("form", { name: "Answer as the tool" });
  await form.getByLabel("Result text").fill("answered by a person: 42");
  await form.getByRole("button", { name: "Send the answer" }).click();
  await expect(form.getByRole("status")).toContainText("e2e-runtime");
  await expect.poll(() => agentReceived(group, "silent")).toEqual(["answered by a person: 42"]);
  await expect(page.getByTestId("interventions")).toContainText("answer by local");
});

test("an approval denied on the Approvals page stops the tool", async ({ request, page }) => {
  const group = uniqueGroup("e2e-relay-approval");
  let toolRan = false;
  // The agent asks before running a dangerous tool and waits for the decision (the typed client's requestApproval).
  const agent = (async () => {
    const asked = await (
      await request.post("/api/approvals", {
        data: { group_id: group, id: "drop", name: "drop_table", arguments: { table: "users" } },
      })
    ).json();
    for (;;) {
      const state = await (await request.get(`/api/approvals/${asked.approval_id}?wait=5`)).json();
      if (state.status === "pending") continue;
      if (state.status === "approved") toolRan = true;
      return state;
    }
  })();
  await page.goto("/approvals");
  const card = page.getByTestId("approval-request").filter({ hasText: "drop_table" });
  await expect(card).toBeVisible();
  await card.getByLabel("Reason (for a denial)").fill("not on production data");
  await card.getByRole("button", { name: "Deny" }).click();
  await expect(agent).resolves.toMatchObject({
    status: "denied",
    reason: "not on production data",
    decided_by: "local",
  });
  expect(toolRan).toBe(false);
  await expect(page.getByTestId("approval-decided").filter({ hasText: "drop_table" })).toContainText("denied");
});
