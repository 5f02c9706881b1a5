// Issue 9 points 4 and 6 in Chromium against a production build:
// - an import that plants an "accepted" delivery with an invented remote address, webhook id and back-dated time
//   is shown as imported (API and page), its claims only as "reported by the import", and filtered apart;
// - /calls/N, /threads/G/replay, /threads/G and /compare carry no secret value in their HTML or RSC payload;
//   one value is revealed on request, the reveal is recorded and listed; "Copy original" still copies the exact text.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { findCallRowId, postResult, registerCall, uniqueGroup } from "./support/seed.ts";

const ANTHROPIC = "sk-ant-api03-Zq8vN2xR7tYp4LmK9sWbC3dF6gHjQe1u";
const AWS = "AKIAIOSFODNN7EXAMPLE";
const GITHUB = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
const SECRETS = [ANTHROPIC, AWS, GITHUB];
const RESULT_TEXT = `ANTHROPIC_API_KEY=${ANTHROPIC}\nAWS_ACCESS_KEY_ID=${AWS}\n`;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The page as HTML and as the RSC payload a client navigation fetches: neither may hold a secret value. */
async function expectNoSecretServed(request: APIRequestContext, path: string) {
  const variants: Record<string, string>[] = [{}, { RSC: "1" }];
  for (const headers of variants) {
    const response = await request.get(path, { headers });
    expect(response.status(), `${path} ${JSON.stringify(headers)}`).toBe(200);
    const body = await response.text();
    if ("RSC" in headers) expect(response.headers()["content-type"]).toContain("text/x-component");
    for (const secret of SECRETS)
      expect(body, `${path} ${JSON.stringify(headers)} holds ${secret.slice(0, 8)}…`).not.toContain(
        secret.slice(0, 12),
      );
  }
}

test("an imported audit row never passes for a received one", async ({ page, request }) => {
  const live = uniqueGroup("e2e-live");
  const planted = uniqueGroup("e2e-planted");
  await registerCall(request, { group_id: live, id: "c1", name: "lookup" });
  await postResult(request, { group_id: live, id: "c1", text: "observed" });
  const exported = await (await request.get(`/api/threads/${live}/export`)).text();
  const forged = exported
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const record: unknown = JSON.parse(line);
      if (!isRecord(record)) throw new Error("bad export line");
      if (record.kind === "toolscope-export") record.group_id = planted;
      if (record.kind === "delivery")
        Object.assign(record, {
          remote_address: "203.0.113.66",
          webhook_id: "msg_forged_2Zc9",
          received_at: "2019-03-04T05:06:07.000Z",
        });
      return `${JSON.stringify(record)}\n`;
    })
    .join("");
  const imported = await request.post("/api/import", {
    data: forged,
    headers: { "content-type": "application/x-ndjson" },
  });
  expect(imported.status()).toBe(201);

  const api = await (await request.get(`/api/deliveries?group=${planted}`)).json();
  expect(api.items).toHaveLength(1);
  expect(api.items[0]).toMatchObject({
    outcome: "accepted",
    origin: "imported",
    receivedAt: null,
    remoteAddress: null,
    webhookId: null,
    imported: {
      by: "local",
      reported: { receivedAt: "2019-03-04T05:06:07.000Z", remoteAddress: "203.0.113.66", webhookId: "msg_forged_2Zc9" },
    },
  });
  const received = await (await request.get(`/api/deliveries?group=${live}&origin=received`)).json();
  expect(
    received.items.map((row: { origin: string; remoteAddress: string | null }) => [
      row.origin,
      row.remoteAddress !== null,
    ]),
  ).toEqual([["received", true]]);
  expect((await (await request.get(`/api/deliveries?group=${planted}&origin=received`)).json()).items).toEqual([]);

  await page.goto(`/deliveries?group=${planted}`);
  const row = page.getByTestId("delivery-row");
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("imported-badge")).toHaveText("imported");
  await row.getByRole("button", { name: /Body/ }).click();
  const provenance = page.getByTestId("imported-provenance");
  await expect(provenance).toContainText("by local");
  await expect(provenance).toContainText(
    "reported by the import (not observed): received 2019-03-04T05:06:07.000Z from 203.0.113.66 · webhook-id msg_forged_2Zc9",
  );
  await expect(page.getByText(/received 2019-03-04T05:06:07\.000Z from/)).toHaveCount(1);

  await page.getByLabel("Source").selectOption("received");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/origin=received/);
  await expect(page.getByText("No delivery matches these filters")).toBeVisible();
  await page.goto(`/deliveries?group=${live}&origin=received`);
  await expect(page.getByTestId("delivery-row")).toHaveCount(1);
  await expect(page.getByTestId("imported-badge")).toHaveCount(0);
});

