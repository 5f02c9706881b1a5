// Fidelity as a person sees it: images and documents of imported results, MCP tool hints marked untrusted, an
// oauth request, digits beyond 2^53, and the warning when a replay had to add a placeholder turn.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { anthropicStream, asServerSentEvents } from "../lib/formats/fixtures/stream-captures.ts";
import { anthropicRequest } from "../lib/replay/fixtures/vendor-requests.ts";
import { findCallRowId, registerCall, uniqueGroup } from "./support/seed.ts";

const SCREENSHOTS = "test-results/screenshots";

async function importText(
  request: APIRequestContext,
  text: string,
  groupId: string,
  contentType = "application/json",
): Promise<void> {
  const response = await request.post(`/api/import?group_id=${encodeURIComponent(groupId)}`, {
    data: text,
    headers: { "content-type": contentType },
  });
  expect(response.status(), await response.text()).toBe(201);
}

test("an imported Anthropic result shows its image and documents", async ({ page, request }) => {
  const groupId = uniqueGroup("e2e-content");
  await importText(request, JSON.stringify(anthropicRequest), groupId);
  await page.goto(`/calls/${await findCallRowId(request, groupId, "toolu_01Site7")}`);
  const content = page.getByTestId("vendor-content");
  await expect(content).toBeVisible();
  await expect(content.getByRole("img", { name: "Image 2 of the result (image/png)" })).toBeVisible();
  await expect(content).toContainText("report-7.pdf");
  await expect(content).toContainText("Crack on pillar B.");
  await content.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENSHOTS}/fidelity-content.png`, fullPage: true });
});

test("MCP tool title and annotations are shown as untrusted hints; big integers keep their digits", async ({
  page,
  request,
}) => {
  const groupId = uniqueGroup("e2e-mcp");
  const log = [
    '{"direction":"client->server","message":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}}',
    '{"direction":"server->client","message":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"everything","version":"2.0.0"}}}}',
    '{"direction":"client->server","message":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}',
    '{"direction":"server->client","message":{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"delete_order","title":"Delete Order","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":false,"destructiveHint":true}}]}}}',
    '{"direction":"client->server","message":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"delete_order","arguments":{"order_id":12345678901234567890}}}}',
    '{"direction":"server->client","message":{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"deleted"}],"structuredContent":{"deleted":true}}}}',
  ].join("\n");
  await importText(request, log, groupId, "application/x-ndjson");
  await page.goto(`/calls/${await findCallRowId(request, groupId, "mcp-2")}`);
  const hints = page.getByTestId("tool-hints");
  await expect(hints).toContainText("untrusted");
  await expect(hints).toContainText("Delete Order");
  await expect(hints).toContainText("destructive — may destroy or overwrite");
  await expect(page.getByRole("region", { name: "Arguments" }).or(page.locator(".arguments-view"))).toContainText(
    "12345678901234567890",
  );
  await expect(page.getByTestId("mcp-warning")).toContainText("structuredContent has no TextContent serialization");
  await page.screenshot({ path: `${SCREENSHOTS}/fidelity-mcp-hints.png`, fullPage: true });

  // Replayed into Gemini, the log starts with a model turn: a placeholder user turn is added, and said so.
  await page.goto(`/threads/${encodeURIComponent(groupId)}/replay?vendor=gemini`);
  await expect(page.getByTestId("replay-adjustments")).toContainText("placeholder user turn");
  await expect(page.getByTestId("replay-json")).toContainText('"order_id": 12345678901234567890');
  await page.screenshot({ path: `${SCREENSHOTS}/fidelity-replay-adjustments.png`, fullPage: true });
});

test("a raw text/event-stream capture imports as whole calls", async ({ request }) => {
  const groupId = uniqueGroup("e2e-sse");
  const sse = asServerSentEvents(anthropicStream, (event) =>
    "type" in event && typeof event.type === "string" ? event.type : undefined,
  );
  const response = await request.post(`/api/import?group_id=${encodeURIComponent(groupId)}`, {
    data: sse,
    headers: { "content-type": "text/event-stream" },
  });
  expect(response.status(), await response.text()).toBe(201);
  expect(await response.json()).toMatchObject({ format: "anthropic", counts: { calls: 2, issues: 0 } });
  const replay = await request.get(`/api/threads/${encodeURIComponent(groupId)}/replay?vendor=anthropic`);
  expect(await replay.text()).toContain('"order":12345678901234567890');
});

test("an oauth message settles the call and shows the URL to follow", async ({ page, request }) => {
  const groupId = uniqueGroup("e2e-oauth");
  const call = await registerCall(request, { group_id: groupId, id: "call_repo", name: "create_repo" });
  const response = await request.post("/api/callback", {
    data: {
      type: "oauth",
      group_id: call.groupId,
      id: call.id,
      call_id: null,
      auth_url: "https://github.com/login/oauth/authorize?client_id=abc&state=e2e",
    },
  });
  expect(response.status()).toBe(200);
  await page.goto(`/calls/${await findCallRowId(request, groupId, "call_repo")}`);
  await expect(page.getByRole("heading", { name: "Authorization requested" })).toBeVisible();
  await expect(page.getByTestId("oauth-url")).toHaveAttribute(
    "href",
    "https://github.com/login/oauth/authorize?client_id=abc&state=e2e",
  );
  await expect(page.locator('[data-status="auth_required"]').first()).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}/fidelity-oauth.png`, fullPage: true });
});
