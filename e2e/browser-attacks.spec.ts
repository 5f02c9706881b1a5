// A page on another origin attacks the local-mode Toolscope from a real Chromium: a no-cors fetch with a
// text/plain body, a <form enctype="text/plain">, a urlencoded form, and reads. Nothing is created. Then the
// main pages load under the nonce CSP without a single violation.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";

const ATTACKER_PORT = Number(process.env.E2E_PORT ?? 3210) + 3;

/** An OpenAI Chat transcript with one tool call and its result: what the attacker tries to plant. */
const TRANSCRIPT = JSON.stringify({
  messages: [
    { role: "user", content: "Weather in Oslo?" },
    {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"location":"Oslo"}' } },
      ],
    },
    { role: "tool", tool_call_id: "call_1", content: "planted" },
  ],
});
/** What `<form enctype="text/plain">` sends for the attacker's one field: `name=value`, a JSON document. */
const FORM_NAME = `${TRANSCRIPT.slice(0, -2)},{"role":"user","content":"`;
const FORM_VALUE = '"}]}';

function attackerPage(target: string, group: string): string {
  const importUrl = `${target}/api/import?group_id=${group}`;
  const line = TRANSCRIPT;
  return `<!doctype html><html><body>
<form id="plain" method="POST" enctype="text/plain" action="${importUrl}-form" target="sink"><input name='${FORM_NAME}' value='${FORM_VALUE}'></form>
<form id="urlencoded" method="POST" action="${target}/api/events" target="sink"><input name="type" value="tool_call"><input name="group_id" value="${group}-urlencoded"></form>
<iframe name="sink"></iframe>
<script>
window.attack = async () => {
  const results = {};
  try { await fetch(${JSON.stringify(importUrl)} + "-fetch", { method: "POST", mode: "no-cors", headers: { "content-type": "text/plain" }, body: ${JSON.stringify(line)} }); results.fetch = "sent"; } catch (e) { results.fetch = String(e); }
  try { await fetch(${JSON.stringify(`${target}/api/events`)}, { method: "POST", mode: "no-cors", body: ${JSON.stringify(line)} }); results.events = "sent"; } catch (e) { results.events = String(e); }
  try { const r = await fetch(${JSON.stringify(`${target}/api/threads`)}); results.read = await r.text(); } catch (e) { results.read = "blocked"; }
  document.getElementById("plain").submit();
  await new Promise((r) => setTimeout(r, 500));
  document.getElementById("urlencoded").submit();
  await new Promise((r) => setTimeout(r, 500));
  return results;
};
</script></body></html>`;
}

test("a page on another origin creates nothing through fetch or forms", async ({ page, request, baseURL }) => {
  const group = `e2e-attack-${Date.now()}`;
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(attackerPage(baseURL ?? "", group));
  });
  await new Promise<void>((resolve) => server.listen(ATTACKER_PORT, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    // "localhost" is another origin than 127.0.0.1 for the browser (and a loopback name for Toolscope).
    await page.goto(`http://localhost:${port}/`);
    // Both forms' answers (refusals), so that the check below runs after the server has seen them.
    const formsAnswered = Promise.all([
      page.waitForResponse(
        (response) =>
          response.url().includes(`group_id=${group}-form`) && response.request().resourceType() === "document",
      ),
      page.waitForResponse(
        (response) =>
          new URL(response.url()).pathname === "/api/events" && response.request().resourceType() === "document",
      ),
    ]);
    const results = await page.evaluate(() =>
      (window as unknown as { attack: () => Promise<Record<string, string>> }).attack(),
    );
    expect(results.fetch).toBe("sent");
    expect(results.read).toBe("blocked");
    const answers = await formsAnswered;
    expect(answers.map((response) => response.status() >= 400)).toEqual([true, true]);
  } finally {
    server.close();
  }
  const threads = await (await request.get("/api/threads?limit=200")).json();
  const planted = (threads.threads as { groupId: string }[]).filter((thread) => thread.groupId.startsWith(group));
  expect(planted).toEqual([]);
  const deliveries = await (await request.get("/api/deliveries")).json();
  expect(JSON.stringify(deliveries)).not.toContain(group);

  // The form's very body, sent as Toolscope's own page sends an upload, is imported: the refusals were about the attack.
  const legit = await request.post(`/api/import?group_id=${group}-legit`, {
    headers: { "content-type": "application/json" },
    data: `${FORM_NAME}=${FORM_VALUE}`,
  });
  expect(legit.status(), await legit.text()).toBeLessThan(300);
});

test("the main pages run under a nonce CSP without 'unsafe-inline' scripts and report no violation", async ({
  page,
}) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to (execute|load)/i.test(message.text())) violations.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) =>
      console.error(`Refused to execute: CSP violation ${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  for (const path of [
    "/",
    "/threads",
    "/pending",
    "/deliveries",
    "/insights",
    "/import",
    "/compare",
    "/subscriptions",
    "/settings/access",
    "/settings/models",
  ]) {
    const response = await page.goto(path);
    const csp = response?.headers()["content-security-policy"] ?? "";
    expect(csp, path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    expect(csp, path).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    await expect(page.locator("main")).toBeVisible();
  }
  // Client-side navigation and hydration work (scripts ran): the nav link marks the current page.
  await page.getByRole("link", { name: "Threads" }).click();
  await expect(page.getByRole("link", { name: "Threads" })).toHaveAttribute("aria-current", "page");
  expect(violations).toEqual([]);
});
