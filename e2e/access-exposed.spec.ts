// Exposed mode end to end in Chromium (the second server of playwright.config.ts, TOOLSCOPE_SECRET set): pages
// send visitors to sign-in; the first admin is made on the one-time setup page; an API key is created on the
// settings page (shown once), works, is revoked there and stops working; sign-out and sign-in again.
import { expect, request as playwrightRequest, test } from "@playwright/test";
import { EXPOSED_SETUP_TOKEN, EXPOSED_URL } from "./support/exposed.ts";

const EMAIL = "admin@example.com";
const PASSWORD = "a long enough e2e password";

test("sign-in, API key create and revoke, sign-out in exposed mode", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: EXPOSED_URL });
  const page = await context.newPage();
  const api = await playwrightRequest.newContext({ baseURL: EXPOSED_URL });

  // No session: pages redirect to sign-in, APIs answer 401 in the one error shape, health says only "ok".
  await page.goto("/threads");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fthreads$/);
  await expect(page.getByRole("heading", { name: "Sign in to Toolscope" })).toBeVisible();
  // Before sign-in: the brand, no navigation into pages the visitor cannot open, nobody signed in.
  await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
  await expect(page.getByTestId("signed-in-as")).toHaveCount(0);
  const anonymous = await api.get("/api/threads");
  expect(anonymous.status()).toBe(401);
  expect((await anonymous.json()).error.code).toBe("unauthorized");
  expect(Object.keys(await (await api.get("/api/health")).json()).sort()).toEqual(["migrations", "status"]);

  // The one-time setup page creates the first admin and signs them in.
  await page.goto("/setup");
  await expect(page.getByText("Open the setup link the server printed")).toBeVisible();
  await page.goto(`/setup?token=${EXPOSED_SETUP_TOKEN}`);
  await page.getByLabel("Email").fill(EMAIL);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByRole("button", { name: "Create the first admin" }).click();
  await expect(page).toHaveURL(/\/settings\/access$/);
  await expect(page.getByRole("heading", { name: "Access" })).toBeVisible();
  const cookies = await context.cookies();
  const session = cookies.find((cookie) => cookie.name === "toolscope.session_token");
  expect(session?.httpOnly).toBe(true);
  expect(session?.sameSite).toBe("Lax");
  await page.goto("/setup");
  await expect(page.getByRole("heading", { name: "Setup is closed" })).toBeVisible();

  // Signed in: the header says who, with sign-out beside it; the navigation includes Model targets; the overview
  // does not print the database's location to every signed-in user.
  await expect(page.getByTestId("signed-in-as")).toContainText(`Signed in as ${EMAIL}`);
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Model targets" }),
  ).toHaveAttribute("href", "/settings/models");
  await page.goto("/");
  await expect(page.getByTestId("database-provider")).toHaveText("SQLite");
  await expect(page.getByTestId("database-location")).toHaveCount(0);

  // Create an ingest key on the settings page: shown once, then it authenticates a runtime.
  await page.goto("/settings/access");
  await page.getByLabel("Name").fill("e2e-runner");
  await page.getByLabel("Scope").selectOption("ingest");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = (await page.getByTestId("new-key").locator("pre").textContent())?.trim() ?? "";
  expect(key).toMatch(/^tsk_/);
  const row = page.getByRole("row", { name: /e2e-runner/ });
  await expect(row).toContainText("never");
  const group = `e2e-exposed-${Date.now()}`;
  const register = () =>
    api.post("/api/events", {
      headers: { authorization: `Bearer ${key}` },
      data: { type: "tool_call", group_id: group, id: "c1", name: "search" },
    });
  expect((await register()).status()).toBe(201);
  expect((await api.get("/api/threads", { headers: { authorization: `Bearer ${key}` } })).status()).toBe(403);
  await page.reload();
  await expect(page.getByRole("row", { name: /e2e-runner/ })).not.toContainText("never");
  await expect(page.getByTestId("new-key")).toHaveCount(0);

  // Revoke it on the page: the next request with it is 401.
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Revoke e2e-runner" }).click();
  await expect(page.getByRole("row", { name: /e2e-runner/ })).toContainText("revoked");
  const revoked = await register();
  expect(revoked.status()).toBe(401);
  expect((await revoked.json()).error.message).toContain("revoked");

  // The signed-in user sees the thread the key created.
  await page.goto(`/threads/${group}`);
  await expect(page).toHaveURL(new RegExp(`/threads/${group}$`));

  // Sign out: pages redirect again; sign in through the form, landing on the page asked for.
  await page.goto("/settings/access");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.goto("/deliveries");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fdeliveries$/);
  await page.getByLabel("Email").fill(EMAIL);
  await page.getByLabel("Password").fill("wrong password entirely");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: /invalid email or password/i })).toBeVisible();
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/deliveries$/);
  await expect(page.getByRole("heading", { name: "Deliveries", level: 1 })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/exposed-deliveries.png", fullPage: true });
  await page.goto("/settings/access");
  await page.screenshot({ path: "test-results/screenshots/exposed-access.png", fullPage: true });

  // A crafted sign-in link never leads off this origin: the URL parser drops tabs and newlines and reads "\" as
  // "/", so "/<TAB>/evil.example" is "//evil.example" once navigated to.
  const foreign: string[] = [];
  await context.route(/^https?:\/\/evil\.example\//, (route) => {
    foreign.push(route.request().url());
    return route.fulfill({ status: 200, contentType: "text/plain", body: "phished" });
  });
  for (const next of ["/\t/evil.example/", "/\n/evil.example/", "/\\evil.example/", "//evil.example/"]) {
    await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
    await page.getByLabel("Email").fill(EMAIL);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page, JSON.stringify(next)).toHaveURL(`${EXPOSED_URL}/`);
  }
  expect(foreign).toEqual([]);
  await api.dispose();
  await context.close();
});

test("a mis-cased API path (/API/callback) answers a JSON 404 naming /api/callback, not a redirect to sign-in", async () => {
  const api = await playwrightRequest.newContext({ baseURL: EXPOSED_URL });
  for (const [method, path, use] of [
    ["POST", "/API/callback", "/api/callback"],
    ["GET", "/Api/threads", "/api/threads"],
    ["POST", "/V1/traces", "/v1/traces"],
  ] as const) {
    const answer = await api.fetch(path, { method, data: {}, maxRedirects: 0 });
    expect(answer.status(), `${method} ${path}`).toBe(404);
    expect(answer.headers()["content-type"], path).toContain("application/json");
    expect(await answer.json(), path).toMatchObject({ error: { code: "not_found", details: { use } } });
  }
  // A page path is still a page: without a session it goes to sign-in.
  expect((await api.get("/Threads", { maxRedirects: 0 })).status()).toBe(303);
  await api.dispose();
});
