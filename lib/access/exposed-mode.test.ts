// Exposed mode (TOOLSCOPE_SECRET set) on a real database: the ingest paths through a real server process
// (keys made by the CLI, scopes, revocation, the callback's signature alternative, Host and Origin checks),
// and the Next routes in-process: read/admin scopes, sign-in and sign-out through Better Auth, the settings API.
import { spawnSync, type ChildProcess } from "node:child_process";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as authRoute from "../../app/api/auth/[...all]/route.ts";
import * as healthRoute from "../../app/api/health/route.ts";
import * as importRoute from "../../app/api/import/route.ts";
import * as keysRoute from "../../app/api/keys/route.ts";
import * as threadsRoute from "../../app/api/threads/route.ts";
import { openDatabase, setDatabase, type Database } from "../db/client.ts";
import { resolveDatabaseTarget } from "../db/database-url.ts";
import { signatureHeaders } from "../ingest/webhook-signature.ts";
import { uniqueId } from "../testing/factories.ts";
import { nodeScriptArgs } from "../testing/node-command.ts";
import { startCallbackServer } from "../testing/spawn-server.ts";
import { testBackends, useTestDatabase, type TestDatabase } from "../testing/test-databases.ts";
import { resetAuth } from "./auth.ts";
import { createKey, revokeKey } from "./keys.ts";
import { readAccessSettings, resetAccessSettings } from "./settings.ts";
import { addUser } from "./users.ts";

const SECRET = "exposed-mode-test-secret-0123456789abcdef";
const CALLBACK_SECRET = "whsec_dGVzdC1jYWxsYmFjay1zZWNyZXQtMDEyMzQ1Njc4OQ==";
const ORIGIN = "http://127.0.0.1";