test("pages and their RSC payloads carry masked secrets; one value is revealed on request and recorded", async ({
  page,
  request,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const group = uniqueGroup("e2e-secrets");
  const other = uniqueGroup("e2e-secrets-b");
  await registerCall(request, {
    group_id: group,
    id: "env",
    name: "read_env",
    arguments: JSON.stringify({ token: GITHUB }),
  });
  const posted = await postResult(request, { group_id: group, id: "env", text: RESULT_TEXT });
  await registerCall(request, { group_id: other, id: "env", name: "read_env", arguments: "{}" });
  await postResult(request, { group_id: other, id: "env", text: `ANTHROPIC_API_KEY=${ANTHROPIC}` });
  const callRowId = await findCallRowId(request, group, "env");

  for (const path of [
    `/calls/${callRowId}`,
    `/threads/${group}/replay`,
    `/threads/${group}`,
    `/compare?a=${group}&b=${other}`,
  ])
    await expectNoSecretServed(request, path);
  const deliveries = await (await request.get(`/api/deliveries?group=${group}`)).json();
  const body = await (await request.get(`/api/deliveries/${deliveries.items[0].id}/body`)).text();
  for (const secret of SECRETS) expect(body).not.toContain(secret);
  // The audit copies stay exact.
  expect(await (await request.get(`/api/results/${String(posted.body.result_id)}/text`)).text()).toBe(RESULT_TEXT);
  expect(await (await request.get(`/api/threads/${group}/export`)).text()).toContain(ANTHROPIC);

  await page.goto(`/calls/${callRowId}`);
  await expect(page.getByLabel("Raw result text")).toContainText("sk-a…[masked anthropic_key #");
  const panel = page.getByTestId("secrets-panel").first();
  await expect(panel.getByTestId("masked-secret")).toHaveCount(3);
  const anthropic = panel.getByTestId("masked-secret").filter({ hasText: "anthropic key" });
  await anthropic.getByRole("button", { name: /Reveal/ }).click();
  await expect(anthropic.getByTestId("revealed-value")).toHaveText(ANTHROPIC);
  await expect(anthropic.getByTestId("reveal-record")).toContainText("recorded: local at");
  // Only the value asked for: the others stay masked on the page.
  await expect(page.locator("body")).not.toContainText(AWS);

  // "Copy original" copies the exact text from the byte-exact route.
  await page.getByRole("button", { name: "Copy original" }).click();
  await expect(page.getByText(/Copied the original text/)).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(RESULT_TEXT);

  await page.goto("/settings/access-log");
  const reveal = page.getByTestId("access-record").filter({ hasText: "revealed a masked value" }).first();
  await expect(reveal).toContainText("local");
  await expect(reveal).toContainText(/result:\d+/);
  await expect(reveal).toContainText(/anthropic_key \[\d+,\d+\) sha256:[0-9a-f]{12}/);
  await expect(page.getByTestId("access-log")).not.toContainText(ANTHROPIC);
  await expect(page.getByTestId("access-record").filter({ hasText: "exported" }).first()).toContainText(
    `thread:${group}`,
  );

  // The replay page reveals a value of the thread too.
  await page.goto(`/threads/${group}/replay`);
  const github = page.getByTestId("masked-secret").filter({ hasText: "github token" });
  await github.getByRole("button", { name: /Reveal/ }).click();
  await expect(github.getByTestId("revealed-value")).toHaveText(GITHUB);
});
