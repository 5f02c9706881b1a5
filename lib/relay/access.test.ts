// Exposed mode (TOOLSCOPE_SECRET set) on a real database, through the Next route files: every in-path endpoint
// refuses a caller without credentials (401) and a key of the wrong scope (403), and lets the right scope through.
// Relaying needs an ingest key (or the callback signature); breakpoints, faults, answers, approval decisions and
// outbox retries need admin; reading held items, rules, the outbox and the audit log needs read; a runtime asking
// for an approval, and waiting for it, needs ingest. Cross-site writes are refused whatever the credential.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as approvalRuleRoute from "../../app/api/approval-rules/[id]/route.ts";
import * as approvalRulesRoute from "../../app/api/approval-rules/route.ts";
import * as approvalDecisionRoute from "../../app/api/approvals/[id]/decision/route.ts";
import * as approvalRoute from "../../app/api/approvals/[id]/route.ts";
import * as approvalsRoute from "../../app/api/approvals/route.ts";
import * as breakpointRoute from "../../app/api/breakpoints/[id]/route.ts";
import * as breakpointsRoute from "../../app/api/breakpoints/route.ts";
import * as answerRoute from "../../app/api/calls/[id]/answer/route.ts";
import * as faultRoute from "../../app/api/faults/[id]/route.ts";
import * as faultsRoute from "../../app/api/faults/route.ts";
import * as heldDecisionRoute from "../../app/api/held/[id]/decision/route.ts";
import * as heldOneRoute from "../../app/api/held/[id]/route.ts";
import * as heldRoute from "../../app/api/held/route.ts";
import * as interventionsRoute from "../../app/api/interventions/route.ts";
import * as outboxRetryRoute from "../../app/api/outbox/[id]/retry/route.ts";
import * as outboxOneRoute from "../../app/api/outbox/[id]/route.ts";
import * as outboxRoute from "../../app/api/outbox/route.ts";
import * as relayRoute from "../../app/api/relay/[name]/route.ts";
import * as relaysRoute from "../../app/api/relays/route.ts";
import { resetConfig } from "../config.ts";
import { resetAuth } from "../access/auth.ts";
import { createKey } from "../access/keys.ts";
import type { KeyScope } from "../access/schemas.ts";
import { readAccessSettings, resetAccessSettings } from "../access/settings.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";

const SECRET = "in-path-access-test-secret-0123456789abcdef";
const ORIGIN = "http://127.0.0.1";

type Handler = (request: Request, context?: { params: Promise<Record<string, string>> }) => Promise<Response>;
type Route = Record<"GET" | "POST" | "PATCH" | "DELETE", Handler>;
type Needs = "ingest" | "read" | "admin";
type Case = { method: "GET" | "POST" | "PATCH" | "DELETE"; path: string; route: Route; needs: Needs; body?: unknown };

const id = { id: "1" };
const CASES: (Case & { params?: Record<string, string> })[] = [
  { method: "POST", path: "/api/relay/rt", route: relayRoute, params: { name: "rt" }, needs: "ingest", body: {} },
  { method: "GET", path: "/api/relays", route: relaysRoute, needs: "read" },
  { method: "GET", path: "/api/breakpoints", route: breakpointsRoute, needs: "read" },
  { method: "POST", path: "/api/breakpoints", route: breakpointsRoute, needs: "admin", body: { name: "b" } },
  { method: "PATCH", path: "/api/breakpoints/1", route: breakpointRoute, params: id, needs: "admin", body: {} },
  { method: "DELETE", path: "/api/breakpoints/1", route: breakpointRoute, params: id, needs: "admin" },
  { method: "GET", path: "/api/faults", route: faultsRoute, needs: "read" },
  { method: "POST", path: "/api/faults", route: faultsRoute, needs: "admin", body: { name: "f" } },
  { method: "PATCH", path: "/api/faults/1", route: faultRoute, params: id, needs: "admin", body: {} },
  { method: "DELETE", path: "/api/faults/1", route: faultRoute, params: id, needs: "admin" },
  { method: "GET", path: "/api/held", route: heldRoute, needs: "read" },
  { method: "GET", path: "/api/held/1", route: heldOneRoute, params: id, needs: "read" },
  { method: "POST", path: "/api/held/1/decision", route: heldDecisionRoute, params: id, needs: "admin", body: {} },
  { method: "GET", path: "/api/interventions", route: interventionsRoute, needs: "read" },
  { method: "POST", path: "/api/approvals", route: approvalsRoute, needs: "ingest", body: {} },
  { method: "GET", path: "/api/approvals", route: approvalsRoute, needs: "read" },
  { method: "GET", path: "/api/approvals/1", route: approvalRoute, params: id, needs: "ingest" },
  {
    method: "POST",
    path: "/api/approvals/1/decision",
    route: approvalDecisionRoute,
    params: id,
    needs: "admin",
    body: {},
  },
  { method: "POST", path: "/api/approval-rules", route: approvalRulesRoute, needs: "admin", body: {} },
  { method: "DELETE", path: "/api/approval-rules/1", route: approvalRuleRoute, params: id, needs: "admin" },
  { method: "POST", path: "/api/calls/1/answer", route: answerRoute, params: id, needs: "admin", body: {} },
  { method: "GET", path: "/api/outbox", route: outboxRoute, needs: "read" },
  { method: "GET", path: "/api/outbox/1", route: outboxOneRoute, params: id, needs: "read" },
  { method: "POST", path: "/api/outbox/1/retry", route: outboxRetryRoute, params: id, needs: "admin" },
];