function cli(databaseUrl: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, nodeScriptArgs("scripts/toolscope.ts", ...args), {
    env: { ...process.env, DATABASE_URL: databaseUrl, TOOLSCOPE_SECRET: SECRET },
    encoding: "utf8",
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

type Answer = { status: number; body: { error?: { code: string; message: string } } & Record<string, unknown> };

async function answer(response: Response): Promise<Answer> {
  return { status: response.status, body: (await response.json()) as Answer["body"] };
}

describe.each(testBackends())("exposed mode on $provider", (backend) => {
  let t: TestDatabase;
  let child: ChildProcess;
  let base = "";
  let ingestKey = "";
  let readKey = "";
  let adminKey = "";
  let reopened: Database | undefined;

  beforeAll(async () => {
    t = await useTestDatabase(backend);
    // `keys create` prints the key alone on the last line of stdout.
    const made = cli(t.url, "keys", "create", "--name", "runner", "--scope", "ingest");
    expect(made.status, made.stderr).toBe(0);
    ingestKey = made.stdout.trimEnd().split("\n").at(-1) ?? "";
    expect(ingestKey).toMatch(/^tsk_[A-Za-z0-9_-]{43}$/);
    readKey = (await createKey({ name: "dashboard-reader", scope: "read", createdBy: "test", database: t.database }))
      .key;
    adminKey = (await createKey({ name: "ops", scope: "admin", createdBy: "test", database: t.database })).key;
    // The server migrates on start; on SQLite that needs no other connection open (as in durability.test.ts).
    await t.database.close();
    const server = await startCallbackServer(t.url, {
      TOOLSCOPE_SECRET: SECRET,
      TOOLSCOPE_CALLBACK_SECRET: CALLBACK_SECRET,
    });
    child = server.child;
    base = `http://127.0.0.1:${server.port}`;
    reopened = await openDatabase(resolveDatabaseTarget(t.url));
    setDatabase(reopened);
    t = { ...t, database: reopened };
    resetAccessSettings(readAccessSettings({ TOOLSCOPE_SECRET: SECRET }));
    resetAuth();
  });
  afterAll(async () => {
    child?.kill("SIGKILL");
    resetAccessSettings();
    resetAuth();
    await reopened?.close();
    await t.cleanup();
  });

  const register = (groupId: string, headers: Record<string, string> = {}) =>
    fetch(`${base}/api/events`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ type: "tool_call", group_id: groupId, id: "c1", name: "search" }),
    });

  async function threadExists(groupId: string): Promise<boolean> {
    return (await t.database.client.thread.count({ where: { groupId } })) === 1;
  }

  it("ingest paths: no key 401, a read key 403, an ingest or admin key 201, all in the one error shape", async () => {
    const group = uniqueId("exposed");
    const none = await answer(await register(group));
    expect(none.status).toBe(401);
    expect(none.body.error?.code).toBe("unauthorized");
    const wrong = await answer(await register(group, { authorization: `Bearer ${readKey}` }));
    expect(wrong.status).toBe(403);
    expect(wrong.body.error?.code).toBe("forbidden");
    expect((await register(`${group}-bad`, { authorization: "Bearer tsk_not-a-key" })).status).toBe(401);
    expect((await register(`${group}-basic`, { authorization: "Basic dTpw" })).status).toBe(401);
    expect(await threadExists(group)).toBe(false);
    expect((await register(group, { authorization: `Bearer ${ingestKey}` })).status).toBe(201);
    expect((await register(`${group}-admin`, { authorization: `Bearer ${adminKey}` })).status).toBe(201);
    expect(await threadExists(group)).toBe(true);
    const row = await t.database.client.apiKey.findFirstOrThrow({ where: { name: "runner" } });
    expect(row.lastUsedAt).not.toBeNull();
    expect(row.keyHash).not.toContain(ingestKey.slice(4, 20));
  });

  it("the callback takes an ingest key or a valid Standard Webhooks signature instead", async () => {
    const group = uniqueId("callback");
    expect((await register(group, { authorization: `Bearer ${ingestKey}` })).status).toBe(201);
    const result = (id: string, text: string) => JSON.stringify({ type: "tool_result", group_id: group, id, text });
    const post = (body: string, headers: Record<string, string>) =>
      fetch(`${base}/api/callback`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
      });
    expect((await post(result("c1", "unsigned, no key"), {})).status).toBe(401);
    const badSignature = await post(result("c1", "forged"), signatureHeaders("whsec_d3Jvbmc=", result("c1", "forged")));
    expect(badSignature.status).toBe(401);
    const signedBody = result("c1", "signed");
    expect((await post(signedBody, signatureHeaders(CALLBACK_SECRET, signedBody))).status).toBe(200);
    expect((await register(group, { authorization: `Bearer ${ingestKey}` })).status).toBe(200);
    const keyed = await fetch(`${base}/api/events`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${ingestKey}` },
      body: JSON.stringify({ type: "tool_call", group_id: group, id: "c2", name: "search" }),
    });
    expect(keyed.status).toBe(201);
    expect((await post(result("c2", "with a key, unsigned"), { authorization: `Bearer ${ingestKey}` })).status).toBe(
      200,
    );
    expect((await post(result("c2", "a read key"), { authorization: `Bearer ${readKey}` })).status).toBe(403);
    expect(await t.database.client.toolResult.count({ where: { toolCall: { groupId: group } } })).toBe(2);
  });

  it("a revoked key is refused from the next request on", async () => {
    const key = await createKey({ name: "short-lived", scope: "ingest", createdBy: "test", database: t.database });
    expect((await register(uniqueId("revoke"), { authorization: `Bearer ${key.key}` })).status).toBe(201);
    await revokeKey(key.id, t.database);
    const refused = await answer(await register(uniqueId("revoke"), { authorization: `Bearer ${key.key}` }));
    expect(refused.status).toBe(401);
    expect(refused.body.error?.message).toContain("revoked");
  });

  it("another Host (DNS rebinding) or a foreign Origin is refused even with a valid key", async () => {
    const group = uniqueId("rebind");
    // fetch() cannot set Host; what a rebound browser sends is exactly this request.
    const rebound = await new Promise<number>((resolve, reject) => {
      const request = http.request(
        `${base}/api/events`,
        {
          method: "POST",
          headers: {
            host: "attacker.example:80",
            "content-type": "application/json",
            authorization: `Bearer ${ingestKey}`,
          },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on("error", reject);
      request.end(JSON.stringify({ type: "tool_call", group_id: group, id: "c1", name: "x" }));
    });
    expect(rebound).toBe(403);
    expect(
      (await register(group, { origin: "http://attacker.example", authorization: `Bearer ${ingestKey}` })).status,
    ).toBe(403);
    expect(await threadExists(group)).toBe(false);
  });

  it("Next routes: read and admin scopes, 401 without a credential, health reveals nothing", async () => {
    const get = (headers: Record<string, string> = {}) =>
      threadsRoute.GET(new Request(`${ORIGIN}/api/threads`, { headers }));
    expect((await answer(await get())).body.error?.code).toBe("unauthorized");
    expect((await get({ authorization: `Bearer ${ingestKey}` })).status).toBe(403);
    expect((await get({ authorization: `Bearer ${readKey}` })).status).toBe(200);
    expect((await get({ authorization: `Bearer ${adminKey}` })).status).toBe(200);

    const transcript = '{"type":"tool_call","group_id":"imp","id":"c1","name":"x"}';
    const upload = (contentType: string, key: string) =>
      importRoute.POST(
        new Request(`${ORIGIN}/api/import?format=toolscope`, {
          method: "POST",
          headers: { "content-type": contentType, authorization: `Bearer ${key}` },
          body: transcript,
        }),
      );
    expect((await upload("application/x-ndjson", readKey)).status).toBe(403);
    expect((await upload("text/plain", adminKey)).status).toBe(415);

    const health = await answer(await healthRoute.GET(new Request(`${ORIGIN}/api/health`)));
    expect(health.status).toBe(200);
    expect(Object.keys(health.body).sort()).toEqual(["migrations", "status"]);
    const full = await answer(
      await healthRoute.GET(new Request(`${ORIGIN}/api/health`, { headers: { authorization: `Bearer ${readKey}` } })),
    );
    expect(full.body).toHaveProperty("counts");
  });

  it("sign-in (HttpOnly, SameSite=Lax cookie), the settings API with the session, sign-out", async () => {
    const email = `${uniqueId("user")}@example.com`.toLowerCase();
    await addUser({
      email,
      password: "correct horse battery staple",
      database: t.database,
      settings: readAccessSettings({ TOOLSCOPE_SECRET: SECRET }),
    });
    const signIn = (password: string) =>
      authRoute.POST(
        new Request(`${ORIGIN}/api/auth/sign-in/email`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: ORIGIN },
          body: JSON.stringify({ email, password }),
        }),
      );
    expect((await signIn("not the password")).status).toBe(401);
    const signedIn = await signIn("correct horse battery staple");
    expect(signedIn.status).toBe(200);
    const setCookie = signedIn.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/toolscope\.session_token=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i);
    const cookie = setCookie.split(";")[0] ?? "";

    expect((await threadsRoute.GET(new Request(`${ORIGIN}/api/threads`, { headers: { cookie } }))).status).toBe(200);
    const createKeyWith = (headers: Record<string, string>) =>
      keysRoute.POST(
        new Request(`${ORIGIN}/api/keys`, {
          method: "POST",
          headers: { cookie, ...headers },
          body: JSON.stringify({ name: "from-the-page", scope: "read" }),
        }),
      );
    expect((await createKeyWith({ "content-type": "text/plain" })).status).toBe(415);
    expect(
      (await createKeyWith({ "content-type": "application/json", origin: "http://attacker.example" })).status,
    ).toBe(403);
    const created = await answer(await createKeyWith({ "content-type": "application/json", origin: ORIGIN }));
    expect(created.status).toBe(201);
    expect(created.body.createdBy).toBe(`user:${email}`);
    expect(String(created.body.key)).toMatch(/^tsk_/);
    const listed = await answer(await keysRoute.GET(new Request(`${ORIGIN}/api/keys`, { headers: { cookie } })));
    expect(JSON.stringify(listed.body)).not.toContain(String(created.body.key));

    const signedOut = await authRoute.POST(
      new Request(`${ORIGIN}/api/auth/sign-out`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json", origin: ORIGIN },
        body: "{}",
      }),
    );
    expect(signedOut.status).toBe(200);
    expect((await threadsRoute.GET(new Request(`${ORIGIN}/api/threads`, { headers: { cookie } }))).status).toBe(401);
  });

  it("sign-in and sessions work on every Host the allowlist accepts: a LAN address, a *.localhost name", async () => {
    // Exposed mode without TOOLSCOPE_PUBLIC_URL accepts IP addresses as Host (start.ts says so), but Better Auth
    // had its own narrower list: signing in at http://192.168.1.5:3000, or any page with a session cookie there,
    // answered 500.
    const email = `${uniqueId("lan")}@example.com`.toLowerCase();
    await addUser({
      email,
      password: "correct horse battery staple",
      database: t.database,
      settings: readAccessSettings({ TOOLSCOPE_SECRET: SECRET }),
    });
    for (const origin of ["http://192.168.1.5:3000", "http://[fd00::5]:3000", "http://toolscope.localhost:3000"]) {
      const signedIn = await authRoute.POST(
        new Request(`${origin}/api/auth/sign-in/email`, {
          method: "POST",
          // Its own address (toolscope-server.ts sets this header to the TCP peer): Better Auth's sign-in limit is
          // per address and in memory, and the other sign-in test shares "127.0.0.1".
          headers: { "content-type": "application/json", origin, "x-forwarded-for": "192.0.2.44" },
          body: JSON.stringify({ email, password: "correct horse battery staple" }),
        }),
      );
      expect(signedIn.status, origin).toBe(200);
      const cookie = (signedIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
      expect(cookie, origin).toMatch(/^toolscope\.session_token=/);
      expect(
        (await threadsRoute.GET(new Request(`${origin}/api/threads`, { headers: { cookie } }))).status,
        origin,
      ).toBe(200);
      const session = await authRoute.GET(new Request(`${origin}/api/auth/get-session`, { headers: { cookie } }));
      expect(session.status, origin).toBe(200);
    }
    // A name outside the allowlist is still refused before Better Auth sees it.
    expect(
      (
        await threadsRoute.GET(
          new Request("http://attacker.example:3000/api/threads", {
            headers: { cookie: "toolscope.session_token=x.y" },
          }),
        )
      ).status,
    ).toBe(403);
  });

  it("the CLI refuses a user without TOOLSCOPE_SECRET and a key with an unknown scope", () => {
    const bad = cli(t.url, "keys", "create", "--name", "x", "--scope", "write");
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--scope ingest|read|admin");
    const run = spawnSync(
      process.execPath,
      nodeScriptArgs(
        "scripts/toolscope.ts",
        "users",
        "create",
        "--email",
        "a@b.example",
        "--password",
        "long enough password",
      ),
      {
        env: { ...process.env, DATABASE_URL: t.url, TOOLSCOPE_SECRET: "" },
        encoding: "utf8",
      },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("TOOLSCOPE_SECRET");
  });
});
