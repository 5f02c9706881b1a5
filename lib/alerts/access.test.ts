// Exposed mode (TOOLSCOPE_SECRET set) through the Next route files: every alerts endpoint refuses a caller without
// credentials (401) and a key of the wrong scope (403), and lets the right scope through. Rules, their changes and
// test messages need admin; listing rules, the history and the destinations needs read. Cross-site writes are refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as ruleTestRoute from "../../app/api/alert-rules/[id]/test/route.ts";
import * as ruleRoute from "../../app/api/alert-rules/[id]/route.ts";
import * as rulesRoute from "../../app/api/alert-rules/route.ts";
import * as alertRoute from "../../app/api/alerts/[id]/route.ts";
import * as alertsRoute from "../../app/api/alerts/route.ts";
import * as destinationsRoute from "../../app/api/notify-destinations/route.ts";
import { resetAuth } from "../access/auth.ts";
import { createKey } from "../access/keys.ts";
import type { KeyScope } from "../access/schemas.ts";
import { readAccessSettings, resetAccessSettings } from "../access/settings.ts";
import { resetConfig } from "../config.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";

const SECRET = "alerts-access-test-secret-0123456789abcdef";
const ORIGIN = "http://127.0.0.1";

type Handler = (request: Request, context?: { params: Promise<Record<string, string>> }) => Promise<Response>;
type Route = Record<"GET" | "POST" | "PATCH" | "DELETE", Handler>;
type Needs = "read" | "admin";
type Case = { method: keyof Route; path: string; route: Route; needs: Needs; body?: unknown; params?: { id: string } };

const id = { id: "1" };
const CASES: Case[] = [
  { method: "GET", path: "/api/alert-rules", route: rulesRoute, needs: "read" },
  { method: "POST", path: "/api/alert-rules", route: rulesRoute, needs: "admin", body: {} },
  { method: "GET", path: "/api/alert-rules/1", route: ruleRoute, params: id, needs: "read" },
  { method: "PATCH", path: "/api/alert-rules/1", route: ruleRoute, params: id, needs: "admin", body: {} },
  { method: "DELETE", path: "/api/alert-rules/1", route: ruleRoute, params: id, needs: "admin" },
  { method: "POST", path: "/api/alert-rules/1/test", route: ruleTestRoute, params: id, needs: "admin" },
  { method: "GET", path: "/api/alerts", route: alertsRoute, needs: "read" },
  { method: "GET", path: "/api/alerts/1", route: alertRoute, params: id, needs: "read" },
  { method: "GET", path: "/api/notify-destinations", route: destinationsRoute, needs: "read" },
];
const ALLOWED: Record<Needs, KeyScope[]> = { read: ["read", "admin"], admin: ["admin"] };
const SCOPES: KeyScope[] = ["ingest", "read", "admin"];

describe.each(testBackends())("alerts endpoints in exposed mode on $provider", (backend) => {
  let t: TestDatabase;
  const keys = {} as Record<KeyScope, string>;

  beforeAll(async () => {
    t = await useTestDatabase(backend);
    resetConfig();
    resetAccessSettings(readAccessSettings({ TOOLSCOPE_SECRET: SECRET }));
    resetAuth();
    for (const scope of SCOPES)
      keys[scope] = (await createKey({ name: `k-${scope}`, scope, createdBy: "test", database: t.database })).key;
  });
  afterAll(async () => {
    resetConfig();
    resetAccessSettings();
    resetAuth();
    await t.cleanup();
  });

  async function call(c: Case, headers: Record<string, string>) {
    const init: RequestInit = { method: c.method, headers: { ...headers } };
    if (c.body !== undefined) {
      init.body = JSON.stringify(c.body);
      init.headers = { ...headers, "content-type": "application/json" };
    }
    const response = await c.route[c.method](new Request(`${ORIGIN}${c.path}`, init), {
      params: Promise.resolve(c.params ?? {}),
    });
    return { status: response.status, text: await response.text() };
  }

  it.each(CASES.map((c) => [`${c.method} ${c.path}`, c] as const))(
    "%s: 401 anonymous, 403 wrong scope",
    async (_, c) => {
      const anonymous = await call(c, {});
      expect(anonymous.status, anonymous.text).toBe(401);
      for (const scope of SCOPES) {
        const answer = await call(c, { authorization: `Bearer ${keys[scope]}` });
        if (ALLOWED[c.needs].includes(scope))
          expect([401, 403], `${scope} key: ${answer.text}`).not.toContain(answer.status);
        else expect(answer.status, `${scope} key: ${answer.text}`).toBe(403);
      }
    },
  );

  it("the issue's simplest rule is created (201); a bad body is a 422 naming the field", async () => {
    process.env.TOOLSCOPE_NOTIFY = JSON.stringify([{ name: "ops", url: "http://127.0.0.1:9/hook", format: "webhook" }]);
    try {
      const admin = { authorization: `Bearer ${keys.admin}` };
      const body = { name: "deploy failures", when: { event: "result_errored", tool: "deploy" }, notify: ["ops"] };
      const created = await call({ ...CASES[1], body } as Case, admin);
      expect(created.status, created.text).toBe(201);
      expect(JSON.parse(created.text)).toMatchObject({
        name: "deploy failures",
        enabled: true,
        when: { event: "result_errored", tool: "deploy" },
        notify: ["ops"],
        cooldownMs: 300_000,
        description: "a result is an error (tool deploy)",
        lastAlert: null,
      });
      const bad = await call({ ...CASES[1], body: { ...body, when: { event: "low_confidence" } } } as Case, admin);
      expect(bad.status).toBe(422);
      expect(JSON.parse(bad.text)).toMatchObject({ error: { code: "invalid", path: "when.below" } });
    } finally {
      delete process.env.TOOLSCOPE_NOTIFY;
    }
  });

  it("a cross-site browser write is refused even with an admin credential", async () => {
    for (const c of CASES.filter((x) => x.method !== "GET")) {
      const answer = await call(c, { authorization: `Bearer ${keys.admin}`, origin: "http://attacker.example" });
      expect(answer.status, `${c.method} ${c.path}: ${answer.text}`).toBe(403);
    }
  });
});