/** The scopes that reach each level, and the ones that must be refused. */
const ALLOWED: Record<Needs, KeyScope[]> = { ingest: ["ingest", "admin"], read: ["read", "admin"], admin: ["admin"] };
const SCOPES: KeyScope[] = ["ingest", "read", "admin"];

describe.each(testBackends())("in-path endpoints in exposed mode on $provider", (backend) => {
  let t: TestDatabase;
  const keys = {} as Record<KeyScope, string>;

  beforeAll(async () => {
    t = await useTestDatabase(backend);
    process.env.TOOLSCOPE_RELAYS = JSON.stringify([
      { name: "rt", url: "http://127.0.0.1:9/never", mode: "store-and-forward" },
    ]);
    resetConfig();
    resetAccessSettings(readAccessSettings({ TOOLSCOPE_SECRET: SECRET }));
    resetAuth();
    for (const scope of SCOPES) {
      keys[scope] = (await createKey({ name: `k-${scope}`, scope, createdBy: "test", database: t.database })).key;
    }
  });
  afterAll(async () => {
    delete process.env.TOOLSCOPE_RELAYS;
    resetConfig();
    resetAccessSettings();
    resetAuth();
    await t.cleanup();
  });

  async function call(c: Case & { params?: Record<string, string> }, headers: Record<string, string>) {
    const init: RequestInit = { method: c.method, headers: { ...headers } };
    if (c.body !== undefined) {
      init.body = JSON.stringify(c.body);
      (init.headers as Record<string, string>)["content-type"] = "application/json";
    }
    const response = await c.route[c.method](new Request(`${ORIGIN}${c.path}`, init), {
      params: Promise.resolve(c.params ?? {}),
    });
    const text = await response.text();
    return { status: response.status, text };
  }

  it.each(CASES.map((c) => [`${c.method} ${c.path}`, c] as const))(
    "%s: 401 anonymous, 403 wrong scope",
    async (_, c) => {
      const anonymous = await call(c, {});
      expect(anonymous.status, anonymous.text).toBe(401);
      for (const scope of SCOPES) {
        const answer = await call(c, { authorization: `Bearer ${keys[scope]}` });
        if (ALLOWED[c.needs].includes(scope)) {
          expect([401, 403], `${scope} key: ${answer.text}`).not.toContain(answer.status);
        } else {
          expect(answer.status, `${scope} key: ${answer.text}`).toBe(403);
          expect(answer.text).toContain(`has the ${scope} scope`);
        }
      }
    },
  );

  it("a cross-site browser write is refused even with an admin credential", async () => {
    for (const c of CASES.filter((x) => x.method !== "GET" && x.needs === "admin")) {
      const answer = await call(c, { authorization: `Bearer ${keys.admin}`, origin: "http://attacker.example" });
      expect(answer.status, `${c.method} ${c.path}: ${answer.text}`).toBe(403);
    }
  });
});
